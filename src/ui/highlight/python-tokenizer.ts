// Loaded lazily in its own chunk: shiki core, the Python grammar with its
// regular expressions precompiled for JavaScript (no conversion on the first
// highlight, no WASM), and two themes whose token colours all meet WCAG AA
// contrast on the card.
import python from "@shikijs/langs-precompiled/python";
import { createHighlighterCore } from "shiki/core";
import { createJavaScriptRawEngine } from "shiki/engine/javascript";
import githubDark from "shiki/themes/github-dark-default.mjs";
import githubLight from "shiki/themes/github-light-default.mjs";
import type { CodeToken, Tokenizer } from "./types";

export async function createPythonTokenizer(): Promise<Tokenizer> {
  const highlighter = await createHighlighterCore({
    langs: [python],
    themes: [githubLight, githubDark],
    engine: createJavaScriptRawEngine(),
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
