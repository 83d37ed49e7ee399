// What the Jupyter sandbox takes from a kernel's display message as a figure.
import { describe, expect, it } from "vitest";
import { figureOf } from "../../src/server/jupyter/runner";

const base64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64");
// A PNG's signature and the start of its IHDR chunk: 640 × 480.
const pngHeader = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.from("IHDR"),
  Buffer.from([0, 0, 2, 0x80, 0, 0, 1, 0xe0]),
]);

describe("a figure in a kernel's display message", () => {
  it("is a PNG the kernel showed, with its size from the header", () => {
    expect(figureOf({ "image/png": base64(pngHeader) }, 1024)).toMatchObject({
      alt: "A figure",
      width: 640,
      height: 480,
    });
  });

  it("is nothing when the bytes are not a PNG, which the file route would serve as one", () => {
    expect(figureOf({ "image/png": base64("<script>alert(1)</script>") }, 1024)).toBeNull();
  });

  it("is too big past the run's room, told before it is decoded", () => {
    expect(figureOf({ "image/png": base64(pngHeader) }, 8)).toBe("too big");
  });
});
