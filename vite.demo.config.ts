import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The harness's demo page: a browser bundle served by `npm start`.
export default defineConfig({
  root: "src/harness/demo",
  base: "./",
  plugins: [react(), tailwindcss()],
  build: {
    outDir: "../../../dist/demo",
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
});
