// The guide's next.config.mjs, as Next.js reads it: the Pyodide files answer
// a cross-origin reader (the browser executor's opaque-origin worker).
import { describe, expect, it } from "vitest";
import nextConfig from "../../../examples/next-pyodide-headers";

describe("examples/next-pyodide-headers.ts", () => {
  it("lets any origin read the files under /pyodide/", async () => {
    const rules = await nextConfig.headers();
    expect(rules).toEqual([
      { source: "/pyodide/:file*", headers: [{ key: "Access-Control-Allow-Origin", value: "*" }] },
    ]);
    // Next.js's path syntax: `:file*` takes every file under the folder.
    expect(new RegExp(`^${rules[0]!.source.replace(":file*", "(.*)")}$`).test("/pyodide/pyodide.asm.wasm")).toBe(true);
  });
});
