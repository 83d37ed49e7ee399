import { readFileSync } from "node:fs";
import { expect, it } from "vitest";

// `npx shadcn add …/execute-code.json` installs the item's dependencies: the
// kit at the version whose API the item's file uses, and an assistant-ui the
// kit supports.
const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
const registry = JSON.parse(readFileSync(new URL("../../registry.json", import.meta.url), "utf8"));
const item = registry.items.find((entry: { name: string }) => entry.name === "execute-code");

it("the registry item installs this version of the kit", () => {
  expect(item.dependencies).toContain(`execute-code-ui@^${pkg.version}`);
});

it("the registry item installs an assistant-ui in the kit's peer range", () => {
  expect(item.dependencies).toContain(`@assistant-ui/react@${pkg.peerDependencies["@assistant-ui/react"]}`);
});
