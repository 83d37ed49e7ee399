import { Tutor } from "./tutor";

// The whole screen, and no more: the conversation scrolls inside it, the message box stays in view.
export default function Home() {
  return (
    <main className="mx-auto flex h-dvh w-full max-w-5xl flex-col gap-3 bg-white px-3 pt-3 font-sans text-zinc-900 sm:px-6 sm:pt-6 dark:bg-zinc-950 dark:text-zinc-100">
      <h1 className="text-xl font-semibold sm:text-2xl">Python tutor</h1>
      <Tutor />
    </main>
  );
}
