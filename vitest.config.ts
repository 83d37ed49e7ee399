import path from "node:path";
import { fileURLToPath } from "node:url";
import { storybookTest } from "@storybook/addon-vitest/vitest-plugin";
import react from "@vitejs/plugin-react";
import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";
import { chromiumArgs, chromiumPath } from "./scripts/chromium.ts";

const dirname = path.dirname(fileURLToPath(import.meta.url));


export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        test: {
          name: "unit",
          environment: "jsdom",
          include: ["tests/**/*.test.{ts,tsx}"],
          exclude: ["tests/node/**"],
          setupFiles: ["tests/setup.ts"],
        },
      },
      {
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
