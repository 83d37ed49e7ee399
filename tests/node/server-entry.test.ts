// execute-code-ui/server exports by name only what the README documents:
// every export is named in its "What `execute-code-ui/server` exports"
// section, and every name there is exported.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const entry = fileURLToPath(new URL("../../src/server/index.ts", import.meta.url));
const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const section = readme.split("### What `execute-code-ui/server` exports")[1]?.split(/\n## /)[0] ?? "";

function exportsOf(file: string): string[] {
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
  return checker.getExportsOfModule(module).map((symbol) => symbol.getName());
}

describe("execute-code-ui/server", () => {
  const exported = exportsOf(entry);
  const named = new Set([...section.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)(?:\([^`]*\))?`/g)].map((match) => match[1]!));

  it("exports each name by itself, none through export *", () => {
    expect(readFileSync(entry, "utf8")).not.toMatch(/export \*/);
    expect(exported.length).toBeGreaterThan(40);
  });

  it("exports only what its README section documents", () => {
    expect(exported.filter((name) => !named.has(name))).toEqual([]);
  });

  it("keeps internals out: schemas of parts, the sandbox's wire format, routing", () => {
    for (const name of [
      "completedResultSchema",
      "parseSandboxResponse",
      "matchChatRoute",
      "chatView",
      "pendingCalls",
    ]) {
      expect(exported).not.toContain(name);
    }
  });
});
