import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The benchmark page: a production build of the kit, measured by bench/run.ts.
export default defineConfig({
  root: "bench/page",
  base: "./",
  plugins: [react(), tailwindcss()],
  build: { outDir: "../../dist-bench", emptyOutDir: true, chunkSizeWarningLimit: 2000 },
});
