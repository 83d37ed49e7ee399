// The card's theme, in one place: its colour tokens (light and dark), fonts
// and radius. src/styles.css loads this file with `@config`, so the prebuilt
// CSS (dist/styles.css, the package's `styles.css`) is made from it. Hosts
// restyle the card through the `--ecu-*` variables this sets on `.ecu-card`.
import type { Config } from "tailwindcss";
import plugin from "tailwindcss/plugin";

/** A token that takes the host's shadcn variable where there is one, and the card's own pair otherwise. */
interface Token {
  /** shadcn's variable for it, when shadcn has one. */
  host?: string;
  light: string;
  dark: string;
}

/** The card's colours. GitHub's palettes: shiki's GitHub themes meet AA contrast on these surfaces. */
export const tokens = {
  surface: { host: "--card", light: "#ffffff", dark: "#0d1117" },
  fg: { host: "--card-foreground", light: "#1f2328", dark: "#e6edf3" },
  "surface-sunken": { host: "--muted", light: "#f6f8fa", dark: "#151b23" },
  "fg-muted": { host: "--muted-foreground", light: "#59636e", dark: "#9198a1" },
  border: { host: "--border", light: "#d0d7de", dark: "#3d444d" },
  focus: { host: "--ring", light: "#0969da", dark: "#4493f8" },
  danger: { host: "--destructive", light: "#cf222e", dark: "#ff7b72" },
  primary: { host: "--primary", light: "#1f883d", dark: "#238636" },
  "on-primary": { host: "--primary-foreground", light: "#ffffff", dark: "#ffffff" },
  accent: { light: "#0969da", dark: "#4493f8" },
  success: { light: "#1a7f37", dark: "#3fb950" },
  warning: { light: "#855a00", dark: "#d29922" },
  attention: { light: "#8250df", dark: "#ab7df8" },
  "code-surface": { light: "#ffffff", dark: "#0d1117" },
  // Terminal colours: programs pick them for some terminal, not for this card.
  "ansi-black": { light: "#24292f", dark: "#484f58" },
  "ansi-red": { light: "#cf222e", dark: "#ff7b72" },
  "ansi-green": { light: "#116329", dark: "#3fb950" },
  "ansi-yellow": { light: "#9a6700", dark: "#d29922" },
  "ansi-blue": { light: "#0969da", dark: "#58a6ff" },
  "ansi-magenta": { light: "#8250df", dark: "#bc8cff" },
  "ansi-cyan": { light: "#1b7c83", dark: "#39c5cf" },
  "ansi-white": { light: "#6e7781", dark: "#b1bac4" },
  "ansi-bright-black": { light: "#57606a", dark: "#6e7681" },
  "ansi-bright-red": { light: "#a40e26", dark: "#ffa198" },
  "ansi-bright-green": { light: "#1a7f37", dark: "#56d364" },
  "ansi-bright-yellow": { light: "#7d4e00", dark: "#e3b341" },
  "ansi-bright-blue": { light: "#0550ae", dark: "#79c0ff" },
  "ansi-bright-magenta": { light: "#6639ba", dark: "#d2a8ff" },
  "ansi-bright-cyan": { light: "#1b7c83", dark: "#56d4dd" },
  "ansi-bright-white": { light: "#8c959f", dark: "#ffffff" },
} satisfies Record<string, Token>;

export const fonts = {
  sans: { host: "--font-sans", value: 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
  mono: {
    host: "--font-mono",
    value: 'ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace',
  },
};

export const radius = { host: "--radius", value: "10px" };

/**
 * Each colour as a pair that the scheme's two switches pick from (see the
 * scheme in src/styles.css): no `light-dark()`, which a host's build may
 * rewrite.
 */
const pair = ({ light, dark }: Token) => `var(--ecu-light, ${light}) var(--ecu-dark, ${dark})`;

/** The custom properties on `.ecu-card` that the card's utilities read. */
export function cardVariables(): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, token] of Object.entries(tokens) as Array<[string, Token]>) {
    variables[`--ecu-${name}`] = token.host ? `var(${token.host}, ${pair(token)})` : pair(token);
  }
  variables["--ecu-sans"] = `var(${fonts.sans.host}, ${fonts.sans.value})`;
  variables["--ecu-mono"] = `var(${fonts.mono.host}, ${fonts.mono.value})`;
  variables["--ecu-radius"] = `var(${radius.host}, ${radius.value})`;
  return variables;
}

const colorNames = [
  "surface",
  "surface-sunken",
  "code-surface",
  "border",
  "fg",
  "fg-muted",
  "focus",
  "accent",
  "success",
  "danger",
  "warning",
  "attention",
  "primary",
  "on-primary",
] as const;

export default {
  content: [],
  theme: {
    extend: {
      colors: {
        ...Object.fromEntries(
          colorNames.map((name) => [
            name === "border" ? "line" : name === "code-surface" ? "surface-code" : name,
            `var(--ecu-${name})`,
          ]),
        ),
        tone: "var(--ecu-tone)",
      },
      fontFamily: { ui: "var(--ecu-sans)", code: "var(--ecu-mono)" },
      borderRadius: { card: "var(--ecu-radius)", pane: "calc(var(--ecu-radius) - 4px)" },
    },
  },
  plugins: [
    plugin(({ addBase }) => {
      addBase({ ".ecu-card": cardVariables() });
    }),
  ],
} satisfies Config;
