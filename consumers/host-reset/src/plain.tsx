import { createRoot } from "react-dom/client";
import { Cards } from "./Card.tsx";

createRoot(document.getElementById("root")!).render(
  <main style={{ width: 720 }}>
    <Cards />
  </main>,
);
