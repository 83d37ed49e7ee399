// shiki's JavaScript regular-expression engine, twice: the grammar's
// patterns as they are, and the same patterns without Unicode properties
// (precompiled.ts's `asciiSource`), which compile in about a third of the
// time: the first line a card colours pays for compiling every pattern the
// grammar starts with. A line goes to the second when it matches there
// exactly as it would in the first: most lines of a program.
import type { RegexEngine, RegexEngineString } from "shiki/core";
import { createJavaScriptRegexEngine } from "shiki/engine/javascript";
import { ASCII_MEMBERS, precompiledCache, type PrecompiledRegex } from "./precompiled.js";

const NON_ASCII = /[^\x00-\x7f]/;
const ASCII_RUNS = /[\x00-\x7f]+/g;
let inAnyProperty: RegExp | undefined;

/**
 * Whether the patterns without Unicode properties match `line` exactly as
 * the grammar's own do: each of its characters beyond ASCII (a dash, a
 * middle dot, an emoji) is in none of the properties they replace, as it is
 * in none of the ASCII classes. A letter, digit or space beyond ASCII (é,
 * π, ², a no-break space) is not.
 */
export function asciiPatternsFit(line: string): boolean {
  if (!NON_ASCII.test(line)) return true;
  inAnyProperty ??= new RegExp(
    `[${Object.keys(ASCII_MEMBERS)
      .map((name) => `\\p{${name}}`)
      .join("")}]`,
    "v",
  );
  return !inAnyProperty.test(line.replace(ASCII_RUNS, ""));
}

type LineString = RegexEngineString & { ascii: boolean };

export function createPythonRegexEngine(regexes: PrecompiledRegex[]): RegexEngine {
  const unicode = createJavaScriptRegexEngine({ cache: precompiledCache(regexes) });
  const ascii = createJavaScriptRegexEngine({ cache: precompiledCache(regexes, { ascii: true }) });
  return {
    createScanner(patterns) {
      // Each built when a line first needs it: a program of ASCII lines never compiles the Unicode patterns.
      let forAscii: ReturnType<RegexEngine["createScanner"]> | undefined;
      let forUnicode: ReturnType<RegexEngine["createScanner"]> | undefined;
      return {
        findNextMatchSync(string, startPosition, options) {
          const line = string as LineString | string;
          const isAscii = typeof line === "string" ? asciiPatternsFit(line) : line.ascii;
          if (isAscii) {
            forAscii ??= ascii.createScanner(patterns);
            return forAscii.findNextMatchSync(string, startPosition, options);
          }
          forUnicode ??= unicode.createScanner(patterns);
          return forUnicode.findNextMatchSync(string, startPosition, options);
        },
      };
    },
    createString(content): LineString {
      return Object.assign(unicode.createString(content), { ascii: asciiPatternsFit(content) });
    },
  };
}
