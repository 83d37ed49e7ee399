import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Two pages: the card under the host's reset, and the same card without it.
export default defineConfig({
  plugins: [react()],
  build: { rollupOptions: { input: ["index.html", "plain.html"] } },
});
