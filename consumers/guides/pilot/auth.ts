// auth.ts: who the student is, from a sign-in (NextAuth).
import { timingSafeEqual } from "node:crypto";
import { readFile } from "node:fs/promises";
import { getServerSession, type NextAuthOptions, type Session } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import type { OAuthConfig } from "next-auth/providers/oauth";

// The university's single sign-on, where OIDC_ISSUER names its OpenID Connect issuer.
const university: OAuthConfig<{ sub: string; name?: string; email?: string }> = {
  id: "university",
  name: process.env.OIDC_NAME ?? "your university",
  type: "oauth",
  wellKnown: `${process.env.OIDC_ISSUER}/.well-known/openid-configuration`,
  clientId: process.env.OIDC_CLIENT_ID,
  clientSecret: process.env.OIDC_CLIENT_SECRET,
  authorization: { params: { scope: "openid profile email" } },
  idToken: true,
  checks: ["pkce", "state"],
  profile: (profile) => ({ id: profile.sub, name: profile.name ?? profile.email ?? profile.sub }),
};

// Else a class list for a pilot: CLASS_LIST (class-list.csv), a header "id,code,name" and then a line per student:
// their id, the code the teacher handed them, and their name (the rest of the line). Keep it out of git and off
// the web.
const failed = new Map<string, { count: number; since: number }>(); // wrong codes, this server's
const TRIES = 5; // for one student id from one browser, which then waits 15 minutes
const LOCKED_MS = 15 * 60_000;
const TRIES_IN_ALL = 100; // for one student id from every browser, which then all wait an hour
const IN_ALL_MS = 60 * 60_000;
let sweptAt = 0;

/** The wrong codes under `key` within the last `ms`. */
function triesOf(key: string, ms: number): { count: number; since: number } {
  const earlier = failed.get(key);
  return earlier && Date.now() - earlier.since < ms ? earlier : { count: 0, since: Date.now() };
}

/** The list's students by id; none, and a line in the log, when its first line is not the header. */
async function classList(): Promise<Map<string, { code: string; name: string }>> {
  const file = process.env.CLASS_LIST ?? "class-list.csv";
  // Read when a student signs in, never part of the build: the comment keeps Next from tracing the whole project.
  const [header = "", ...lines] = (await readFile(/* turbopackIgnore: true */ file, "utf8"))
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/);
  const students = new Map<string, { code: string; name: string }>();
  if (header.replaceAll(" ", "").toLowerCase() !== "id,code,name") {
    console.error(`${file} must start with the header id,code,name: no one can sign in until it does.`);
    return students;
  }
  for (const line of lines) {
    const [id = "", code = "", ...name] = line.split(",").map((field) => field.trim());
    if (id && code) students.set(id, { code, name: name.join(", ").replace(/^"|"$/g, "") || id });
  }
  return students;
}

const sameCode = (given: string, code: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(code);
  return a.length === b.length && timingSafeEqual(a, b);
};

const classCode = CredentialsProvider({
  id: "class-list",
  name: "your class code",
  credentials: {
    student: { label: "Student ID", type: "text" },
    code: { label: "Code", type: "password" },
  },
  async authorize(credentials) {
    const student = credentials?.student?.trim() ?? "";
    // Five wrong codes for a listed student from one browser, and that browser waits 15 minutes for that id: a
    // classmate's guesses keep no one else out. A hundred from all browsers in an hour, and every browser waits
    // for the rest of that hour: no one guesses a 48-bit code that way, and a prank takes a script. Counted
    // before the list is read, so that guesses sent at once count each other. A browser is told apart by the
    // sign-in form's token, which NextAuth has checked against that browser's cookie before this.
    const token = (credentials as { csrfToken?: string } | undefined)?.csrfToken ?? "";
    const keys = [`browser ${/^[0-9a-f]{64}$/.test(token) ? token : ""} ${student}`, `id ${student}`] as const;
    const [mine, all] = [triesOf(keys[0], LOCKED_MS), triesOf(keys[1], IN_ALL_MS)];
    if (mine.count >= TRIES || all.count >= TRIES_IN_ALL) return null;
    failed.set(keys[0], { count: mine.count + 1, since: mine.since });
    failed.set(keys[1], { count: all.count + 1, since: all.since });
    // Tries past their time go now and then: the map holds at most a hundred browsers an id an hour.
    if (Date.now() - sweptAt > LOCKED_MS) {
      sweptAt = Date.now();
      for (const [key, { since }] of failed) if (Date.now() - since >= IN_ALL_MS) failed.delete(key);
    }
    const listed = (await classList()).get(student);
    if (!listed) {
      for (const key of keys) failed.delete(key); // only a listed id is worth guessing: the map stays small
      return null;
    }
    if (!sameCode(credentials?.code ?? "", listed.code)) return null;
    // The right code: this try was no guess.
    failed.delete(keys[0]);
    const now = failed.get(keys[1]);
    if (now && now.count > 1) failed.set(keys[1], { ...now, count: now.count - 1 });
    else failed.delete(keys[1]);
    return { id: student, name: listed.name };
  },
});

export const authOptions: NextAuthOptions = {
  providers: [process.env.OIDC_ISSUER ? university : classCode],
  // A class day: a shared lab computer's session ends by the next day (signing out ends it at once on that computer).
  session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
  // NextAuth's own sign-in page, light or dark as the student's system is.
  theme: { colorScheme: "auto" },
  // The student's id goes into the session: their chats are kept under it.
  callbacks: { session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub } }) },
};

/**
 * The student's stable id (the sign-in's own, `sub`) from a session, or null when there is none, or when a
 * student signed in from the class list is no longer on it.
 */
export async function studentOf(session: Session | null): Promise<string | null> {
  const id = (session?.user as { id?: string } | undefined)?.id;
  if (!id) return null;
  if (process.env.OIDC_ISSUER) return `sso:${id}`;
  return (await classList()).has(id) ? `class:${id}` : null;
}

/** The signed-in student's stable id, or null: what the chat's API is asked for. */
export const signedInStudent = async () => studentOf(await getServerSession(authOptions));
