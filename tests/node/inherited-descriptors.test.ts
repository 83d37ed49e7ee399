// A descriptor the harness was handed by whoever started it (a shell, a
// test runner, a process manager) never reaches an interpreter.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sandboxStdio } from "../../src/sandbox/pyodide/inherited-descriptors";

const parentScript = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures/inherited-descriptor-parent.ts");

describe("descriptors the harness inherited", () => {
  it.skipIf(process.platform !== "linux")(
    "are held by none of an interpreter's processes",
    async () => {
      // fd 40 of the parent: a file a shell opened and left to it, without close-on-exec (Node marks only its lowest descriptors).
      const parent = spawn(
        "bash",
        ["-c", 'exec 40<"$0"; exec "$1" --import tsx "$0"', parentScript, process.execPath],
        {
          stdio: ["ignore", "pipe", "inherit"],
        },
      );
      const report = await new Promise<{ handed: string; processes: number; held: string[] }>((resolve, reject) => {
        let out = "";
        parent.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
          out += chunk;
          if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]!));
        });
        parent.once("exit", (code) => reject(new Error(`the parent exited early (${code})`)));
      });
      expect(report.handed).toBe(parentScript);
      expect(report.processes).toBeGreaterThanOrEqual(2);
      expect(report.held).not.toContain(report.handed);
      expect(report.held).toContain("/dev/null");
    },
    90_000,
  );

  it("puts /dev/null where each inherited descriptor would be, past the message pipe, and leaves the rest alone", () => {
    expect(sandboxStdio([])).toEqual(["pipe", "ignore", "pipe", "pipe"]);
    // fd 3, inherited or not, is the interpreter's message pipe.
    const stdio = sandboxStdio([3, 5, 7]) as unknown[];
    expect(stdio.slice(0, 4)).toEqual(["pipe", "ignore", "pipe", "pipe"]);
    expect(stdio[4]).toBe("ignore");
    expect(typeof stdio[5]).toBe("number");
    expect(stdio[6]).toBe("ignore");
    expect(stdio[7]).toBe(stdio[5]);
    expect(stdio).toHaveLength(8);
  });
});
