import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const templates = path.dirname(fileURLToPath(import.meta.url));

/**
 * The environment of a consumer's commands: Node 24 (the binary running this
 * suite) first on PATH, and nothing of the kit's own npm run: no npm_*
 * settings, no node_modules/.bin of the repository.
 */
function consumerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.toLowerCase().startsWith("npm_")) env[key] = value;
  }
  const paths = (process.env.PATH ?? "").split(path.delimiter).filter((dir) => !dir.includes("node_modules"));
  env.PATH = [path.dirname(process.execPath), ...paths].join(path.delimiter);
  env.NEXT_TELEMETRY_DISABLED = "1";
  return env;
}

export interface AppTemplate {
  /** Start from the shared Vite files (index.html, main.tsx, tsconfig, server.ts). */
  vite: boolean;
  /** Files taken from other templates: destination in the app → source under consumers/. */
  borrow?: Record<string, string>;
}

/** Copies an app's template next to the packed kit. */
export function makeApp(name: string, { vite, borrow = {} }: AppTemplate): string {
  const work = process.env.ECU_CONSUMERS_DIR;
  if (!work || !existsSync(path.join(work, "execute-code-ui.tgz")))
    throw new Error("The kit was not packed (see pack.ts).");
  const dir = path.join(work, name);
  if (vite) cpSync(path.join(templates, "vite-shared"), dir, { recursive: true });
  cpSync(path.join(templates, name), dir, { recursive: true });
  for (const [destination, source] of Object.entries(borrow))
    cpSync(path.join(templates, source), path.join(dir, destination));
  return dir;
}

/** Runs a command in an app and resolves with its output; rejects with the output when it fails. */
export function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...consumerEnv(), ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(" ")} exited with ${code}:\n${output}`)),
    );
  });
}

export interface RunningApp {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** Starts an app's server (`$PORT` in its arguments becomes the port) and waits until it answers. */
export async function serve(
  command: string,
  args: string[],
  cwd: string,
  port: number,
  env: NodeJS.ProcessEnv = {},
): Promise<RunningApp> {
  const child: ChildProcess = spawn(
    command,
    args.map((arg) => arg.replaceAll("$PORT", String(port))),
    {
      cwd,
      env: { ...consumerEnv(), PORT: String(port), ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-child.pid, "SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    if (child.exitCode === null) process.kill(-child.pid, "SIGKILL");
  };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`${command} ${args.join(" ")} exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(url)).status < 500) return { url, output: () => output, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stop();
  throw new Error(`${command} did not answer on ${url} within 120 s:\n${output}`);
}
