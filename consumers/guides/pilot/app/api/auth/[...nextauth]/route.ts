// app/api/auth/[...nextauth]/route.ts: NextAuth's sign-in, sign-out and session, under /api/auth.
import NextAuth from "next-auth";
import { authOptions } from "@/auth";

const handler = NextAuth(authOptions);

export { handler as GET, handler as POST };
