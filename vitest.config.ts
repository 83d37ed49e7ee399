import path from "node:path";
import { fileURLToPath } from "node:url";
import { storybookTest } from "@storybook/addon-vitest/vitest-plugin";
import react from "@vitejs/plugin-react";
import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";
import { chromiumArgs, chromiumPath } from "./scripts/chromium.ts";

const dirname = path.dirname(fileURLToPath(import.meta.url));

// The examples import the kit by its package name, as an app does; the tests
// run them against the source, as tsconfig.json's `paths` type-checks them
// (the package's exports point at dist/, which the tests run before).
const kitEntries = {
  alias: [
    { find: /^execute-code-ui$/, replacement: path.join(dirname, "src/index.ts") },
    { find: /^execute-code-ui\/locales\/de$/, replacement: path.join(dirname, "src/locales/de.ts") },
    { find: /^execute-code-ui\/sandbox$/, replacement: path.join(dirname, "src/harness/sandbox/index.ts") },
    { find: /^execute-code-ui\/styles\.css$/, replacement: path.join(dirname, "src/styles.css") },
    { find: /^execute-code-ui\/([\w-]+)$/, replacement: path.join(dirname, "src/$1/index.ts") },
  ],
};

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        resolve: kitEntries,
        test: {
          name: "unit",
          environment: "jsdom",
          include: ["tests/**/*.test.{ts,tsx}"],
          exclude: ["tests/node/**"],
          setupFiles: ["tests/setup.ts"],
        },
      },
      {
        resolve: kitEntries,
        test: {
          name: "node",
          environment: "node",
          include: ["tests/node/**/*.test.ts"],
          // Interpreters start in seconds, not milliseconds, on a busy machine: a run waits, it does not fail.
          testTimeout: 120_000,
        },
      },
      {
        plugins: [storybookTest({ configDir: path.join(dirname, ".storybook") })],
        test: {
          name: "storybook",
          // A story that streams takes seconds of its own; on a busy machine its waits grow, not its checks.
          testTimeout: 60_000,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
            }),
            instances: [{ browser: "chromium" }],
          },
        },
      },
    ],
  },
});
