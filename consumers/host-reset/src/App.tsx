import { Cards } from "./Card.tsx";
import "./reset.css";

/** The cards under the host's stylesheet (index.html); plain.html shows them without. */
export function App() {
  // A fixed width: the host's reset also drops the body's margin.
  return (
    <main style={{ width: 720 }}>
      <Cards />
    </main>
  );
}
