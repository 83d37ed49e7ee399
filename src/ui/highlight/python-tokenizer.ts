// Loaded lazily in its own chunk: shiki core, its Python grammar, the
// JavaScript regular-expression engine (no WASM), and two themes whose token
// colours all meet WCAG AA contrast on the card. shiki's precompiled Python
// grammar was tried and dropped: it left one-line docstrings open, colouring
// the rest of the function as a string.
import { createHighlighterCore } from "shiki/core";
import { createJavaScriptRegexEngine } from "shiki/engine/javascript";
import python from "shiki/langs/python.mjs";
import githubDark from "shiki/themes/github-dark-default.mjs";
import githubLight from "shiki/themes/github-light-default.mjs";
import type { CodeToken, Tokenizer } from "./types.js";

export async function createPythonTokenizer(): Promise<Tokenizer> {
  const highlighter = await createHighlighterCore({
    langs: [python],
    themes: [githubLight, githubDark],
    engine: createJavaScriptRegexEngine(),
  });
  return {
    tokenize(code, state) {
      const result = highlighter.codeToTokens(code, {
        lang: "python",
        themes: { light: "github-light-default", dark: "github-dark-default" },
        defaultColor: false,
        ...(state ? { grammarState: state as never } : {}),
      });
      const lines = result.tokens.map((line) =>
        line.map((token): CodeToken => ({
          content: token.content,
          style: (token.htmlStyle ?? {}) as Record<string, string>,
        })),
      );
      return { lines, state: result.grammarState };
    },
  };
}
