import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { IncrementalHighlight } from "../src/ui/highlight/incremental";
import type { FromWorker, ToWorker } from "../src/ui/highlight/protocol";
import {
  capLongLines,
  createPythonTokenizer,
  MAX_HIGHLIGHTED_LINE,
  pairThemes,
} from "../src/ui/highlight/python-tokenizer";
import {
  cachedLines,
  openSession,
  preloadHighlighter,
  resetHighlighterForTests,
  type HighlightSession,
} from "../src/ui/highlight/sessions";
import type { CodeToken, Tokenizer } from "../src/ui/highlight/types";
import { createWorkerHost } from "../src/ui/highlight/worker-host";
import { asciiPatternsFit } from "../src/ui/highlight/regex-engine";
import { buildRegexTable, CORPUS } from "../bench/precompile-regexes";
import { PYTHON_REGEXES } from "../src/ui/highlight/python-regexes";
import { ASCII_MEMBERS, asciiSource, PRECOMPILE_TARGET, precompiledCache } from "../src/ui/highlight/precompiled";
import * as fixtures from "../stories/fixtures";
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
    expect(line![0]).toEqual({
      content: "def",
      style: expect.objectContaining({ "--shiki-light": "#CF222E", "--shiki-dark": "#FF7B72" }),
    });
    expect(line!.find((t) => t.content === "area")?.style["--shiki-light"]).toBe("#8250DF");
  });

  it("keeps every colour on a machine so slow that each step of the tokenizer seems to take a second", () => {
    // shiki's default time limit (500 ms a line) would stop colouring after
    // the first match and leave "area" in the default colour, #1F2328.
    let now = 0;
    vi.spyOn(Date, "now").mockImplementation(() => (now += 1000));
    try {
      const [line] = tokenizer.tokenize("def area(r):").lines;
      expect(line!.find((t) => t.content === "area")?.style["--shiki-light"]).toBe("#8250DF");
    } finally {
      vi.restoreAllMocks();
    }
  });

  it("colours a very long line up to its cap, keeps its text, and colours the lines after it as before", () => {
    const long = `data = [${Array.from({ length: 5000 }, (_, i) => i).join(", ")}]`;
    expect(long.length).toBeGreaterThan(2 * MAX_HIGHLIGHTED_LINE);
    const after = 'def f(x):\n    return "s"';
    const lines = tokenizer.tokenize(`x = 1\n${long}\n${after}`).lines;
    expect(lines[1]!.map((t) => t.content).join("")).toBe(long);
    const plain = lines[1]!.at(-1)!;
    expect(plain.style).toEqual({});
    expect(long.length - plain.content.length).toBeLessThanOrEqual(MAX_HIGHLIGHTED_LINE);
    // The head is coloured: the numbers of the list look like numbers.
    expect(lines[1]!.find((t) => t.content.trim() === "4999" || t.content.trim() === "1")?.style["--shiki-light"]).toBe(
      "#0550AE",
    );
    expect(lines.slice(2)).toEqual(tokenizer.tokenize(after).lines);
  });

  it("never gives the grammar more of a line than the cap", () => {
    const read: number[] = [];
    const capped = capLongLines((code, state) => {
      read.push(...code.split("\n").map((line) => line.length));
      return { lines: code.split("\n").map((line) => [{ content: line, style: { colour: "x" } }]), state };
    }, 100);
    const { lines } = capped.tokenize(`a\n${"b".repeat(1000)}\nc\n${"d".repeat(250)}`);
    expect(Math.max(...read)).toBe(100);
    expect(lines.map((line) => line.map((t) => t.content).join(""))).toEqual([
      "a",
      "b".repeat(1000),
      "c",
      "d".repeat(250),
    ]);
  });

  it("colours exactly as converting every pattern when first needed does, with the patterns converted ahead of time", async () => {
    const converting = await createPythonTokenizer([]);
    const programs = [
      ...CORPUS,
      ...Object.values(fixtures).filter((value): value is string => typeof value === "string"),
    ];
    for (const code of programs) expect(tokenizer.tokenize(code)).toEqual(converting.tokenize(code));
  });

  it("builds every pattern of the table as shiki's engine would convert it, emulated ones included", async () => {
    const { defaultJavaScriptRegexConstructor } = await import("shiki/engine/javascript");
    const cache = precompiledCache(PYTHON_REGEXES);
    const shape = (regex: RegExp | Error | undefined) =>
      regex instanceof RegExp
        ? { source: regex.source, flags: regex.flags, options: (regex as { rawOptions?: object }).rawOptions }
        : regex;
    expect(PYTHON_REGEXES.filter((entry) => entry[3]).length).toBeGreaterThan(0);
    for (const [pattern] of PYTHON_REGEXES)
      expect(shape(cache.get(pattern))).toEqual(
        shape(defaultJavaScriptRegexConstructor(pattern, { target: PRECOMPILE_TARGET })),
      );
  });

  it("colours every character as shiki's own two-theme highlighter does, in one pass, with no two neighbours alike", async () => {
    const { createHighlighterCore } = await import("shiki/core");
    const { createJavaScriptRegexEngine } = await import("shiki/engine/javascript");
    const shiki = await createHighlighterCore({
      langs: [import("shiki/langs/python.mjs")],
      themes: [import("shiki/themes/github-light-default.mjs"), import("shiki/themes/github-dark-default.mjs")],
      engine: createJavaScriptRegexEngine(),
    });
    // Patterns the table builds as EmulatedRegExp: a type comment and a doctest.
    const emulated =
      'def f(xs):\n    """\n    >>> f([1])\n    1\n    """\n    total = 0  # type: int\n    return len(xs)\n';
    // Lines beyond ASCII go to the grammar's patterns as they are; ASCII lines around them to the faster ones.
    const unicode =
      'café = "naïve"  # ½ 📈\nπ = 3.14159\nclass Ünïcode:\n    def größe(self):\n        return self.größe\nx = 1\u3000+ 2\n';
    const programs = [...CORPUS, emulated, unicode, primesCode, fixtures.tracebackCode, largeProgram(6000)];
    for (const code of programs) {
      const stock = shiki.codeToTokens(code, {
        lang: "python",
        themes: { light: "github-light-default", dark: "github-dark-default" },
        defaultColor: false,
        // As the kit's: shiki's default limit would cut colours off on a busy machine.
        tokenizeTimeLimit: 0,
      });
      const { lines } = tokenizer.tokenize(code);
      // shiki keeps some neighbours of the same colours apart; the kit makes them one token, one span fewer.
      const perCharacter = (line: Array<{ content: string; style: object }>) =>
        line.flatMap((t) => [...t.content].map((character) => [character, t.style]));
      expect(lines.map(perCharacter)).toEqual(
        stock.tokens.map((line) => perCharacter(line.map((t) => ({ content: t.content, style: t.htmlStyle ?? {} })))),
      );
      for (const line of lines)
        for (let i = 1; i < line.length; i++) expect(line[i]!.style).not.toEqual(line[i - 1]!.style);
    }
  });

  it("refuses a pair of themes whose rules differ, where one pass could not colour both", async () => {
    const light = (await import("shiki/themes/github-light-default.mjs")).default;
    const dark = (await import("shiki/themes/github-dark-default.mjs")).default;
    expect(pairThemes(light, dark).colours.size).toBeGreaterThan(10);
    const rules = dark.tokenColors!;
    const fewer = { ...dark, tokenColors: rules.slice(0, -1) };
    expect(() => pairThemes(light, fewer)).toThrow(/different rules/);
    const reordered = { ...dark, tokenColors: [...rules.slice(0, -2), rules.at(-1)!, rules.at(-2)!] };
    expect(() => pairThemes(light, reordered)).toThrow(/differ in their rule/);
  });

  it("holds the patterns converted ahead of time that shiki's grammar and converter give today (else run bench/precompile-regexes.ts)", async () => {
    expect(PYTHON_REGEXES.length).toBeGreaterThan(100);
    expect(await buildRegexTable()).toEqual(PYTHON_REGEXES);
  });

  it("matches each Unicode property's ASCII characters with its ASCII class", () => {
    for (const [name, members] of Object.entries(ASCII_MEMBERS)) {
      const property = new RegExp(`\\p{${name}}`, "v");
      const ascii = new RegExp(`[${members}]`, "v");
      for (let code = 0; code < 128; code++) {
        const character = String.fromCharCode(code);
        expect(ascii.test(character), `${name} ${code}`).toBe(property.test(character));
      }
    }
  });

  it("builds each pattern without Unicode properties to match the lines it is given exactly as the pattern itself does", () => {
    const unicode = precompiledCache(PYTHON_REGEXES);
    const ascii = precompiledCache(PYTHON_REGEXES, { ascii: true });
    const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join("");
    const lines = [
      ...[...CORPUS, primesCode, fixtures.tracebackCode].flatMap((code) => code.split("\n")),
      printable,
      "\t\v\f\r x_1 = 0xFF_ab + 0o17 + 0b1 + 1e-3j  # type: int\n",
      // Beyond ASCII, but in none of the properties: a dash, quotes, a middle dot, an arrow, an emoji.
      'print("a — “b” · c")  # → 📈 ✓…',
    ].map((line) => `${line}\n`);
    for (const line of lines) expect(asciiPatternsFit(line), line).toBe(true);
    for (const line of ["café = 1", "π = 3", "x² = 4", "Ⓐ = 5", "a\u00a0= 1", "a\u3000= 1", "x = ١٢"])
      expect(asciiPatternsFit(line), line).toBe(false);
    let changed = 0;
    for (const [pattern, source] of PYTHON_REGEXES) {
      const full = unicode.get(pattern) as RegExp;
      const fast = ascii.get(pattern) as RegExp;
      if (fast.source !== full.source) changed++;
      // Every property is replaced: none is left to compile.
      expect(asciiSource(source === 0 ? pattern : source)).not.toMatch(/\\[pP]\{/);
      for (const line of lines)
        for (let at = 0; at < line.length; at++) {
          full.lastIndex = fast.lastIndex = at;
          const [expected, got] = [full.exec(line), fast.exec(line)];
          expect(got?.indices, `${pattern} at ${at} of ${JSON.stringify(line)}`).toEqual(expected?.indices);
        }
    }
    expect(changed).toBeGreaterThan(50);
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

  it("ends a step before a long line, and gives the long line a step of its own", () => {
    const long = `x = '${"a".repeat(5000)}'`;
    const { tokenizer: counted, counter } = counting(tokenizer);
    const reads: number[] = [];
    const spy: Tokenizer = {
      tokenize(code, state) {
        reads.push(code.length);
        return counted.tokenize(code, state);
      },
    };
    const highlight = new IncrementalHighlight(spy, 24, 3000);
    const code = `a = 1\nb = 2\n${long}\nc = 3\nd = 4`;
    highlight.setCode(code);
    runToEnd(highlight);
    expect(reads).toEqual([11, long.length, 5, 5]);
    expect(counter.chars).toBe(code.length - 3);
    expect(highlight.snapshot()).toEqual(oneShot(code));
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

/**
 * A Web Worker stand-in that runs the worker's own host in this thread and
 * passes messages as a worker does: later, and cloned.
 */
function inProcessWorker(options: { fails?: boolean } = {}) {
  const posted: ToWorker[] = [];
  const spawn = () => {
    const worker = new EventTarget() as EventTarget & { postMessage: (m: ToWorker) => void; terminate: () => void };
    const toPage = (message: FromWorker) =>
      setTimeout(() => worker.dispatchEvent(new MessageEvent("message", { data: structuredClone(message) })));
    const receive = createWorkerHost(toPage, Promise.resolve(tokenizer));
    worker.postMessage = (message) => {
      posted.push(message);
      setTimeout(() => (options.fails ? worker.dispatchEvent(new Event("error")) : receive(structuredClone(message))));
    };
    worker.terminate = () => undefined;
    return worker as unknown as Worker;
  };
  return { spawn, posted };
}

/** Resolves once the session shows `expected`. */
const shows = (session: HighlightSession, expected: CodeToken[][]) =>
  vi.waitFor(() => expect(session.snapshot()).toEqual(expected), { timeout: 5000, interval: 5 });

describe("the highlighting worker", () => {
  /** A tokenizer that records what it is asked to colour. */
  const recording = () => {
    const asked: string[] = [];
    const recorder: Tokenizer = {
      tokenize: (code, state) => {
        asked.push(code);
        return tokenizer.tokenize(code, state);
      },
    };
    return { asked, recorder };
  };
  // The host's own timers only: every task it queued has run.
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const settled = () => vi.runAllTimersAsync();

  it("started ahead of any card, colours a few typical lines once, so the first card's lines are not the first", async () => {
    const { asked, recorder } = recording();
    const receive = createWorkerHost(() => undefined, Promise.resolve(recorder));
    receive({ type: "warm-up" });
    await settled();
    expect(asked.length).toBeGreaterThan(5);
    expect(asked.slice(0, 2)).toEqual(["import math", "from collections import Counter  # counts"]);
    // A line at a time, and once.
    expect(asked.every((line) => !line.includes("\n"))).toBe(true);
    const lines = asked.length;
    receive({ type: "warm-up" });
    await settled();
    expect(asked).toHaveLength(lines);
  });

  it("stops warming up for a card's request that comes meanwhile, after one line at most", async () => {
    const { asked, recorder } = recording();
    const receive = createWorkerHost(() => undefined, Promise.resolve(recorder));
    receive({ type: "warm-up" });
    await vi.advanceTimersToNextTimerAsync();
    expect(asked).toEqual(["import math"]);
    receive({ type: "highlight", session: 1, seq: 1, code: primesCode });
    await settled();
    expect(asked.slice(1).join("\n")).toBe(primesCode.replace(/\n$/, ""));
  });

  it("started by a card, colours that card's lines first and nothing else, whether its request comes before or after loading", async () => {
    for (const early of [true, false]) {
      const { asked, recorder } = recording();
      const posted: FromWorker[] = [];
      const receive = createWorkerHost((message) => posted.push(message), Promise.resolve(recorder));
      if (!early) await settled();
      receive({ type: "highlight", session: 1, seq: 1, code: primesCode });
      await settled();
      expect(asked.join("\n")).toBe(primesCode.replace(/\n$/, ""));
      expect(posted.at(-1)).toMatchObject({ type: "lines", session: 1, done: true });
    }
  });

  it("asked to warm up while a card's lines are on their way, colours only the card's", async () => {
    const { asked, recorder } = recording();
    const receive = createWorkerHost(() => undefined, Promise.resolve(recorder));
    receive({ type: "highlight", session: 1, seq: 1, code: primesCode });
    receive({ type: "warm-up" });
    await settled();
    expect(asked.join("\n")).toBe(primesCode.replace(/\n$/, ""));
  });
});

describe("highlighting sessions", () => {
  afterEach(() => resetHighlighterForTests());

  it("highlight in the worker exactly as a one-shot highlight, while the code streams and once it is complete", async () => {
    const worker = inProcessWorker();
    resetHighlighterForTests(worker.spawn);
    const session = openSession();
    const code = largeProgram(3000);
    for (let i = 1; i <= 20; i++) session.update(code.slice(0, Math.ceil((code.length * i) / 20)), false);
    session.update(code, true);
    await shows(session, oneShot(code));
    // The first update goes at once, the others wait for the next pass, and the finished program goes at once.
    const sent = worker.posted.filter((m) => m.type === "highlight");
    expect(sent).toHaveLength(2);
    expect(sent.map((m) => m.type === "highlight" && m.code.length)).toEqual([
      Math.ceil(code.length / 20),
      code.length,
    ]);
    expect(cachedLines(code)).toEqual(oneShot(code));
    session.close();
    expect(worker.posted.at(-1)).toEqual({ type: "close", session: 1 });
  });

  it("remember a program that turned final without asking the worker again", async () => {
    const worker = inProcessWorker();
    resetHighlighterForTests(worker.spawn);
    const session = openSession();
    session.update(primesCode, false);
    await shows(session, oneShot(primesCode));
    expect(cachedLines(primesCode)).toBeUndefined();
    session.update(primesCode, true);
    expect(worker.posted.filter((m) => m.type === "highlight")).toHaveLength(1);
    expect(cachedLines(primesCode)).toEqual(oneShot(primesCode));
  });

  it("start over in the worker when an earlier line changes", async () => {
    resetHighlighterForTests(inProcessWorker().spawn);
    const session = openSession();
    session.update('s = "open\nx = 1\ny = 2', true);
    await shows(session, oneShot('s = "open\nx = 1\ny = 2'));
    session.update("s = 1\nx = 1", true);
    await shows(session, oneShot("s = 1\nx = 1"));
  });

  it("carry on on the main thread when the worker fails", async () => {
    resetHighlighterForTests(inProcessWorker({ fails: true }).spawn);
    const session = openSession();
    session.update(primesCode, true);
    await shows(session, oneShot(primesCode));
    const next = openSession();
    next.update("print(1)", true);
    await shows(next, oneShot("print(1)"));
  });

  it("start once, before any card, when the app preloads the highlighter, and the first card uses that worker", async () => {
    let spawned = 0;
    const worker = inProcessWorker();
    resetHighlighterForTests(() => {
      spawned++;
      return worker.spawn();
    });
    preloadHighlighter();
    preloadHighlighter();
    expect(spawned).toBe(1);
    expect(worker.posted).toEqual([{ type: "warm-up" }]);
    const session = openSession();
    session.update(primesCode, true);
    await shows(session, oneShot(primesCode));
    expect(spawned).toBe(1);
  });

  it("start without a warm-up when a card starts the worker, so that card's lines come first", async () => {
    const worker = inProcessWorker();
    resetHighlighterForTests(worker.spawn);
    const session = openSession();
    session.update(primesCode, true);
    await shows(session, oneShot(primesCode));
    expect(worker.posted.map((message) => message.type)).toEqual(["highlight"]);
  });

  it("highlight on the main thread where there are no workers", async () => {
    resetHighlighterForTests(null);
    const session = openSession();
    const code = largeProgram(6000);
    session.update(code.slice(0, 3000), false);
    session.update(code, true);
    await shows(session, oneShot(code));
    expect(cachedLines(code)).toEqual(oneShot(code));
  });
});
