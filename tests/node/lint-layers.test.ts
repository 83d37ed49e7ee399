// `npm run lint` keeps the layers of src/ (docs/development.md; biome.layers.json,
// written from scripts/layers.ts, which biome.jsonc extends): a file that reaches
// a layer it may not is refused. Each probe is linted with the project's
// configuration in a folder of its own, so nothing is written into src/.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const biome = fileURLToPath(new URL("../../node_modules/.bin/biome", import.meta.url));
const root = mkdtempSync(path.join(os.tmpdir(), "lint-layers-"));
for (const file of ["biome.jsonc", "biome.layers.json"]) {
  copyFileSync(new URL(`../../${file}`, import.meta.url), path.join(root, file));
}
afterAll(() => rmSync(root, { recursive: true, force: true }));

function lint(file: string, source: string) {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), source);
  const result = spawnSync(biome, ["lint", "--vcs-enabled=false", "--error-on-warnings", file], {
    cwd: root,
    encoding: "utf8",
  });
  rmSync(path.join(root, file));
  return { refused: result.status !== 0, output: `${result.stdout}${result.stderr}` };
}

describe("npm run lint and the layers", () => {
  it("refuses a ui file that imports the server", () => {
    const result = lint(
      "src/ui/probe.tsx",
      'import { createTokenMinter } from "../server/token.js";\nexport const probe = createTokenMinter;\n',
    );
    expect(result.refused).toBe(true);
    expect(result.output).toContain("src/ui imports only contract, view, never server");
    expect(result.output).toContain("docs/development.md");
  });

  it("refuses a folder of src/, not a package of the same name", () => {
    for (const file of ["src/ui/probe.ts", "src/ui/highlight/probe.ts"]) {
      const server = lint(
        file,
        'import { createTokenMinter } from "../server/token.js";\nexport const probe = createTokenMinter;\n',
      );
      expect(server.output).toContain("src/ui imports only contract, view, never server");
      const reactDom = lint(
        file,
        'import { renderToString } from "react-dom/server";\nexport const probe = renderToString;\n',
      );
      expect(reactDom.output).not.toContain("noRestrictedImports");
      expect(reactDom.refused).toBe(false);
    }
    expect(
      lint("src/ui/highlight/probe.ts", 'export { createTokenMinter } from "../../server/token.js";\n').refused,
    ).toBe(true);
  });

  it("refuses the same reach by a type import, a re-export or a dynamic import", () => {
    expect(
      lint(
        "src/ui/probe.ts",
        'import type { TokenMinter } from "../server/token.js";\nexport type Probe = TokenMinter;\n',
      ).refused,
    ).toBe(true);
    expect(lint("src/view/probe.ts", 'export { startSandbox } from "../harness/index.js";\n').refused).toBe(true);
    expect(
      lint("src/ui/highlight/probe.ts", 'export const probe = () => import("../../harness/index.js");\n').refused,
    ).toBe(true);
  });

  it("refuses Node in the browser's layers and React in the server, and lets the Playwright helpers use Node", () => {
    expect(
      lint("src/assistant-ui/probe.ts", 'import { readFileSync } from "node:fs";\nexport const probe = readFileSync;\n')
        .output,
    ).toContain("runs in the browser: nothing of Node");
    expect(
      lint("src/server/probe.ts", 'import { useState } from "react";\nexport const probe = useState;\n').output,
    ).toContain("renders nothing: no React");
    const testing = lint(
      "src/testing/probe.ts",
      'import { readFileSync } from "node:fs";\nexport const probe = readFileSync;\n',
    );
    expect(testing.output).not.toContain("noRestrictedImports");
    expect(testing.refused).toBe(false);
    expect(lint("src/testing/probe.ts", 'export { ExecuteCode } from "../ui/index.js";\n').output).toContain(
      "src/testing imports only contract, view, never ui",
    );
  });

  it("refuses a folder of src/server that reaches one the table does not give it, and still React", () => {
    const http = lint(
      "src/server/http/probe.ts",
      'export { createExecuteCodeTool } from "../tool/execute-code-tool.js";\n',
    );
    expect(http.output).toContain("src/server/http imports only its own folder of src/server, never tool");
    expect(
      lint("src/server/files/probe.ts", 'import { useState } from "react";\nexport const probe = useState;\n').output,
    ).toContain("renders nothing: no React");
    const chat = lint(
      "src/server/chat/probe.ts",
      'import { createExecuteCodeTool } from "../tool/execute-code-tool.js";\nimport { createTokenMinter } from "../token.js";\nexport const probe = [createExecuteCodeTool, createTokenMinter];\n',
    );
    expect(chat.output).not.toContain("noRestrictedImports");
    expect(chat.refused).toBe(false);
  });

  it("keeps the browser entry to the contract, the view and the card", () => {
    const entry = lint("src/index.ts", 'export { createChatEndpoints } from "./server/index.js";\n');
    expect(entry.output).toContain("src/index.ts imports only contract, view, ui, never server");
  });

  it("lets each layer import the layers above it", () => {
    const allowed = lint(
      "src/ui/probe.ts",
      'import { normalizeExecuteCodeResult } from "../contract/index.js";\nimport { fromAISDKToolPart } from "../view/index.js";\nexport const probe = [normalizeExecuteCodeResult, fromAISDKToolPart];\n',
    );
    expect(allowed.output).not.toContain("noRestrictedImports");
    expect(allowed.refused).toBe(false);
    expect(
      lint(
        "src/harness/probe.ts",
        'import { createChatEndpoints } from "../server/index.js";\nexport const probe = createChatEndpoints;\n',
      ).refused,
    ).toBe(false);
  });
});
