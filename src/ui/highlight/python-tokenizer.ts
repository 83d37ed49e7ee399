// Loaded lazily in its own chunk (or inside the highlighting worker): shiki
// core, its Python grammar, the JavaScript regular-expression engine (no
// WASM), and two themes whose token colours all meet WCAG AA contrast on the
// card. shiki's precompiled Python grammar was tried and dropped: it left
// one-line docstrings open, colouring the rest of the function as a string.
import {
  codeToTokensBase,
  createShikiPrimitiveAsync,
  flatTokenVariants,
  getLastGrammarState,
  normalizeTheme,
  type ThemeRegistrationRaw,
} from "shiki/core";
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

const RULES_THEME = "execute-code-ui-rules";

/**
 * One theme with the light theme's rules, each with a colour of its own, and
 * what each of those colours is in the light and in the dark theme. The two
 * themes have the same rules in the same order, only their colours differ, so
 * the rule that colours a token in one colours it in the other: one pass with
 * this theme gives both themes' colours, where shiki's two-theme tokens take
 * a pass per theme, twice the work.
 */
export function pairThemes(
  lightTheme: ThemeRegistrationRaw,
  darkTheme: ThemeRegistrationRaw,
): { theme: ThemeRegistrationRaw; colours: Map<string, [light: string, dark: string]> } {
  // On copies: shiki's normalizeTheme adds its default rule to the array it is given.
  const rules = (theme: ThemeRegistrationRaw) =>
    normalizeTheme({ ...theme, tokenColors: [...(theme.tokenColors ?? [])] }).settings;
  const light = rules(lightTheme);
  const dark = rules(darkTheme);
  const colours = new Map<string, [string, string]>();
  if (light.length !== dark.length) throw new Error("the light and dark themes have different rules");
  const settings = light.map((rule, i) => {
    const other = dark[i]!;
    const { foreground, fontStyle } = rule.settings;
    if (
      JSON.stringify(rule.scope) !== JSON.stringify(other.scope) ||
      fontStyle !== other.settings.fontStyle ||
      !foreground !== !other.settings.foreground
    )
      throw new Error(`the light and dark themes differ in their rule ${i}`);
    if (!foreground) return { scope: rule.scope, settings: { fontStyle } };
    // vscode-textmate gives colours back in upper case.
    const id = `#${i.toString(16).padStart(6, "0").toUpperCase()}`;
    colours.set(id, [foreground.toUpperCase(), other.settings.foreground!.toUpperCase()]);
    return { scope: rule.scope, settings: { foreground: id, fontStyle } };
  });
  return { theme: { name: RULES_THEME, type: "light", settings, fg: settings[0]!.settings.foreground }, colours };
}

/** `regexes`: the grammar's patterns converted ahead of time (precompiled.ts); the rest are converted when first needed. */
export async function createPythonTokenizer(regexes: PrecompiledRegex[] = PYTHON_REGEXES): Promise<Tokenizer> {
  const { theme, colours } = pairThemes(githubLight, githubDark);
  // The primitive and codeToTokensBase, not createHighlighterCore, whose
  // HTML output (hast-util-to-html and its tables) the card never uses.
  const primitive = await createShikiPrimitiveAsync({
    langs: [python],
    themes: [theme],
    engine: createPythonRegexEngine(regexes),
  });
  // One style object per pair of colours and font style, as shiki's two-theme tokens have it.
  const styles = new Map<string, Record<string, string>>();
  const styleOf = (colour = "", fontStyle = 0) => {
    const [light, dark] = colours.get(colour) ?? [colour, colour];
    const key = `${light} ${dark} ${fontStyle}`;
    let style = styles.get(key);
    if (!style) {
      const variants = { light: { color: light, fontStyle }, dark: { color: dark, fontStyle } };
      style = flatTokenVariants({ content: "", offset: 0, variants }, ["light", "dark"], "--shiki-", false)
        .htmlStyle as Record<string, string>;
      styles.set(key, style);
    }
    return style;
  };
  return capLongLines((code, state) => {
    const tokens = codeToTokensBase(primitive, code, {
      lang: "python",
      theme: RULES_THEME,
      // shiki stops colouring a line after 500 ms by default, and the first
      // lines also pay for compiling the grammar's regular expressions: on a
      // busy machine that cut colours off at random. Lines are capped in
      // length instead (MAX_HIGHLIGHTED_LINE), and the kit yields between
      // steps, so no line can hold the thread for long.
      tokenizeTimeLimit: 0,
      ...(state ? { grammarState: state as never } : {}),
    });
    const lines = tokens.map((line) => {
      // Rules of the same colours in both themes make one token, as in shiki's two-theme tokens.
      const merged: CodeToken[] = [];
      for (const token of line) {
        const style = styleOf(token.color, token.fontStyle);
        const last = merged[merged.length - 1];
        if (last?.style === style) last.content += token.content;
        else merged.push({ content: token.content, style });
      }
      return merged;
    });
    return { lines, state: getLastGrammarState(primitive, tokens) };
  });
}
