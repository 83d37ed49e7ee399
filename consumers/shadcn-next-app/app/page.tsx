import { TutorChat } from "./tutor-chat";

export default function Home() {
  return (
    <main className="mx-auto w-full max-w-3xl p-4">
      <TutorChat />
    </main>
  );
}
