import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const storiesDir = join(import.meta.dirname, "../../stories");
const docsDir = join(storiesDir, "docs");

/** The card's areas: each stories file whose title is under "ExecuteCodeCard/". */
const areas = readdirSync(storiesDir)
  .filter((file) => file.endsWith(".stories.tsx"))
  .filter((file) => /title: "ExecuteCodeCard\//.test(readFileSync(join(storiesDir, file), "utf8")));

const exportsOf = (file: string) =>
  new Set([...readFileSync(join(storiesDir, file), "utf8").matchAll(/^export const (\w+)/gm)].map((m) => m[1]));

// A designer starts from an area's docs page: every area has one, and it shows stories that exist.
describe("Storybook's docs pages", () => {
  const pages = readdirSync(docsDir).filter((file) => file.endsWith(".mdx"));

  it.each(areas)("%s has a docs page attached to it", (area) => {
    const page = pages.find((file) =>
      readFileSync(join(docsDir, file), "utf8").includes(`from "../${area.replace(/\.tsx$/, "")}"`),
    );
    expect(page, `no page in stories/docs imports ${area}`).toBeDefined();
    expect(readFileSync(join(docsDir, page!), "utf8")).toMatch(/<Meta of=\{\w+\} \/>/);
  });

  it.each(pages)("%s shows only stories its area exports, and its states in light and dark", (page) => {
    const text = readFileSync(join(docsDir, page), "utf8");
    const [, name, file] = text.match(/import \* as (\w+) from "\.\.\/([\w-]+\.stories)";/)!;
    const stories = exportsOf(`${file}.tsx`);
    const shown = [...text.matchAll(new RegExp(`of=\\{${name}\\.(\\w+)\\}`, "g"))].map((m) => m[1]!);
    expect(shown.length).toBeGreaterThan(0);
    for (const story of shown) expect(stories, `${page} shows ${story}`).toContain(story);
    // Light and dark side by side (a gallery), or each scheme's story.
    expect(shown.some((story) => /^(Gallery|SideBySide)$|Dark$/.test(story))).toBe(true);
  });
});
