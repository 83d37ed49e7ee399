import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SNIPPET_DOCUMENTS } from "../../scripts/snippet-documents";

// Snippets of the README and the guides marked `<!-- file: PATH -->` are
// files of the repository, word for word: files that the consumer matrix
// builds and runs, and examples that a test runs.
const documents = SNIPPET_DOCUMENTS.map((name) => readFileSync(new URL(`../../${name}`, import.meta.url), "utf8"));
const marked = documents.flatMap((text) =>
  [...text.matchAll(/<!-- file: (\S+) -->\n```\w*\n([\s\S]*?)\n```/g)].map(([, file, code]) => ({
    file: file!,
    code: code!,
  })),
);

describe("README and guide snippets", () => {
  it("marks the snippets that the consumer apps and the tests use", () => {
    expect(marked.map((snippet) => snippet.file)).toEqual(
      expect.arrayContaining([
        "consumers/vite-assistant-ui/src/TutorChat.tsx",
        "consumers/vite-assistant-ui/src/StoredTutorChat.tsx",
        "consumers/vite-use-chat/src/TutorChat.tsx",
        "consumers/next-app/app/api/chat/route.ts",
        "consumers/next-app/app/api/chats/[[...path]]/route.ts",
        "consumers/shadcn-next-app/app/tools.ts",
        "examples/curl-bot.sh",
        "examples/register-card.tsx",
        "examples/own-layout.tsx",
        "examples/chat-route.ts",
        "examples/ask-before-running.ts",
        "examples/harness-sign-in.ts",
        "examples/sandbox-in-your-server.ts",
        "examples/chat-server.ts",
        "examples/browser-chat.tsx",
        "examples/next-pyodide-headers.ts",
        "examples/student-files.ts",
        "examples/attach-files.tsx",
        "examples/jupyter-tool.ts",
        "examples/deployed-sandbox.ts",
        "examples/model-budget.ts",
        "consumers/guides/tutor-server.ts",
        "consumers/guides/tutor.tsx",
        "consumers/guides/next/app/api/[...path]/route.ts",
        "consumers/guides/next/app/page.tsx",
        "consumers/guides/next/app/layout.tsx",
        "consumers/guides/vite/vite.config.ts",
        "consumers/guides/vite/src/App.tsx",
        "consumers/guides/vite/src/index.css",
        "consumers/guides/vite/index.html",
        "consumers/guides/pilot/auth.ts",
        "consumers/guides/pilot/app/api/auth/[...nextauth]/route.ts",
        "consumers/guides/pilot/app/api/[...path]/route.ts",
        "consumers/guides/pilot/app/page.tsx",
        "e2e/readme-helpers.spec.ts",
      ]),
    );
  });

  it.each(marked)("$file is the file in the repository", ({ file, code }) => {
    expect(code).toBe(readFileSync(new URL(`../../${file}`, import.meta.url), "utf8").trimEnd());
  });
});
