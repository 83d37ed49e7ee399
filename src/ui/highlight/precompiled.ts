// A head start for shiki's JavaScript regular-expression engine: the grammar's
// patterns that typical programs need, converted from Oniguruma to JavaScript
// at build time (bench/precompile-regexes.ts writes python-regexes.ts).
// Converting them is about half of the first highlighting step; building a
// RegExp from a ready source is cheap, and V8 compiles it when first used.

import { EmulatedRegExp } from "oniguruma-to-es";

/** The conversion target of the table; a browser without the `v` flag converts at run time instead. */
export const PRECOMPILE_TARGET = "ES2024";

/**
 * [the pattern as the grammar gives it to the engine, its JavaScript source
 * (0: the same text), flags (0: "dgv"), options for oniguruma-to-es's
 * EmulatedRegExp]. An entry with options is built as that EmulatedRegExp, as
 * the engine would build it, so that the engine's converter stays cold.
 */
export type PrecompiledRegex = [pattern: string, source: string | 0, flags: string | 0, options?: object];

/**
 * The engine's cache (it asks `get` before converting a pattern and `set`s
 * what it converted), holding the table's patterns from the start. A pattern
 * the table does not hold is converted as before.
 */
export function precompiledCache(
  table: PrecompiledRegex[],
  /** Builds each pattern for subjects of ASCII characters only (see `asciiSource`). */
  { ascii = false } = {},
): Map<string, RegExp | Error> {
  const built = new Map<string, RegExp | Error>();
  const ready = new Map<string, PrecompiledRegex>();
  for (const entry of table) ready.set(entry[0], entry);
  const cache = {
    get(pattern: string): RegExp | Error | undefined {
      const hit = built.get(pattern);
      if (hit) return hit;
      const entry = ready.get(pattern);
      if (!entry) return undefined;
      ready.delete(pattern);
      try {
        const unicode = entry[1] === 0 ? pattern : entry[1];
        const source = ascii ? asciiSource(unicode) : unicode;
        const flags = entry[2] === 0 ? "dgv" : entry[2];
        const regex = entry[3] ? new EmulatedRegExp(source, flags, entry[3]) : new RegExp(source, flags);
        built.set(pattern, regex);
        return regex;
      } catch {
        return undefined;
      }
    },
    set(pattern: string, value: RegExp | Error) {
      built.set(pattern, value);
      return cache;
    },
  };
  return cache as unknown as Map<string, RegExp | Error>;
}

/**
 * What each Unicode property of the table matches among the ASCII
 * characters, as the ranges of a class. A test checks each against the
 * engine's own `\p{…}`.
 */
export const ASCII_MEMBERS: Record<string, string> = {
  L: "A-Za-z",
  M: "",
  N: "0-9",
  Nd: "0-9",
  Pc: "_",
  Alpha: "A-Za-z",
  Upper: "A-Z",
  AHex: "0-9A-Fa-f",
  space: "\\t-\\r ",
};

/**
 * A `v`-flag pattern that matches an ASCII subject exactly as `source`
 * does, each Unicode property in it (`\p{L}`, `\P{space}`) replaced by its
 * ASCII members as a class of their own (a nested class, in a class). A
 * property compiles to hundreds of ranges: the Python grammar's patterns
 * compile in about a third of the time without them, and most lines of a
 * program are ASCII.
 */
export function asciiSource(source: string): string {
  return source.replace(/\\(?:([pP])\{(\w+)\}|.)/gsu, (sequence, kind?: string, name?: string) => {
    const members = kind && name !== undefined ? ASCII_MEMBERS[name] : undefined;
    if (members === undefined) return sequence;
    return kind === "p" ? `[${members}]` : `[^${members}]`;
  });
}
