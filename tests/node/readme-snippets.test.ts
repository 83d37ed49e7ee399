import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// README snippets marked `<!-- file: PATH -->` are the files that the consumer
// matrix builds and runs, word for word.
const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const marked = [...readme.matchAll(/<!-- file: (\S+) -->\n```\w*\n([\s\S]*?)\n```/g)].map(([, file, code]) => ({
  file: file!,
  code: code!,
}));

describe("README snippets", () => {
  it("marks the snippets that the consumer apps use", () => {
    expect(marked.map((snippet) => snippet.file)).toEqual(
      expect.arrayContaining([
        "consumers/vite-assistant-ui/src/TutorChat.tsx",
        "consumers/vite-use-chat/src/TutorChat.tsx",
        "consumers/next-app/app/api/chat/route.ts",
      ]),
    );
  });

  it.each(marked)("$file is the file the consumer app builds", ({ file, code }) => {
    expect(code).toBe(readFileSync(new URL(`../../${file}`, import.meta.url), "utf8").trimEnd());
  });
});
