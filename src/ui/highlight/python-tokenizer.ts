// Loaded lazily in its own chunk (or inside the highlighting worker): shiki
// core, its Python grammar, the JavaScript regular-expression engine (no
// WASM), and two themes whose token colours all meet WCAG AA contrast on the
// card. shiki's precompiled Python grammar was tried and dropped: it left
// one-line docstrings open, colouring the rest of the function as a string.
import { codeToTokens, createShikiPrimitiveAsync } from "shiki/core";
import python from "shiki/langs/python.mjs";
import githubDark from "shiki/themes/github-dark-default.mjs";
import githubLight from "shiki/themes/github-light-default.mjs";
import type { PrecompiledRegex } from "./precompiled.js";
import { PYTHON_REGEXES } from "./python-regexes.js";
import { createPythonRegexEngine } from "./regex-engine.js";
import type { CodeToken, Tokenizer } from "./types.js";

/**
 * Characters of one line that get colours. The tokenizer's work on a line
 * grows faster than its length (a 40,000-character list literal takes over
 * 100 ms), so the rest of a longer line stays plain text, and the grammar
 * carries on from the state before that line, as shiki's own
 * `tokenizeMaxLineLength` does: right for the long lines programs have (data
 * literals, strings that close on the line). About 15 ms on a busy machine.
 */
export const MAX_HIGHLIGHTED_LINE = 3000;

type Colourer = (code: string, state: unknown) => { lines: CodeToken[][]; state: unknown };

/** Splits `code` around lines longer than `maxLine`, so that each of those is coloured up to `maxLine` alone. */
export function capLongLines(colour: Colourer, maxLine = MAX_HIGHLIGHTED_LINE): Tokenizer {
  return {
    tokenize(code, state) {
      const source = code.split("\n");
      if (!source.some((line) => line.length > maxLine)) return colour(code, state);
      const lines: CodeToken[][] = [];
      let run: string[] = [];
      const flush = () => {
        if (run.length === 0) return;
        const result = colour(run.join("\n"), state);
        for (const line of result.lines) lines.push(line);
        state = result.state;
        run = [];
      };
      for (const line of source) {
        if (line.length <= maxLine) {
          run.push(line);
          continue;
        }
        flush();
        const head = colour(line.slice(0, maxLine), state).lines[0] ?? [];
        lines.push([...head, { content: line.slice(maxLine), style: {} }]);
      }
      flush();
      return { lines, state };
    },
  };
}

/** `regexes`: the grammar's patterns converted ahead of time (precompiled.ts); the rest are converted when first needed. */
export async function createPythonTokenizer(regexes: PrecompiledRegex[] = PYTHON_REGEXES): Promise<Tokenizer> {
  // The primitive and the standalone codeToTokens, not createHighlighterCore,
  // whose HTML output (hast-util-to-html and its tables) the card never uses.
  const primitive = await createShikiPrimitiveAsync({
    langs: [python],
    themes: [githubLight, githubDark],
    engine: createPythonRegexEngine(regexes),
  });
  return capLongLines((code, state) => {
    const result = codeToTokens(primitive, code, {
      lang: "python",
      themes: { light: "github-light-default", dark: "github-dark-default" },
      defaultColor: false,
      // shiki stops colouring a line after 500 ms by default, and the first
      // lines also pay for compiling the grammar's regular expressions: on a
      // busy machine that cut colours off at random. Lines are capped in
      // length instead (MAX_HIGHLIGHTED_LINE), and the kit yields between
      // steps, so no line can hold the thread for long.
      tokenizeTimeLimit: 0,
      ...(state ? { grammarState: state as never } : {}),
    });
    const lines = result.tokens.map((line) =>
      line.map(
        (token): CodeToken => ({
          content: token.content,
          style: (token.htmlStyle ?? {}) as Record<string, string>,
        }),
      ),
    );
    return { lines, state: result.grammarState };
  });
}
