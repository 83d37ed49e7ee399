// Each JavaScript entry of package.json's `exports` exports by name exactly
// what its documentation lists. The rule: one section headed
// "What `execute-code-ui/…` exports" (for the root, "What `execute-code-ui`
// exports"), in the README or in the guide of that entry under docs/, names
// in backticks each export of the entry, and names no other export of the
// kit's modules. The entry's file exports each name by itself, never with
// `export *`, so that a name a folder adds stays internal until it is listed.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url);
const pkg = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as {
  name: string;
  exports: Record<string, string | { types: string; default: string }>;
};

/** Each entry that is a JavaScript module, with its source file: ./dist/X.js is built from src/X.ts. */
const entries = Object.entries(pkg.exports).flatMap(([key, target]) => {
  if (typeof target === "string" || !target.default.endsWith(".js")) return [];
  const base = target.default.replace(/^\.\/dist\//, "src/").replace(/\.js$/, "");
  const source = [`${base}.ts`, `${base}.tsx`].find((file) => existsSync(new URL(file, root)));
  return [{ key, name: `${pkg.name}${key.slice(1)}`, source: source ?? `${base}.ts` }];
});

const documents = [
  "README.md",
  ...readdirSync(new URL("docs/", root))
    .filter((file) => file.endsWith(".md"))
    .map((file) => `docs/${file}`),
].map((path) => ({ path, text: readFileSync(new URL(path, root), "utf8") }));

/** The documents that have the entry's section, and the names in backticks in it (`name` or `name(…)`). */
function documented(name: string) {
  const heading = new RegExp(`^#{2,4} What \`${name.replace(/[/.]/g, "\\$&")}\` exports\\n`, "m");
  const found = documents.filter((document) => heading.test(document.text));
  const section = found[0]?.text.split(heading)[1]?.split(/\n#/)[0] ?? "";
  const names = new Set([...section.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)(?:\([^`]*\))?`/g)].map((match) => match[1]!));
  return { in: found.map((document) => document.path), names };
}

const program = ts.createProgram(
  entries.map((entry) => fileURLToPath(new URL(entry.source, root))),
  {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    jsx: ts.JsxEmit.ReactJSX,
    noEmit: true,
  },
);
const checker = program.getTypeChecker();

function exportsOf(file: string): string[] {
  const source = program.getSourceFile(file);
  const module = source && checker.getSymbolAtLocation(source);
  return module ? checker.getExportsOfModule(module).map((symbol) => symbol.getName()) : [];
}

/** Every name any module of src/ exports: a documented name among them must be the entry's own. */
const src = fileURLToPath(new URL("src/", root));
const kitNames = new Set(
  program
    .getSourceFiles()
    .filter((file) => file.fileName.startsWith(src))
    .flatMap((file) => exportsOf(file.fileName)),
);

describe("the package's entries", () => {
  it("finds each JavaScript entry of package.json and its source", () => {
    expect(entries.map((entry) => entry.key)).toEqual(expect.arrayContaining([".", "./server", "./harness"]));
    for (const entry of entries) expect(existsSync(new URL(entry.source, root)), entry.source).toBe(true);
  });

  describe.each(entries)("$name", (entry) => {
    const file = fileURLToPath(new URL(entry.source, root));
    const exported = exportsOf(file);
    const docs = documented(entry.name);

    it("exports each name by itself, none through export *", () => {
      expect(readFileSync(file, "utf8")).not.toMatch(/export \*/);
      expect(exported.length).toBeGreaterThan(0);
    });

    it("has one section that lists its exports", () => {
      expect(docs.in).toHaveLength(1);
    });

    it("exports only what its section documents", () => {
      expect(exported.filter((name) => !docs.names.has(name))).toEqual([]);
    });

    it("documents no name of the kit that it does not export", () => {
      const others = [...docs.names].filter((name) => kitNames.has(name) && !exported.includes(name));
      expect(others).toEqual([]);
    });
  });

  it("keeps the server's internals out: schemas of parts, the sandbox's wire format, routing", () => {
    const server = exportsOf(fileURLToPath(new URL("src/server/index.ts", root)));
    expect(server.length).toBeGreaterThan(40);
    for (const name of [
      "completedResultSchema",
      "parseSandboxResponse",
      "matchChatRoute",
      "chatView",
      "pendingCalls",
    ]) {
      expect(server).not.toContain(name);
    }
  });

  it("keeps what only the kit's own tests use out of the harness and the assistant-ui binding", () => {
    const harness = exportsOf(fileURLToPath(new URL("src/harness/index.ts", root)));
    for (const name of ["programFor", "replyToToolResult", "DEMO_PROGRAMS", "DESCRIBE_PROMPT", "describePrompt"]) {
      expect(harness).not.toContain(name);
    }
    expect(harness).not.toContain("pyodidePackageDir");
    expect(exportsOf(fileURLToPath(new URL("src/assistant-ui/index.ts", root)))).not.toContain("clientDeniedResult");
  });
});
