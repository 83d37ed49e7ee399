import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../../scripts/free-port.ts";

export interface JupyterServer {
  url: string;
  token: string;
  /** The kernels it runs now, by its REST API. */
  kernels(): Promise<Array<{ id: string }>>;
  /** Ends the server at once, as a crash would. */
  kill(): void;
  stop(): Promise<void>;
}

/**
 * A Jupyter server of the tests' own (Debian's `python3-jupyter-server` and
 * `python3-ipykernel`, from scripts/setup.sh) on a loopback port with a
 * token of its own; `stop()` ends it and its kernels.
 */
export async function startJupyter(): Promise<JupyterServer> {
  const dir = mkdtempSync(path.join(tmpdir(), "ecu-jupyter-"));
  const port = await freePort();
  const token = randomBytes(16).toString("hex");
  const url = `http://127.0.0.1:${port}/`;
  const server: ChildProcess = spawn(
    "/usr/bin/python3",
    [
      "-m",
      "jupyter_server",
      `--ServerApp.token=${token}`,
      "--ServerApp.ip=127.0.0.1",
      `--ServerApp.port=${port}`,
      "--ServerApp.port_retries=0",
      "--ServerApp.open_browser=False",
      `--ServerApp.root_dir=${dir}`,
      ...(process.getuid?.() === 0 ? ["--allow-root"] : []),
    ],
    { stdio: ["ignore", "ignore", "pipe"], detached: true, env: { ...process.env, JUPYTER_RUNTIME_DIR: dir } },
  );
  let log = "";
  server.stderr!.on("data", (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  const headers = { authorization: `token ${token}` };
  for (let tries = 0; ; tries++) {
    const answer = await fetch(`${url}api/status`, { headers }).catch(() => null);
    if (answer?.ok) break;
    if (server.exitCode !== null || tries > 600)
      throw new Error(`The Jupyter server did not start (scripts/setup.sh installs it): ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const kill = () => {
    try {
      process.kill(-server.pid!, "SIGKILL");
    } catch {
      // Gone already.
    }
  };
  return {
    url,
    token,
    kernels: async () => (await (await fetch(`${url}api/kernels`, { headers })).json()) as Array<{ id: string }>,
    kill,
    async stop() {
      // As its operator stops it: it shuts its kernels down first.
      server.kill("SIGTERM");
      const stopped = await Promise.race([
        exited.then(() => true),
        new Promise((r) => setTimeout(() => r(false), 15_000)),
      ]);
      if (!stopped) kill();
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
