import type { Config } from "tailwindcss";

// The kit's utilities carry the `ecu:` prefix (set in src/styles.css) so they
// never clash with a host app's own Tailwind build. Colours point at the
// card's CSS variables, so themes switch without new classes.
export default {
  content: ["./src/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        surface: "var(--ecu-surface)",
        "surface-sunken": "var(--ecu-surface-sunken)",
        line: "var(--ecu-border)",
        fg: "var(--ecu-fg)",
        "fg-muted": "var(--ecu-fg-muted)",
        success: "var(--ecu-success)",
        danger: "var(--ecu-danger)",
        warning: "var(--ecu-warning)",
        attention: "var(--ecu-attention)",
      },
    },
  },
} satisfies Config;
