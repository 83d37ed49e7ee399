// auth.ts: who the student is, from a sign-in (NextAuth).
import { timingSafeEqual } from "node:crypto";
import { readFile } from "node:fs/promises";
import { getServerSession, type NextAuthOptions } from "next-auth";
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

// Else a class list for a pilot: CLASS_LIST (class-list.csv) holds "id,code,name" a line, the code the teacher
// handed that student and their name (the rest of the line). Keep the file out of git and off the web.
const failed = new Map<string, { count: number; since: number }>(); // wrong codes per student id, this server's
const TRIES = 5;
const LOCKED_MS = 15 * 60_000;

/** The student on the list with that code; `listed` whether the id is on the list at all. */
async function fromClassList(student: string, given: string) {
  const file = process.env.CLASS_LIST ?? "class-list.csv";
  // Read when a student signs in, never part of the build: the comment keeps Next from tracing the whole project.
  const text = await readFile(/* turbopackIgnore: true */ file, "utf8");
  for (const line of text.split(/\r?\n/)) {
    const [id = "", code = "", ...name] = line.split(",").map((field) => field.trim());
    // "id" is the header's, never a student's.
    if (!id || !code || id === "id" || id !== student) continue;
    const a = Buffer.from(given);
    const b = Buffer.from(code);
    const shown = name.join(", ").replace(/^"|"$/g, "") || id;
    return { listed: true, user: a.length === b.length && timingSafeEqual(a, b) ? { id, name: shown } : null };
  }
  return { listed: false, user: null };
}

const classList = CredentialsProvider({
  id: "class-list",
  name: "your class code",
  credentials: {
    student: { label: "Student ID", type: "text" },
    code: { label: "Code", type: "password" },
  },
  async authorize(credentials) {
    const student = credentials?.student?.trim() ?? "";
    // Five wrong codes for a listed student, and their id waits 15 minutes: codes cannot be tried one by one.
    const earlier = failed.get(student);
    if (earlier && Date.now() - earlier.since > LOCKED_MS) failed.delete(student);
    const wrong = failed.get(student);
    if (wrong && wrong.count >= TRIES) return null;
    const { listed, user } = await fromClassList(student, credentials?.code ?? "");
    if (user) failed.delete(student);
    else if (listed) failed.set(student, { count: (wrong?.count ?? 0) + 1, since: wrong?.since ?? Date.now() });
    return user;
  },
});

export const authOptions: NextAuthOptions = {
  providers: [process.env.OIDC_ISSUER ? university : classList],
  session: { strategy: "jwt" },
  // NextAuth's own sign-in page, light or dark as the student's system is.
  theme: { colorScheme: "auto" },
  // The student's id goes into the session: their chats are kept under it.
  callbacks: { session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub } }) },
};

/** The signed-in student's stable id (the sign-in's own, `sub`), or null when no one is signed in. */
export async function signedInStudent(): Promise<string | null> {
  const session = await getServerSession(authOptions);
  const id = (session?.user as { id?: string } | undefined)?.id;
  return id ? `${process.env.OIDC_ISSUER ? "sso" : "class"}:${id}` : null;
}
