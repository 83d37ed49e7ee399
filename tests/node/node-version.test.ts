// execute-code-ui/server says which Node it needs when it is loaded, not as
// a 500 on the first request that opens the chat store.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkNodeVersion, MINIMUM_NODE_VERSION } from "../../src/server/node-version";

describe("the Node the server entry needs", () => {
  it("refuses Node 20 and 22.12 with the version it needs, and takes 22.13 and 24", () => {
    for (const old of ["20.20.2", "22.12.0"]) {
      expect(() => checkNodeVersion(old)).toThrow(
        `execute-code-ui needs Node 22.13.0 or newer (Node 24 LTS is what it is tested on); this is Node ${old}. Run it on a newer Node; npm can fetch one for the command: npx -y node@24 node_modules/.bin/<command> …`,
      );
    }
    for (const fine of ["22.13.0", "24.21.0", "26.0.0"]) expect(() => checkNodeVersion(fine)).not.toThrow();
  });

  it("is what package.json's engines says", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    expect(pkg.engines.node).toBe(`>=${MINIMUM_NODE_VERSION.replace(/\.0$/, "")}`);
  });

  // The machine's own Node (20 on these machines) loading the server entry and the harness as an app does.
  it.runIf(existsSync("/usr/bin/node"))(
    "stops an app on the machine's older Node as it loads, with that message",
    () => {
      const version = execFileSync("/usr/bin/node", ["--version"], { encoding: "utf8" }).trim().slice(1);
      for (const entry of ["src/server/index.ts", "src/harness/index.ts", "src/sandbox/index.ts"]) {
        let said = "";
        try {
          const path = new URL(`../../${entry}`, import.meta.url).pathname;
          execFileSync(
            "/usr/bin/node",
            ["--import", "tsx", "--input-type=module", "-e", `await import(${JSON.stringify(path)})`],
            {
              encoding: "utf8",
              stdio: "pipe",
            },
          );
        } catch (error) {
          said = String((error as { stderr?: string }).stderr);
        }
        if (Number(version.split(".")[0]) < 22)
          expect(said).toContain(
            `needs Node 22.13.0 or newer (Node 24 LTS is what it is tested on); this is Node ${version}.`,
          );
        else expect(said).toBe("");
      }
    },
  );
});
