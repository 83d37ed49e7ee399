// The layers of src/ (DESIGN.md): each folder imports only from the layers
// above it, the browser's layers never reach Node, and the server never
// reaches React. Read from the import statements of every source file.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = fileURLToPath(new URL("../../src/", import.meta.url));

/** The folders each layer may import from, besides its own. The harness, on top, may use any. */
const ALLOWED: Record<string, string[]> = {
  contract: [],
  view: ["contract"],
  ui: ["contract", "view"],
  locales: ["contract", "view", "ui"],
  "client-executor": ["contract"],
  "assistant-ui": ["contract", "view", "ui", "client-executor"],
  server: ["contract"],
  testing: ["contract", "view"],
};
const BROWSER_LAYERS = ["contract", "view", "ui", "locales", "client-executor", "assistant-ui", "testing"];
const NO_REACT = ["contract", "view", "server", "client-executor"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** Every module a file imports, statically, dynamically or as a type. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm)].map((match) => match[1]!);
}

const layerOf = (file: string) => path.relative(src, file).split(path.sep)[0]!;

const imports = sourceFiles(src).flatMap((file) =>
  importsOf(file).map((specifier) => ({
    file: path.relative(src, file),
    layer: layerOf(file),
    specifier,
    target: specifier.startsWith(".") ? layerOf(path.resolve(path.dirname(file), specifier)) : null,
  })),
);

describe("the layers of src/", () => {
  it("finds the imports it checks", () => {
    expect(imports.filter((edge) => edge.layer === "ui" && edge.target === "view").length).toBeGreaterThan(0);
    expect(imports.filter((edge) => edge.layer === "server" && edge.specifier === "ai").length).toBeGreaterThan(0);
  });

  it("each layer imports only its own folder and the layers above it", () => {
    const crossings = imports.filter(
      (edge) =>
        edge.target !== null &&
        edge.target !== edge.layer &&
        ALLOWED[edge.layer] &&
        !ALLOWED[edge.layer]!.includes(edge.target),
    );
    expect(crossings.map((edge) => `${edge.file} → ${edge.specifier}`)).toEqual([]);
  });

  it("the browser's layers use nothing of Node, and the contract, the view and the server no React", () => {
    const node = imports.filter((edge) => BROWSER_LAYERS.includes(edge.layer) && edge.specifier.startsWith("node:"));
    expect(node.map((edge) => `${edge.file} → ${edge.specifier}`)).toEqual([]);
    const react = imports.filter(
      (edge) => NO_REACT.includes(edge.layer) && /^(react|react-dom|@assistant-ui\/)/.test(edge.specifier),
    );
    expect(react.map((edge) => `${edge.file} → ${edge.specifier}`)).toEqual([]);
  });

  it("the browser entry is the contract, the view and the card", () => {
    const entry = imports.filter((edge) => edge.file === "index.ts").map((edge) => edge.target);
    expect(new Set(entry)).toEqual(new Set(["contract", "view", "ui"]));
  });
});

describe("the browser's Python worker", () => {
  it("imports nothing but types: its source text alone becomes the worker", () => {
    const source = readFileSync(path.join(src, "client-executor/worker-main.ts"), "utf8");
    const imports = source.match(/^import [^;]*;/gm) ?? [];
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((line) => !line.startsWith("import type "))).toEqual([]);
  });
});

describe("the size of src/'s files", () => {
  it("keeps each file under 300 lines, or says near its top why it is longer", () => {
    const files = readdirSync(src, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.(ts|tsx|mjs|py)$/.test(entry.name))
      .map((entry) => path.join(entry.parentPath, entry.name));
    const unexplained = files.filter((file) => {
      const lines = readFileSync(file, "utf8").split("\n");
      return lines.length > 300 && !lines.slice(0, 15).some((line) => /Over 300 lines: \S/.test(line));
    });
    expect(unexplained.map((file) => path.relative(src, file))).toEqual([]);
  });
});
