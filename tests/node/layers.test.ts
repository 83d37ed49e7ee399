// The layers of src/ (docs/development.md, "Layers"): each folder imports only
// the folders the table of scripts/layers.ts allows it, the browser's layers
// never reach Node, and the layers that render nothing never reach React. Read
// from the import statements of every source file; biome.layers.json, which
// `npm run lint` applies, is written from the same table.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { biomeLayersText, ENTRIES, LAYERS, type Layer, SERVER_PARTS } from "../../scripts/layers.ts";

const src = fileURLToPath(new URL("../../src/", import.meta.url));

/** The table's row for a folder of src/ or a file directly in it; undefined for one the table does not know. */
const rowOf = (layer: string): Layer | undefined =>
  Object.hasOwn(LAYERS, layer) ? LAYERS[layer as keyof typeof LAYERS] : ENTRIES[layer];

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

  it("knows every folder of src/ and every source file directly in it (scripts/layers.ts)", () => {
    const entries = readdirSync(src, { withFileTypes: true });
    const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(folders.filter((folder) => !Object.hasOwn(LAYERS, folder))).toEqual([]);
    const files = entries
      .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name))
      .map((entry) => entry.name);
    expect(files.filter((file) => !Object.hasOwn(ENTRIES, file))).toEqual([]);
  });

  it("biome.layers.json is what npm run layers:build writes from the table", () => {
    const written = readFileSync(new URL("../../biome.layers.json", import.meta.url), "utf8");
    expect(written, "biome.layers.json is stale: run npm run layers:build").toBe(biomeLayersText(src));
  });

  it("each layer imports only its own folder and the folders the table allows it", () => {
    const crossings = imports.filter((edge) => {
      if (edge.target === null || edge.target === edge.layer) return false;
      const allowed = rowOf(edge.layer)?.imports ?? [];
      return allowed !== "any" && !(allowed as readonly string[]).includes(edge.target);
    });
    expect(crossings.map((edge) => `${edge.file} → ${edge.specifier}`)).toEqual([]);
  });

  it("the browser's layers use nothing of Node, and the layers that render nothing no React", () => {
    const node = imports.filter((edge) => rowOf(edge.layer)?.browser !== false && edge.specifier.startsWith("node:"));
    expect(node.map((edge) => `${edge.file} → ${edge.specifier}`)).toEqual([]);
    const react = imports.filter(
      (edge) => rowOf(edge.layer)?.react !== true && /^(react|react-dom|@assistant-ui\/)/.test(edge.specifier),
    );
    expect(react.map((edge) => `${edge.file} → ${edge.specifier}`)).toEqual([]);
  });

  it("the browser entry imports exactly the folders the table gives it: the contract, the view and the card", () => {
    const entry = imports.filter((edge) => edge.file === "index.ts").map((edge) => edge.target);
    expect(new Set(entry)).toEqual(new Set(ENTRIES["index.ts"]!.imports));
  });
});

describe("the folders of src/server", () => {
  const server = path.join(src, "server");
  /** The folder of src/server a file or a module is in; null for src/server's top or outside it. */
  const partOf = (file: string) => {
    const parts = path.relative(server, file).split(path.sep);
    return parts.length > 1 && parts[0] !== ".." ? parts[0]! : null;
  };
  const edges = sourceFiles(server).flatMap((file) =>
    importsOf(file)
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => ({
        file: path.relative(src, file),
        specifier,
        from: partOf(file),
        to: partOf(path.resolve(path.dirname(file), specifier)),
      })),
  );

  it("are each named in scripts/layers.ts", () => {
    const folders = readdirSync(server, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(folders.map((entry) => entry.name).filter((name) => !Object.hasOwn(SERVER_PARTS, name))).toEqual([]);
    expect(edges.filter((edge) => edge.from === "chat" && edge.to === "tool").length).toBeGreaterThan(0);
  });

  it("import only the folders of src/server the table allows them, and its top", () => {
    const crossings = edges.filter(
      (edge) =>
        edge.from !== null && edge.to !== null && edge.to !== edge.from && !SERVER_PARTS[edge.from]!.includes(edge.to),
    );
    expect(crossings.map((edge) => `${edge.file} → ${edge.specifier}`)).toEqual([]);
  });

  it("are docs/development.md's table of the server's folders", () => {
    const doc = readFileSync(fileURLToPath(new URL("../../docs/development.md", import.meta.url)), "utf8");
    const rows = [...doc.matchAll(/^\| `server\/([\w-]+)` \| ([^|]+) \| [^|]+ \|$/gm)].map((m) => [
      m[1]!,
      [...m[2]!.matchAll(/`([\w-]+)`/g)].map((name) => name[1]!),
    ]);
    expect(rows).toEqual(Object.entries(SERVER_PARTS).map(([part, allowed]) => [part, [...allowed]]));
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

describe("docs/development.md's table of the layers", () => {
  it("says what scripts/layers.ts says, row by row", () => {
    const doc = readFileSync(fileURLToPath(new URL("../../docs/development.md", import.meta.url)), "utf8");
    const rows = [...doc.matchAll(/^\| `([\w-]+)` \| ([^|]+) \| (browser|Node[^|]*) \| (yes|no) \|$/gm)].map((m) => ({
      folder: m[1]!,
      imports: m[2]!.trim() === "any" ? "any" : [...m[2]!.matchAll(/`([\w-]+)`/g)].map((name) => name[1]!),
      browser: m[3] === "browser",
      react: m[4] === "yes",
    }));
    expect(rows).toEqual(
      Object.entries(LAYERS).map(([folder, layer]) => ({
        folder,
        imports: layer.imports === "any" ? "any" : [...layer.imports],
        browser: layer.browser,
        react: layer.react,
      })),
    );
  });
});

describe("execute-code-ui/sandbox", () => {
  it("loads none of the chat's optional peers, so the sandbox deploys alone", () => {
    const seen = new Set<string>();
    const packages = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const specifier of importsOf(file)) {
        if (!specifier.startsWith(".")) packages.add(specifier);
        else visit(path.resolve(path.dirname(file), specifier).replace(/\.js$/, ".ts"));
      }
    };
    visit(path.join(src, "sandbox/index.ts"));
    expect(seen.size).toBeGreaterThan(10);
    const peers = [...packages].filter((name) =>
      /^(ai|@ai-sdk\/.*|react|react-dom|@assistant-ui\/.*|pg|redis|@jupyterlab\/.*|ws)(\/|$)/.test(name),
    );
    expect(peers).toEqual([]);
  });
});

describe("the imports of src/", () => {
  /** The source file a relative specifier names: `.js` for its `.ts` or `.tsx`. */
  const fileOf = (from: string, specifier: string) => {
    const base = path.resolve(path.dirname(from), specifier).replace(/\.js$/, "");
    return [`${base}.ts`, `${base}.tsx`, base].find((file) => existsSync(file) && statSync(file).isFile());
  };

  it("go round in no cycle, type imports and dynamic imports included", () => {
    const graph = new Map(
      sourceFiles(src).map((file) => [
        file,
        importsOf(file)
          .filter((specifier) => specifier.startsWith("."))
          .flatMap((specifier) => fileOf(file, specifier) ?? []),
      ]),
    );
    expect([...graph.values()].flat().length).toBeGreaterThan(500);
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        cycles.push([...trail.slice(trail.indexOf(file)), file].map((step) => path.relative(src, step)).join(" → "));
        return;
      }
      state.set(file, "open");
      for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
      state.set(file, "done");
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
