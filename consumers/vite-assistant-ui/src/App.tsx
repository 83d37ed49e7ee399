import { TutorChat } from "./TutorChat.tsx";

export function App() {
  return (
    <main style={{ maxWidth: 760, margin: "0 auto", padding: 16 }}>
      <TutorChat />
    </main>
  );
}
