// app/api/auth/[...nextauth]/route.ts: NextAuth's sign-in, sign-out and session, under /api/auth.
import NextAuth from "next-auth";
import { authOptions } from "@/auth";

const handler = NextAuth(authOptions);

// NextAuth reads a sign-in's whole body, however large: a student id and a code take a few hundred bytes.
const MAX_BODY_BYTES = 16 * 1024;

async function POST(request: Request, context: { params: Promise<{ nextauth: string[] }> }) {
  // A browser's form says its length, and Node reads no further; a body that does not say it is never read.
  const length = request.headers.get("content-length");
  if (length === null) return new Response("A sign-in says its length.", { status: 411 });
  if (!(Number(length) <= MAX_BODY_BYTES)) return new Response("A sign-in takes a few hundred bytes.", { status: 413 });
  return handler(request, context);
}

export { handler as GET, POST };
