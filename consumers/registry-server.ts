import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "./app-runner.ts";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

// `shadcn add` reads the base colour of components.json from the default
// registry (ui.shadcn.com, out of reach here) even for an item without colours;
// with REGISTRY_URL pointing here, this empty set is what it gets.
const EMPTY_BASE_COLOR = {
  inlineColors: { light: {}, dark: {} },
  cssVars: { light: {}, dark: {} },
  inlineColorsTemplate: "",
  cssVarsTemplate: "",
};

export interface ServedRegistry {
  /** The registry's base, for REGISTRY_URL: `http://127.0.0.1:PORT/r`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Builds the repository's registry with `npm run registry:build` and serves
 * its item on a loopback port, as a static host would serve `dist-registry/r`.
 *
 * The kit is not on the npm registry, so in the served copy the item's
 * `execute-code-ui@^x.y.z` dependency becomes the packed tarball
 * (`execute-code-ui@file:…/execute-code-ui.tgz`): `shadcn add` then installs
 * the very package this commit builds. Nothing else in the item changes.
 */
export async function serveRegistry(tarball: string): Promise<ServedRegistry> {
  await run("npm", ["run", "registry:build"], root);
  const item = JSON.parse(readFileSync(path.join(root, "dist-registry", "r", "execute-code.json"), "utf8"));
  item.dependencies = item.dependencies.map((dependency: string) =>
    dependency.startsWith("execute-code-ui@") ? `execute-code-ui@file:${tarball}` : dependency,
  );
  const files = new Map([
    ["/r/execute-code.json", JSON.stringify(item)],
    ["/r/colors/neutral.json", JSON.stringify(EMPTY_BASE_COLOR)],
  ]);

  const server = createServer((req, res) => {
    const body = files.get(new URL(req.url ?? "/", "http://localhost").pathname);
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { "content-type": "application/json" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/r`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
