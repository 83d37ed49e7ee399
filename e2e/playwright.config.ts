import { defineConfig } from "@playwright/test";
import { chromiumArgs, chromiumPath } from "../scripts/chromium.ts";

// End-to-end tests against the harness as `npm start` serves it (built
// first by `npm test`), in the system Chromium. Four instances: the main
// one, one with a tiny rate limit, one whose sandbox is down, and one whose
// approval requests expire after two seconds.
export const PORTS = { main: 4310, limited: 4311, down: 4312, shortApproval: 4313 } as const;

const server = (port: number, env: Record<string, string>) => ({
  command: "node dist/harness/start.js",
  cwd: "..",
  url: `http://127.0.0.1:${port}/`,
  // Every test is a new browser, so a new participant: more than the default 10 a minute and 200 a day.
  // Chats in memory: each run of the suite starts with none.
  env: {
    PORT: String(port),
    SCRIPTED_MODEL_DELAY_MS: "40",
    HARNESS_NEW_PARTICIPANTS_PER_MINUTE: "1000",
    HARNESS_NEW_PARTICIPANTS_PER_DAY: "100000",
    HARNESS_DATABASE: ":memory:",
    ...env,
  },
  reuseExistingServer: false,
  timeout: 60_000,
  stdout: "ignore" as const,
  stderr: "pipe" as const,
});

export default defineConfig({
  testDir: ".",
  timeout: 60_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
  },
  webServer: [
    server(PORTS.main, { MOCK_SANDBOX_MAX_RUN_MS: "3000", MOCK_SANDBOX_RATE_LIMIT: "1000" }),
    server(PORTS.limited, { MOCK_SANDBOX_RATE_LIMIT: "2", MOCK_SANDBOX_POOL_SIZE: "1" }),
    server(PORTS.down, { EXECUTE_CODE_SANDBOX_URL: "http://127.0.0.1:4319" }),
    server(PORTS.shortApproval, { EXECUTE_CODE_APPROVAL_TTL_MS: "2000", MOCK_SANDBOX_POOL_SIZE: "1" }),
  ],
});
