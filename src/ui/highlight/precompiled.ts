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
export function precompiledCache(table: PrecompiledRegex[]): Map<string, RegExp | Error> {
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
        const source = entry[1] === 0 ? pattern : entry[1];
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
