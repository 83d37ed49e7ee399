import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { alive, processTree } from "./process-tree";

const parentScript = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures/executor-parent.ts");

describe("interpreters die with their parent", () => {
  it.skipIf(process.platform !== "linux")(
    "SIGKILL on the parent ends its interpreters, the one spinning in a loop and the idle ones",
    async () => {
      const parent = spawn(process.execPath, ["--import", "tsx", parentScript], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      const pids = await new Promise<number[]>((resolve, reject) => {
        let out = "";
        parent.stdout.setEncoding("utf8").on("data", (chunk: string) => {
          out += chunk;
          if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]!) as number[]);
        });
        parent.once("exit", (code) => reject(new Error(`the parent exited early (${code})`)));
      });
      // Every process below the parent's interpreters: wrappers and the Node processes running Pyodide.
      const tree = pids.flatMap(processTree);
      expect(tree.length).toBeGreaterThanOrEqual(pids.length * 2);
      expect(tree.every(alive)).toBe(true);

      parent.kill("SIGKILL");
      await expect.poll(() => tree.filter(alive), { timeout: 15_000, interval: 200 }).toEqual([]);
    },
    90_000,
  );
});
