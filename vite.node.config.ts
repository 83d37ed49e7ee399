import { copyFileSync, mkdirSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname } from "node:path";
import { defineConfig, type Plugin } from "vite";
import pkg from "./package.json" with { type: "json" };

const external = [
  ...builtinModules,
  ...builtinModules.map((name) => `node:${name}`),
  ...Object.keys(pkg.dependencies),
  ...Object.keys(pkg.peerDependencies),
  ...Object.keys(pkg.devDependencies),
];

const BROWSER_OWNED = /[\\/]src[\\/](contract|view|ui|assistant-ui|client-executor)[\\/]/;

// The sandbox processes (Pyodide's and CPython's warm parent) run as plain files next to their executors.
function copySandboxScripts(): Plugin {
  return {
    name: "copy-sandbox-scripts",
    writeBundle() {
      for (const file of [
        "pyodide/pyodide-process.mjs",
        "pyodide/pyodide-runtime.mjs",
        "pyodide/pyodide-snapshot.mjs",
        "cpython/cpython-zygote.py",
      ]) {
        mkdirSync(dirname(`dist/sandbox/${file}`), { recursive: true });
        copyFileSync(`src/sandbox/${file}`, `dist/sandbox/${file}`);
      }
    },
  };
}

// This build shares dist/ with the browser build: it may write only its own folders.
function stayInNodeFolders(): Plugin {
  return {
    name: "stay-in-node-folders",
    generateBundle(_, bundle) {
      const stray = Object.keys(bundle).filter((file) => !/^(server|harness|sandbox|testing|node)\//.test(file));
      if (stray.length) this.error(`The Node build would overwrite the browser build's ${stray.join(", ")}`);
    },
  };
}

// The Node entries: the server tool, the harness, the sandbox service, and the Playwright helpers.
export default defineConfig({
  plugins: [copySandboxScripts(), stayInNodeFolders()],
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
        "sandbox/index": "src/sandbox/index.ts",
        "sandbox/service-process": "src/sandbox/service-process.ts",
        "sandbox/cli": "src/sandbox/cli.ts",
        "testing/index": "src/testing/index.ts",
      },
      external: (id) => external.some((name) => id === name || id.startsWith(`${name}/`)),
      output: {
        format: "es",
        preserveModules: true,
        preserveModulesRoot: "src",
        // Modules the browser build also writes (the contract, the view) go
        // under node/: tree-shaken for these entries, they would overwrite
        // the browser's copies with fewer exports.
        entryFileNames: (chunk) => (BROWSER_OWNED.test(chunk.facadeModuleId ?? "") ? "node/[name].js" : "[name].js"),
      },
    },
  },
});
