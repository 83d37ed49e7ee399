import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { DemoApp } from "./demo-app.js";
import "../../styles.css";
import "./demo.css";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <DemoApp />
  </StrictMode>,
);
