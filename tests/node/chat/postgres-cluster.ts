import { execFile } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "../../../scripts/free-port.ts";

const run = promisify(execFile);

/** Debian's PostgreSQL server programs (initdb, pg_ctl), newest version first; null when none is installed. */
export function postgresBinDir(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((name) => existsSync(path.join(root, name, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], "bin") : null;
}

export interface PostgresCluster {
  url: string;
  stop(): Promise<void>;
}

/**
 * A PostgreSQL server of the tests' own: a new cluster in a temporary
 * folder, listening on a loopback port, stopped and deleted by `stop()`.
 * As root (CI), it runs as the `postgres` user that Debian's package
 * makes, since initdb refuses root.
 */
export async function startPostgres(): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL is not installed: scripts/setup.sh installs Debian's postgresql package.");
  const dir = mkdtempSync(path.join(tmpdir(), "ecu-pg-"));
  const data = path.join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  // Run from the cluster's own folder: the postgres user may not be allowed into the working folder (a checkout under /root).
  const as = async (command: string, args: string[]) => {
    const program = path.join(bin, command);
    return asRoot
      ? run("runuser", ["-u", "postgres", "--", program, ...args], { cwd: dir })
      : run(program, args, { cwd: dir });
  };
  if (asRoot) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
    chmodSync(dir, 0o700);
  }
  await as("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  await as("pg_ctl", [
    "-D",
    data,
    "-l",
    path.join(dir, "server.log"),
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
    "-w",
    "-t",
    "60",
    "start",
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await as("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "60", "stop"]).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
