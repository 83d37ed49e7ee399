import { StoredTutorChat } from "./StoredTutorChat.tsx";
import { TutorChat } from "./TutorChat.tsx";

export function App() {
  return (
    <main style={{ maxWidth: 1000, margin: "0 auto", padding: 16 }}>
      {new URLSearchParams(location.search).has("stored") ? <StoredTutorChat /> : <TutorChat />}
    </main>
  );
}
