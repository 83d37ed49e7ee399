// `npm run registry:build [-- --package SPEC]`: the shadcn registry in
// dist-registry/r, ready to serve from any static host, offline included.
//
// - `shadcn build` writes the item (execute-code.json) from registry.json.
// - `--package SPEC` makes the item install the kit from SPEC instead of the
//   npm registry (`file:/abs/execute-code-ui-0.2.0.tgz` from `npm pack`):
//   while the package is not published, `npm install execute-code-ui@^x.y.z`
//   answers 404.
// - colors/<base>.json: `shadcn add` reads the app's base colour from the
//   registry that REGISTRY_URL names (ui.shadcn.com by default), even for an
//   item without colours; these empty sets let it run against this folder.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const output = path.join(root, "dist-registry", "r");
const { values } = parseArgs({ options: { package: { type: "string" } } });

execFileSync("npx", ["shadcn", "build", "registry.json", "--output", output], { cwd: root, stdio: "inherit" });

if (values.package) {
  const file = path.join(output, "execute-code.json");
  const item = JSON.parse(readFileSync(file, "utf8")) as { dependencies: string[] };
  item.dependencies = item.dependencies.map((dependency) =>
    dependency.startsWith("execute-code-ui@") ? `execute-code-ui@${values.package}` : dependency,
  );
  writeFileSync(file, `${JSON.stringify(item, null, 2)}\n`);
}

const EMPTY_BASE_COLOR = {
  inlineColors: { light: {}, dark: {} },
  cssVars: { light: {}, dark: {} },
  inlineColorsTemplate: "",
  cssVarsTemplate: "",
};
mkdirSync(path.join(output, "colors"), { recursive: true });
for (const base of ["neutral", "gray", "zinc", "stone", "slate"]) {
  writeFileSync(path.join(output, "colors", `${base}.json`), `${JSON.stringify(EMPTY_BASE_COLOR)}\n`);
}
