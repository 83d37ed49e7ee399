import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import pkg from "./package.json" with { type: "json" };

// Library build of the browser entries. Dependencies and peers stay external:
// the host's bundler resolves them once. Modules stay files of their own so
// that only the components carry "use client" (rolldown keeps each module's
// directive): a Server Component can still call the pure helpers (the
// contract, the view model, the labels).
const external = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)];

// The highlighting worker stays a module of its own, spawned with the
// `new Worker(new URL("./highlight-worker.js", import.meta.url))` that the
// host's bundler (Vite, webpack, Next.js) recognises and bundles with shiki.
// Vite would bundle the worker into the library itself, with a URL no host
// bundler can follow; this hides the expression from it and puts it back.
const WORKER_URL = 'new URL("./highlight-worker.js", import.meta.url)';
const keepWorkerUrl: Plugin = {
  name: "execute-code-ui:keep-worker-url",
  enforce: "pre",
  // The library build only: Storybook and the tests load this config too, and there Vite should bundle the worker.
  apply: (config, { command }) => command === "build" && Boolean(config.build?.lib),
  // `map: null`: the code moves by a few columns on one line only.
  transform: (code) =>
    code.includes(WORKER_URL)
      ? { code: code.replace(WORKER_URL, 'new URL("./highlight-worker.js", import.meta.KEEP_URL)'), map: null }
      : null,
  renderChunk: (code) =>
    code.includes("import.meta.KEEP_URL")
      ? { code: code.replaceAll("import.meta.KEEP_URL", "import.meta.url"), map: null }
      : null,
};

export default defineConfig({
  plugins: [keepWorkerUrl, react()],
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
        "ui/highlight/highlight-worker": "src/ui/highlight/highlight-worker.ts",
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
