import { Card } from "./Card.tsx";
import "./reset.css";

/** The card under the host's reset (index.html); plain.html shows it without. */
export function App() {
  return <Card />;
}
