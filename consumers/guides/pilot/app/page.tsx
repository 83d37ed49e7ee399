import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { Suspense } from "react";
import { authOptions, studentOf } from "@/auth";
import { Tutor } from "./tutor";

// The whole screen, and no more: the conversation scrolls inside it, the message box stays in view.
export default function Home() {
  return (
    <main className="mx-auto flex h-dvh w-full max-w-5xl flex-col gap-3 bg-white px-3 pt-3 font-sans text-zinc-900 sm:px-6 sm:pt-6 dark:bg-zinc-950 dark:text-zinc-100">
      <Suspense>
        <SignedIn />
      </Suspense>
    </main>
  );
}

// Read per request (the sign-in's cookie), so inside Suspense; anyone not signed in goes to sign in first.
async function SignedIn() {
  // Never prerendered: the sign-in makes a random token for anyone not signed in.
  await connection();
  const session = await getServerSession(authOptions);
  if (!session || !(await studentOf(session))) redirect("/api/auth/signin");
  return (
    <>
      <header className="flex items-center gap-3">
        <h1 className="flex-1 text-xl font-semibold sm:text-2xl">Python tutor</h1>
        <span className="truncate text-sm text-zinc-600 dark:text-zinc-400">{session.user?.name}</span>
        <a
          href="/api/auth/signout"
          className="inline-flex min-h-9 items-center text-sm underline pointer-coarse:min-h-11"
        >
          Sign out
        </a>
      </header>
      <Tutor />
    </>
  );
}
