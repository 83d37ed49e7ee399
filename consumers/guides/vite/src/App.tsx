import { Tutor } from "./tutor.tsx";

export default function App() {
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-5xl flex-col gap-6 px-6 py-10 font-sans">
      <h1 className="text-2xl font-semibold">Python tutor</h1>
      <Tutor />
    </main>
  );
}
