import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import pkg from "./package.json" with { type: "json" };

// Library build of the browser entries. Dependencies and peers stay external:
// the host's bundler resolves them once. Modules stay files of their own so
// that only the components carry "use client" (rolldown keeps each module's
// directive): a Server Component can still call the pure helpers (the
// contract, the view model, the labels).
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
      entry: {
        index: "src/index.ts",
        "assistant-ui/index": "src/assistant-ui/index.ts",
        "client-executor/index": "src/client-executor/index.ts",
        "locales/de": "src/locales/de.ts",
      },
      formats: ["es"],
    },
    rolldownOptions: {
      external: (id) => external.some((name) => id === name || id.startsWith(`${name}/`)),
      output: {
        preserveModules: true,
        preserveModulesRoot: "src",
        entryFileNames: "[name].js",
      },
    },
  },
});
