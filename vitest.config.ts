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
    { find: /^execute-code-ui\/sandbox$/, replacement: path.join(dirname, "src/sandbox/index.ts") },
    { find: /^execute-code-ui\/styles\.css$/, replacement: path.join(dirname, "src/styles.css") },
    { find: /^execute-code-ui\/([\w-]+)$/, replacement: path.join(dirname, "src/$1/index.ts") },
  ],
};

export default defineConfig({
  test: {
    // Most files wait on interpreters, kernels, servers and a browser, not on
    // a core: vitest's default (one worker per core but one) runs them one at
    // a time on a 2-core machine, and a busy machine then stretches every wait.
    maxWorkers: 4,
    projects: [
      {
        plugins: [react()],
        resolve: kitEntries,
        test: {
          name: "unit",
          environment: "jsdom",
          // Waits for chunks and the highlighter stretch on a busy machine (see tests/setup.ts).
          testTimeout: 30_000,
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
          // Interpreters and kernels start in seconds, not milliseconds, and on a busy machine with other
          // files beside it a test of several runs takes minutes: a run waits, it does not fail.
          testTimeout: 240_000,
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
