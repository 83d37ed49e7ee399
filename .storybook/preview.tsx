import type { Preview } from "@storybook/react-vite";
import { configure } from "storybook/test";
import "../src/styles.css";
import { germanLabels } from "../src/locales/de";

// A story's waits (findBy…, waitFor) are for what comes from elsewhere: an
// image, a lazy chunk, the highlighting worker. With other story files in the
// same browser on a busy machine they take seconds, not testing-library's 1 s.
configure({ asyncUtilTimeout: 10_000 });

const preview: Preview = {
  parameters: {
    layout: "padded",
    // Every story must pass axe: a violation fails its test.
    a11y: { test: "error" },
    // The phases first: the states a designer starts from; the interaction tests last.
    options: { storySort: { order: ["ExecuteCodeCard", ["Phases", "*"], "Tests"] } },
  },
  globalTypes: {
    theme: {
      description: "Colour scheme of the card",
      toolbar: { title: "Theme", icon: "mirror", items: ["light", "dark"], dynamicTitle: true },
    },
    locale: {
      description: "Language of the card's words",
      toolbar: {
        title: "Language",
        icon: "globe",
        items: [
          { value: "en", title: "English" },
          { value: "de", title: "Deutsch" },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { theme: "light", locale: "en" },
  decorators: [
    // The card's words in the toolbar's language, for a story that passes its args to the card and sets no labels.
    (Story, context) =>
      context.globals.locale === "de" && context.args.labels === undefined
        ? Story({ args: { ...context.args, labels: germanLabels } })
        : Story(),
    (Story, context) => {
      const theme = context.parameters.theme ?? context.globals.theme ?? "light";
      return (
        <div
          data-theme={theme}
          style={{
            // Galleries take the canvas's width, to put light and dark side by side.
            maxWidth: context.parameters.wide ? undefined : 760,
            padding: 16,
            background: theme === "dark" ? "#010409" : "#ffffff",
            colorScheme: theme,
          }}
        >
          <Story />
        </div>
      );
    },
  ],
};

export default preview;
