// shiki's JavaScript regular-expression engine, twice: the grammar's
// patterns as they are, and the same patterns for ASCII lines, without
// Unicode properties (precompiled.ts's `asciiSource`). A line of ASCII
// characters, as most lines of a program are, is matched by the second,
// which compiles in about a third of the time: the first line a card
// colours pays for compiling every pattern the grammar starts with.
import type { RegexEngine, RegexEngineString } from "shiki/core";
import { createJavaScriptRegexEngine } from "shiki/engine/javascript";
import { precompiledCache, type PrecompiledRegex } from "./precompiled.js";

const NON_ASCII = /[^\x00-\x7f]/;

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
          const isAscii = typeof line === "string" ? !NON_ASCII.test(line) : line.ascii;
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
      return Object.assign(unicode.createString(content), { ascii: !NON_ASCII.test(content) });
    },
  };
}
