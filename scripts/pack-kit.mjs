#!/usr/bin/env node
// Builds the kit and packs it, with nothing but Node and npm: no Debian
// packages, no browser, no database (those are for the kit's own tests).
// `node scripts/pack-kit.mjs` writes execute-code-ui-<version>.tgz here;
// `node scripts/pack-kit.mjs --into ../my-app` puts it in that app's vendor/
// and installs it from there, so the app's package.json says
// "file:vendor/execute-code-ui-<version>.tgz": commit vendor/, and a clone of
// the app (a colleague's, a CI's, a server's) installs the same kit.
// Plain JavaScript and only Node's own modules: it runs on any Node npm runs on.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const intoAt = args.indexOf("--into");
const into = intoAt === -1 ? null : args[intoAt + 1];
if (intoAt !== -1 && !into) fail("--into needs the app's folder: node scripts/pack-kit.mjs --into ../my-app");
if (into && !existsSync(path.join(into, "package.json"))) fail(`${into} has no package.json: name your app's folder.`);

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const step = (what, command, commandArgs, cwd = root) => {
  console.log(`${what}…`);
  execFileSync(command, commandArgs, {
    cwd,
    stdio: ["ignore", "inherit", "inherit"],
    shell: process.platform === "win32",
  });
};

// The lockfile's packages, the build's tools among them; Node 24 comes with them (the exact devDependency
// `node`), and `npm run` puts it first on the PATH, so the machine's Node only runs npm.
step("Installing the kit's packages from its lockfile", npm, ["ci", "--no-audit", "--no-fund", "--loglevel=error"]);
step("Building the kit", npm, ["run", "build", "--silent"]);
const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const tarball = `execute-code-ui-${version}.tgz`;
step("Packing it", npm, ["pack", "--silent"]);

if (!into) {
  console.log(`\nWrote ${path.join(root, tarball)}.`);
  console.log(`In your app: mkdir -p vendor && cp it there, then npm install ./vendor/${tarball}`);
  process.exit(0);
}
const vendor = path.join(into, "vendor");
mkdirSync(vendor, { recursive: true });
copyFileSync(path.join(root, tarball), path.join(vendor, tarball));
step(`Installing it into ${into}`, npm, ["install", "--no-audit", "--no-fund", `./vendor/${tarball}`], into);
console.log(`\n${into}/package.json now depends on "file:vendor/${tarball}": commit vendor/${tarball} with it.`);

function fail(message) {
  console.error(message);
  process.exit(2);
}
