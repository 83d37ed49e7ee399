import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "./app-runner.ts";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

export interface ServedRegistry {
  /** The registry's base, for REGISTRY_URL: `http://127.0.0.1:PORT/r`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Builds the repository's registry as the README says to while the kit is
 * not published (`npm run registry:build -- --package file:…tgz`) and serves
 * dist-registry/r on a loopback port, as a static host would: `shadcn add`
 * then installs the very package this commit builds.
 */
export async function serveRegistry(tarball: string): Promise<ServedRegistry> {
  await run("npm", ["run", "registry:build", "--", "--package", `file:${tarball}`], root);
  const served = path.join(root, "dist-registry");
  const server = createServer((req, res) => {
    const file = path.join(served, path.normalize(new URL(req.url ?? "/", "http://localhost").pathname));
    if (!file.startsWith(served + path.sep) || !existsSync(file) || !statSync(file).isFile())
      return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json" }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/r`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
