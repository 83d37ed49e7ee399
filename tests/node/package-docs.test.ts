// The README and the guides go out with the package: a newcomer who has
// only the tarball (or npm's copy) can follow every link in them.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "../..");
const guides = readdirSync(path.join(root, "docs"))
  .filter((name) => name.endsWith(".md"))
  .map((name) => `docs/${name}`);

/** The files `npm pack` puts in the tarball, as paths from the package root. */
function packedFiles(): Set<string> {
  const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8" });
  const [report] = JSON.parse(out) as Array<{ files: Array<{ path: string }> }>;
  return new Set(report!.files.map((file) => file.path));
}

/** Each relative link of a Markdown file (not a web address, not a heading on the same page), resolved. */
function relativeLinks(document: string): string[] {
  const text = readFileSync(path.join(root, document), "utf8");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target]) => target!.split("#")[0]!)
    .filter((target) => target !== "" && !/^[a-z]+:/i.test(target))
    .map((target) => path.posix.normalize(path.posix.join(path.posix.dirname(document), target)));
}

describe("the package's documentation", () => {
  const packed = packedFiles();

  it("ships the README, every guide and the files they show", () => {
    expect([...packed]).toEqual(expect.arrayContaining(["README.md", "CHANGELOG.md", ...guides]));
  });

  it.each(["README.md", ...guides])("%s links only to files in the package", (document) => {
    const links = relativeLinks(document);
    for (const link of links) expect(existsSync(path.join(root, link)), `${document} → ${link}`).toBe(true);
    expect(links.filter((link) => !packed.has(link))).toEqual([]);
  });
});
