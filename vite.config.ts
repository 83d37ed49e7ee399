import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import pkg from "./package.json" with { type: "json" };

// Library build of the browser entry. Dependencies and peers stay external:
// the host's bundler resolves them once. shiki stays in a lazily loaded chunk.
const external = [
  ...Object.keys(pkg.dependencies),
  ...Object.keys(pkg.peerDependencies),
];

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    lib: {
      entry: { index: "src/index.ts", "locales/de": "src/locales/de.ts" },
      formats: ["es"],
    },
    rolldownOptions: {
      external: (id) => external.some((name) => id === name || id.startsWith(`${name}/`)),
      output: {
        chunkFileNames: "chunks/[name]-[hash].js",
        // The components use hooks: Next.js needs the entry marked as client code.
        banner: (chunk) => (chunk.isEntry ? '"use client";' : ""),
      },
    },
  },
});
