// Copies each file marked `<!-- file: PATH -->` in the README and the guides
// into the snippet below the mark, after the files change (a format pass, an
// edited example). tests/node/readme-snippets.test.ts checks they agree.
import { readFileSync, writeFileSync } from "node:fs";
import { SNIPPET_DOCUMENTS } from "./snippet-documents.ts";

const snippet = /(<!-- file: (\S+) -->\n```\w*\n)([\s\S]*?)(\n```)/g;

for (const document of SNIPPET_DOCUMENTS) {
  const text = readFileSync(document, "utf8");
  const synced = text.replace(
    snippet,
    (_, open: string, file: string, __, close: string) => `${open}${readFileSync(file, "utf8").trimEnd()}${close}`,
  );
  if (synced !== text) {
    writeFileSync(document, synced);
    console.log(`${document}: snippets updated`);
  }
}
