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

// Else a class list for a pilot: CLASS_LIST (class-list.csv) holds "id,name,code" a line, the code the
// teacher handed that student. Keep the file out of git and off the web.
const classList = CredentialsProvider({
  id: "class-list",
  name: "your class code",
  credentials: {
    student: { label: "Student ID", type: "text" },
    code: { label: "Code", type: "password" },
  },
  async authorize(credentials) {
    const text = await readFile(process.env.CLASS_LIST ?? "class-list.csv", "utf8");
    for (const line of text.split(/\r?\n/)) {
      const [id, name, code] = line.split(",").map((field) => field.trim());
      if (!id || !code || id !== credentials?.student) continue;
      const given = Buffer.from(credentials.code ?? "");
      const expected = Buffer.from(code);
      return given.length === expected.length && timingSafeEqual(given, expected) ? { id, name: name || id } : null;
    }
    return null;
  },
});

export const authOptions: NextAuthOptions = {
  providers: [process.env.OIDC_ISSUER ? university : classList],
  session: { strategy: "jwt" },
  // The student's id goes into the session: their chats are kept under it.
  callbacks: { session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub } }) },
};

/** The signed-in student's stable id (the sign-in's own, `sub`), or null when no one is signed in. */
export async function signedInStudent(): Promise<string | null> {
  const session = await getServerSession(authOptions);
  const id = (session?.user as { id?: string } | undefined)?.id;
  return id ? `${process.env.OIDC_ISSUER ? "sso" : "class"}:${id}` : null;
}
