/** The README and the guides whose `<!-- file: PATH -->` snippets are copies of repository files. */
export const SNIPPET_DOCUMENTS = [
  "README.md",
  "docs/card.md",
  "docs/server.md",
  "docs/chats.md",
  "docs/harness.md",
  "docs/files.md",
  "docs/nextjs.md",
  "docs/vite.md",
  "docs/pilot.md",
  "docs/jupyter.md",
  "docs/sandbox.md",
];
