// vite.config.ts: the page, Tailwind, and the tutor's server side on the dev and preview servers.
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { toNodeMiddleware } from "execute-code-ui/server";
import { defineConfig, type Plugin } from "vite";
import { tutorApi } from "./tutor-server.ts";

// Every path under /api goes to tutor-server.ts; the rest is Vite's. In production, mount the same
// middleware in your Node server (Express: `app.use(toNodeMiddleware(tutorApi))`).
const api: Plugin = {
  name: "tutor-api",
  configureServer(server) {
    server.middlewares.use(toNodeMiddleware(tutorApi));
  },
  configurePreviewServer(server) {
    server.middlewares.use(toNodeMiddleware(tutorApi));
  },
};

export default defineConfig({
  plugins: [react(), tailwindcss(), api],
});
