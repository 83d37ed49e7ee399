import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The benchmark page: a production build of the kit, measured by bench/run.ts.
export default defineConfig({
  root: "bench/page",
  base: "./",
  plugins: [react(), tailwindcss()],
  build: {
    outDir: "../../dist-bench",
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    // BENCH_TRACE_DIR (see bench/run.ts) keeps names readable in the traces' profiles.
    minify: !process.env.BENCH_TRACE_DIR,
    // The baseline loads shiki too; one shared chunk keeps the kit's cold load
    // close to the library build, where the highlighter is a single chunk.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: "highlighter",
              test: /node_modules[\\/](shiki|@shikijs|oniguruma-to-es|regex|regex-recursion|regex-utilities)[\\/]/,
            },
          ],
        },
      },
    },
  },
});
