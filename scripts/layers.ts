// The layers of src/, in one table (docs/development.md, "Layers"). tests/node/layers.test.ts checks
// every import of src/ against it; `npm run layers:build` writes the same rules for Biome into
// biome.layers.json, which biome.jsonc extends, so `npm run lint` refuses a crossing in the editor.
import { readdirSync } from "node:fs";
import path from "node:path";

/** Every folder of src/. A folder not named here fails tests/node/layers.test.ts. */
export const LAYER_NAMES = [
  "contract",
  "view",
  "ui",
  "locales",
  "client-executor",
  "assistant-ui",
  "server",
  "testing",
  "sandbox",
  "harness",
] as const;
export type LayerName = (typeof LAYER_NAMES)[number];

export interface Layer {
  /** The folders of src/ it may import, besides its own; "any" for the harness, on top. Anything else is refused. */
  imports: readonly LayerName[] | "any";
  /** Runs in the browser: imports nothing of Node (`node:*`). */
  browser: boolean;
  /** May import React, react-dom and `@assistant-ui/*`. */
  react: boolean;
}

export const LAYERS: Record<LayerName, Layer> = {
  contract: { imports: [], browser: true, react: false },
  view: { imports: ["contract"], browser: true, react: false },
  ui: { imports: ["contract", "view"], browser: true, react: true },
  locales: { imports: ["contract", "view", "ui"], browser: true, react: true },
  "client-executor": { imports: ["contract"], browser: true, react: false },
  "assistant-ui": { imports: ["contract", "view", "ui", "client-executor"], browser: true, react: true },
  server: { imports: ["contract"], browser: false, react: false },
  // Playwright helpers: they run in the test runner's Node, next to @playwright/test.
  testing: { imports: ["contract", "view"], browser: false, react: false },
  // The service a course deploys: engines, run slots, files; it shares the server's HTTP and file helpers.
  sandbox: { imports: ["contract", "server"], browser: false, react: false },
  harness: { imports: "any", browser: false, react: true },
};

/**
 * The folders of src/server, one concern each, and the others each may import; any of them may import the files at
 * src/server's top (the Sandbox interface, the token, the entry). A folder of src/server not named here fails
 * tests/node/layers.test.ts.
 */
export const SERVER_PARTS: Record<string, readonly string[]> = {
  http: [],
  files: ["http"],
  codeapi: ["http", "files"],
  jupyter: ["http", "files"],
  tool: ["http", "files", "codeapi"],
  chat: ["http", "files", "tool"],
};

/** The files directly in src/ (the package's entries there), with the folders each may import. */
export const ENTRIES: Record<string, Layer> = {
  // The browser entry: the contract, the view and the card.
  "index.ts": { imports: ["contract", "view", "ui"], browser: true, react: true },
};

export const DOC = "docs/development.md";
const REACT = ["react", "react/**", "react-dom", "react-dom/**", "@assistant-ui/**"];

/** How many folders deep src/ goes (src/ui/highlight: 2), so the rules cover `../`, `../../`, … that far. */
export function depthOf(dir: string): number {
  const dirs = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  return dirs.length === 0 ? 0 : 1 + Math.max(...dirs.map((entry) => depthOf(path.join(dir, entry.name))));
}

/** Relative specifiers that reach `folder` of src/ from a file `1..depth` folders below src/ (never a package name). */
function reach(folder: string, depth: number): string[] {
  return Array.from({ length: depth }, (_, i) => "../".repeat(i + 1) + folder).flatMap((base) => [base, `${base}/**`]);
}

const list = (names: readonly string[], none: string) => (names.length === 0 ? none : names.join(", "));

function override(includes: string, patterns: { group: string[]; message: string }[]) {
  return {
    includes: [includes],
    linter: { rules: { style: { noRestrictedImports: { level: "error", options: { patterns } } } } },
  };
}

/** Biome's configuration for the layers: for each file or folder, every other folder of src/ it may not import. */
export function biomeLayers(depth: number) {
  const overrides = [];
  for (const name of LAYER_NAMES) {
    const layer = LAYERS[name];
    const patterns = [];
    if (layer.imports !== "any") {
      const allowed = layer.imports;
      for (const other of LAYER_NAMES.filter((other) => other !== name && !allowed.includes(other))) {
        patterns.push({
          group: reach(other, depth),
          message: `src/${name} imports only ${list(allowed, "its own folder")}, never ${other} (the layers of ${DOC}).`,
        });
      }
    }
    if (layer.browser) {
      patterns.push({ group: ["node:*"], message: `src/${name} runs in the browser: nothing of Node (${DOC}).` });
    }
    if (!layer.react) patterns.push({ group: REACT, message: `src/${name} renders nothing: no React (${DOC}).` });
    if (patterns.length > 0) overrides.push(override(`src/${name}/**`, patterns));
    // Biome takes a rule's options from the last override that matches, so each part repeats its layer's patterns.
    if (name === "server") overrides.push(...serverParts(patterns));
  }
  for (const [file, entry] of Object.entries(ENTRIES)) {
    const allowed = entry.imports === "any" ? LAYER_NAMES : entry.imports;
    const patterns = LAYER_NAMES.filter((other) => !allowed.includes(other)).map((other) => ({
      group: [`./${other}`, `./${other}/**`],
      message: `src/${file} imports only ${list(allowed, "nothing of src/")}, never ${other} (the layers of ${DOC}).`,
    }));
    if (entry.browser) {
      patterns.push({ group: ["node:*"], message: `src/${file} runs in the browser: nothing of Node (${DOC}).` });
    }
    if (!entry.react) patterns.push({ group: REACT, message: `src/${file} renders nothing: no React (${DOC}).` });
    if (patterns.length > 0) overrides.push(override(`src/${file}`, patterns));
  }
  return { $schema: "./node_modules/@biomejs/biome/configuration_schema.json", overrides };
}

/** For each folder of src/server, the server's patterns and every other folder of src/server it may not import. */
function serverParts(serverPatterns: { group: string[]; message: string }[]) {
  return Object.entries(SERVER_PARTS).map(([part, allowed]) => {
    const refused = Object.keys(SERVER_PARTS).filter((other) => other !== part && !allowed.includes(other));
    const patterns = refused.map((other) => ({
      group: [`../${other}`, `../${other}/**`, `../../server/${other}`, `../../server/${other}/**`],
      message: `src/server/${part} imports only ${list(allowed, "its own folder")} of src/server, never ${other} (${DOC}).`,
    }));
    return override(`src/server/${part}/**`, [...serverPatterns, ...patterns]);
  });
}

/** The text of biome.layers.json for the src/ at `srcDir`. */
export function biomeLayersText(srcDir: string): string {
  return `${JSON.stringify(biomeLayers(depthOf(srcDir)), null, 2)}\n`;
}
