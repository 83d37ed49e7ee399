// Writes src/ui/highlight/python-regexes.ts: the grammar's regular
// expressions that typical programs need, already converted from Oniguruma
// to JavaScript. shiki's JavaScript engine converts each pattern the first
// time a rule needs it, about half of the first highlighting step (≈45 ms of
// ≈95 ms in Node on this machine); with the table the worker only builds the
// RegExp objects. The table is a cache keyed by the exact pattern text, so a
// pattern it does not hold (a rule the corpus never reached, an end pattern
// made from a back-reference at run time) is converted as before, and a table
// from another shiki release only misses: a test fails when it is stale.
//
//   npx tsx bench/precompile-regexes.ts
import { writeFileSync } from "node:fs";
import { toRegExpDetails } from "oniguruma-to-es";
import { createHighlighterCore } from "shiki/core";
import { createJavaScriptRegexEngine } from "shiki/engine/javascript";
import python from "shiki/langs/python.mjs";
import githubDark from "shiki/themes/github-dark-default.mjs";
import githubLight from "shiki/themes/github-light-default.mjs";
import { PRECOMPILE_TARGET, type PrecompiledRegex } from "../src/ui/highlight/precompiled.ts";

/** What a tutor's programs hold: the fixtures and a little of everything else. */
const KITCHEN_SINK = `#!/usr/bin/env python3
"""A module docstring."""
from __future__ import annotations
import math, re
from dataclasses import dataclass, field
from typing import Iterable, Optional

PI: float = 3.141_592
HEX, OCT, BIN, BIG, CPLX = 0xFF, 0o17, 0b1010, 10**20, 2 + 3j
RAW = r"\\d+\\.\\d*"
BYTES = b"\\x00\\xff"
PATTERN = re.compile(r"(?P<word>\\w+)\\s*=\\s*(\\d+)")

@dataclass(frozen=True)
class Point:
    """A point."""
    x: float = 0.0
    y: float = field(default=0.0)

    @property
    def norm(self) -> float:
        return math.hypot(self.x, self.y)

    def __repr__(self) -> str:
        return f"Point({self.x!r}, {self.y:.2f}) {'{'}braces{'}'}"

class Stack(list):
    def push(self, *items, **options):
        for item in items:
            self.append(item)
        return len(self)

async def fetch(urls: Iterable[str], timeout: Optional[int] = None) -> dict[str, int]:
    results = {url: len(url) async for url in aiter(urls)}
    await asyncio.sleep(0)
    return results

def primes(limit=100):
    sieve = [True] * (limit + 1)
    sieve[0:2] = [False, False]
    for n in range(2, int(limit ** 0.5) + 1):
        if sieve[n]:
            sieve[n * n :: n] = [False] * len(sieve[n * n :: n])
    return [i for i, is_prime in enumerate(sieve) if is_prime]

squares = {n: n ** 2 for n in range(10) if n % 2 == 0}
unique = {x for x in "mississippi"}
gen = (x * 2 for x in range(3))
key = lambda pair: (-pair[1], pair[0])
total = sum(map(int, "1 2 3".split())) // 2 % 7 << 1 >> 1 & 3 | 4 ^ 5
matrix = [[1, 2], [3, 4]] @ [[5], [6]] if False else None
if (n := len(squares)) > 3 and not unique or total is not None:
    print(f"{n=}", end="\\n", sep='')
elif total in (1, 2):
    pass
else:
    raise ValueError("bad value") from None

try:
    with open("data.txt", encoding="utf-8") as handle, open("out.txt", "w") as out:
        out.write(handle.read())
except (OSError, KeyError) as error:
    print(error, file=sys.stderr)
finally:
    del total

while True:
    break

match command.split():
    case ["go", direction] if direction in {"north", "south"}:
        print(direction)
    case [Point(x=0, y=0)]:
        print("origin")
    case _:
        continue

global counter
nonlocal_value = None
assert isinstance(PI, float), 'PI must be a float'
print(*[1, 2], **{"sep": ", "})
x = """a
multi-line string"""
y = '''another
one'''
z = "a\\"quoted\\" string" + 'single \\'quoted\\''
yield_from = (yield)
`;

/** Functions as the benchmark's long program has them: a docstring, a comprehension, a comment. */
const FUNCTIONS = Array.from(
  { length: 20 },
  (_, i) =>
    `def step_${i}(values, factor=${i}):\n    """Scale every value by ${i}."""\n    return [v * factor + ${i} for v in values if v % 3 != ${i % 3}]  # ${"·".repeat(i % 7)}\n`,
).join("\n");

const TRACEBACK_PROGRAM = `def mean(values):
    return sum(values) / len(values)

scores = []
print("average:", mean(scores))
`;

/** The programs whose patterns are converted ahead of time (their own, so that other modules' fixtures can change freely). */
export const CORPUS = [FUNCTIONS, TRACEBACK_PROGRAM, KITCHEN_SINK];

/** The conversion shiki's JavaScript engine makes, at a fixed target. */
const CONVERSION = {
  global: true,
  hasIndices: true,
  lazyCompileLength: 3e3,
  rules: {
    allowOrphanBackrefs: true,
    asciiWordBoundaries: true,
    captureGroup: true,
    recursionLimit: 5,
    singleline: true,
  },
  target: PRECOMPILE_TARGET,
} as const;

/** Every pattern the grammar compiles while highlighting the corpus, converted. */
export async function buildRegexTable(): Promise<PrecompiledRegex[]> {
  const patterns: string[] = [];
  const seen = new Map<string, RegExp | Error>();
  const recording = {
    get: (pattern: string) => seen.get(pattern),
    set: (pattern: string, regex: RegExp | Error) => {
      if (!seen.has(pattern)) patterns.push(pattern);
      seen.set(pattern, regex);
    },
  } as unknown as Map<string, RegExp | Error>;
  const highlighter = await createHighlighterCore({
    langs: [python],
    themes: [githubLight, githubDark],
    engine: createJavaScriptRegexEngine({ cache: recording, target: PRECOMPILE_TARGET }),
  });
  for (const code of CORPUS)
    highlighter.codeToTokens(code, {
      lang: "python",
      themes: { light: "github-light-default", dark: "github-dark-default" },
    });
  return patterns.map((pattern): PrecompiledRegex => {
    const { pattern: source, flags, options } = toRegExpDetails(pattern, CONVERSION);
    const entry: PrecompiledRegex = [pattern, source === pattern ? 0 : source, flags === "dgv" ? 0 : flags];
    if (options) entry.push(options);
    return entry;
  });
}

export function renderRegexTable(table: PrecompiledRegex[]): string {
  return [
    "// Generated by bench/precompile-regexes.ts from shiki's Python grammar: do not edit.",
    "// [Oniguruma pattern, JavaScript source (0: the same), flags (0: dgv), EmulatedRegExp options]",
    'import type { PrecompiledRegex } from "./precompiled.js";',
    "",
    `export const PYTHON_REGEXES: PrecompiledRegex[] = ${JSON.stringify(table, null, 0).replaceAll("],[", "],\n  [").replace(/^\[\[/, "[\n  [").replace(/\]\]$/, "],\n]")};`,
    "",
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const table = await buildRegexTable();
  writeFileSync("src/ui/highlight/python-regexes.ts", renderRegexTable(table));
  console.log(`src/ui/highlight/python-regexes.ts: ${table.length} patterns`);
}
