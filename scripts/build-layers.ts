// `npm run layers:build`: writes biome.layers.json, Biome's import rules for the layers of src/, from
// the table in scripts/layers.ts. tests/node/layers.test.ts fails while the file is not what this writes.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { biomeLayersText } from "./layers.ts";

const src = fileURLToPath(new URL("../src/", import.meta.url));
writeFileSync(new URL("../biome.layers.json", import.meta.url), biomeLayersText(src));
