import { defineConfig } from "@playwright/test";
import { chromiumArgs, chromiumPath } from "../scripts/chromium.ts";

// The consumer matrix: fresh apps outside the repository install the packed
// kit with a plain `npm install`, build, and show a working card in Chromium.
// Installs and builds take minutes, so each app's set-up has a long timeout.
export default defineConfig({
  testDir: ".",
  testMatch: "matrix.spec.ts",
  globalSetup: "./pack.ts",
  timeout: 15 * 60_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
  },
});
