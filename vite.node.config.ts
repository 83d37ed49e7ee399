import { copyFileSync, mkdirSync } from "node:fs";
import { builtinModules } from "node:module";
import { defineConfig, type Plugin } from "vite";
import pkg from "./package.json" with { type: "json" };

const external = [
  ...builtinModules,
  ...builtinModules.map((name) => `node:${name}`),
  ...Object.keys(pkg.dependencies),
  ...Object.keys(pkg.peerDependencies),
  ...Object.keys(pkg.devDependencies),
];

// The sandbox process and its hooks run as plain files next to the executor.
function copySandboxScripts(): Plugin {
  return {
    name: "copy-sandbox-scripts",
    writeBundle() {
      mkdirSync("dist/harness/sandbox", { recursive: true });
      for (const file of ["pyodide-process.mjs", "pyodide-runtime.mjs", "pyodide-snapshot.mjs"]) {
        copyFileSync(`src/harness/sandbox/${file}`, `dist/harness/sandbox/${file}`);
      }
    },
  };
}

// The Node entries: the server tool, the harness, and the Playwright helpers.
export default defineConfig({
  plugins: [copySandboxScripts()],
  build: {
    ssr: true,
    outDir: "dist",
    emptyOutDir: false,
    sourcemap: true,
    minify: false,
    target: "node20",
    rolldownOptions: {
      input: {
        "server/index": "src/server/index.ts",
        "harness/index": "src/harness/index.ts",
        "harness/start": "src/harness/start.ts",
        "testing/index": "src/testing/index.ts",
      },
      external: (id) => external.some((name) => id === name || id.startsWith(`${name}/`)),
      output: {
        format: "es",
        preserveModules: true,
        preserveModulesRoot: "src",
        entryFileNames: "[name].js",
      },
    },
  },
});
