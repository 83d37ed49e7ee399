import { defineConfig } from "@playwright/test";
import { chromiumArgs, chromiumPath } from "../scripts/chromium.ts";

// End-to-end tests against the harness as `npm start` serves it (built
// first by `npm test`), in the system Chromium. Five instances: the main
// one, one with a tiny rate limit, one whose sandbox is down, one whose
// approval requests expire after two seconds, and one on the kernels of a
// local Jupyter server (Debian's, from scripts/setup.sh), a kernel per chat.
export const PORTS = {
  main: 4310,
  limited: 4311,
  down: 4312,
  shortApproval: 4313,
  jupyter: 4314,
  jupyterServer: 4315,
} as const;
const JUPYTER_TOKEN = "e2e-jupyter-token";

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
    server(PORTS.main, { SANDBOX_MAX_RUN_MS: "3000", SANDBOX_RATE_LIMIT: "1000" }),
    // Two runs in five minutes: the third is refused however slowly a busy machine starts the first two.
    server(PORTS.limited, { SANDBOX_RATE_LIMIT: "2", SANDBOX_RATE_WINDOW_MS: "300000", SANDBOX_POOL_SIZE: "1" }),
    server(PORTS.down, { EXECUTE_CODE_SANDBOX_URL: "http://127.0.0.1:4319" }),
    server(PORTS.shortApproval, { EXECUTE_CODE_APPROVAL_TTL_MS: "2000", SANDBOX_POOL_SIZE: "1" }),
    {
      // The kernels' working directory is a fresh one of its own; the server ends with the suite.
      command: [
        "dir=$(mktemp -d) && exec /usr/bin/python3 -m jupyter_server",
        `--ServerApp.token=${JUPYTER_TOKEN} --ServerApp.ip=127.0.0.1 --ServerApp.port=${PORTS.jupyterServer}`,
        '--ServerApp.port_retries=0 --ServerApp.open_browser=False --ServerApp.root_dir="$dir" --allow-root',
      ].join(" "),
      url: `http://127.0.0.1:${PORTS.jupyterServer}/api`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore" as const,
      stderr: "ignore" as const,
    },
    server(PORTS.jupyter, {
      SANDBOX: "jupyter",
      JUPYTER_URL: `http://127.0.0.1:${PORTS.jupyterServer}/`,
      JUPYTER_TOKEN,
      JUPYTER_KERNELS: "per-chat",
      // The suite's own server, on loopback, for programs the suite wrote.
      JUPYTER_ISOLATED: "1",
      EXECUTE_CODE_TIMEOUT_MS: "4000",
    }),
  ],
});
