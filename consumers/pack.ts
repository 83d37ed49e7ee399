import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Packs the built kit into a fresh folder outside the repository, where the
 * apps are made; the returned teardown removes that folder (about 2 GB of
 * installed apps) unless `KEEP_CONSUMERS=1` asks to keep it for a look.
 */
export default function pack() {
  const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  const work = mkdtempSync(path.join(tmpdir(), "ecu-consumers-"));
  execFileSync("npm", ["pack", "--pack-destination", work], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  const tarball = readdirSync(work).find((name) => name.endsWith(".tgz"));
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${work}`);
  renameSync(path.join(work, tarball), path.join(work, "execute-code-ui.tgz"));
  process.env.ECU_CONSUMERS_DIR = work;
  return () => {
    if (process.env.KEEP_CONSUMERS) console.log(`consumer apps kept in ${work}`);
    else rmSync(work, { recursive: true, force: true });
  };
}
