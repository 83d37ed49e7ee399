import { beforeAll, describe, expect, it } from "vitest";
import { IncrementalHighlight } from "../src/ui/highlight/incremental";
import { createPythonTokenizer } from "../src/ui/highlight/python-tokenizer";
import type { Tokenizer } from "../src/ui/highlight/types";
import { largeProgram, primesCode } from "../stories/fixtures";

let tokenizer: Tokenizer;
beforeAll(async () => {
  tokenizer = await createPythonTokenizer();
});

function runToEnd(highlight: IncrementalHighlight) {
  let steps = 0;
  while (!highlight.step()) steps++;
  return steps + 1;
}

/** Counts how many characters the tokenizer is asked to read. */
function counting(inner: Tokenizer) {
  const counter = { chars: 0 };
  const tokenizer: Tokenizer = {
    tokenize(code, state) {
      counter.chars += code.length;
      return inner.tokenize(code, state);
    },
  };
  return { tokenizer, counter };
}

const oneShot = (code: string) => tokenizer.tokenize(code).lines;

describe("the Python tokenizer", () => {
  it("colours Python as GitHub's themes do, in both schemes", () => {
    const [line] = tokenizer.tokenize('def area(r):\n    return 3.14 * r ** 2  # "pi"').lines;
    expect(line![0]).toEqual({ content: "def", style: expect.objectContaining({ "--shiki-light": "#CF222E", "--shiki-dark": "#FF7B72" }) });
    expect(line!.find((t) => t.content === "area")?.style["--shiki-light"]).toBe("#8250DF");
  });

  it("closes a one-line docstring, so the function body after it is code, not string", () => {
    const lines = tokenizer.tokenize('def area(r):\n    """Area of a circle."""\n    return r').lines;
    expect(lines[1]!.map((t) => t.style["--shiki-light"])).toContain("#0A3069");
    expect(lines[2]!.find((t) => t.content === "return")?.style["--shiki-light"]).toBe("#CF222E");
  });
});

describe("IncrementalHighlight", () => {
  it("gives exactly the one-shot result when code arrives a few characters at a time", () => {
    const code = `${primesCode}\n\ns = """a docstring\nthat spans\nlines"""\nprint(s)`;
    const highlight = new IncrementalHighlight(tokenizer);
    for (let i = 7; i < code.length; i += 7) {
      highlight.setCode(code.slice(0, i));
      runToEnd(highlight);
    }
    highlight.setCode(code);
    runToEnd(highlight);
    expect(highlight.snapshot()).toEqual(oneShot(code));
  });

  it("keeps a multi-line string's state across batches", () => {
    const code = `x = """\n${"inside the string\n".repeat(100)}"""\ny = 1`;
    const highlight = new IncrementalHighlight(tokenizer, 10);
    highlight.setCode(code);
    expect(runToEnd(highlight)).toBeGreaterThan(5);
    expect(highlight.snapshot()).toEqual(oneShot(code));
  });

  it("reads each finished line once while streaming, not the whole program per delta", () => {
    const code = largeProgram(6000);
    const { tokenizer: counted, counter } = counting(tokenizer);
    const highlight = new IncrementalHighlight(counted);
    const deltas = 200;
    for (let i = 1; i <= deltas; i++) {
      highlight.setCode(code.slice(0, Math.ceil((code.length * i) / deltas)));
      runToEnd(highlight);
    }
    // Finished lines once, plus the unfinished last line per delta.
    expect(counter.chars).toBeLessThan(code.length * 2);
    expect(highlight.snapshot()).toEqual(oneShot(code));
  });

  it("keeps finished lines identical between snapshots, so their rows need not re-render", () => {
    const highlight = new IncrementalHighlight(tokenizer);
    highlight.setCode("a = 1\nb = 2\nc");
    runToEnd(highlight);
    const first = highlight.snapshot();
    highlight.setCode("a = 1\nb = 2\nc = 3");
    runToEnd(highlight);
    const second = highlight.snapshot();
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);
    expect(second[2]).not.toBe(first[2]);
  });

  it("can leave the unfinished last line for later, as it does while the code streams", () => {
    const highlight = new IncrementalHighlight(tokenizer);
    highlight.setCode("a = 1\nb = 2\nprint(a +");
    while (!highlight.step(false));
    expect(highlight.snapshot()).toHaveLength(2);
    expect(highlight.pendingLines).toBe(false);
    highlight.setCode("a = 1\nb = 2\nprint(a + b)\nc");
    expect(highlight.pendingLines).toBe(true);
    runToEnd(highlight);
    expect(highlight.snapshot()).toEqual(oneShot("a = 1\nb = 2\nprint(a + b)\nc"));
  });

  it("starts over when an earlier line changes", () => {
    const highlight = new IncrementalHighlight(tokenizer);
    highlight.setCode('s = "open\nx = 1');
    runToEnd(highlight);
    highlight.setCode("s = 1\nx = 1");
    runToEnd(highlight);
    expect(highlight.snapshot()).toEqual(oneShot("s = 1\nx = 1"));
  });
});
