// The student's files, into a kernel's working directory before a run: in
// cells of at most a few MiB each (a Jupyter server takes WebSocket
// messages of 10 MiB at most), and only those the kernel does not hold yet.
import { cell, runCell } from "./cells.js";
import type { Kernel } from "./run.js";
import { KERNEL_STATE } from "./runner.js";

/** A student's file for a run: its name in the working directory, its id, its bytes. */
export interface GivenFile {
  name: string;
  fileId: string;
  bytes: Uint8Array;
}

const GIVEN_TYPE = "application/vnd.execute-code-ui.given+json";
const CHUNK_BYTES = 4 * 1024 * 1024;

// Which of the files the kernel holds already, by name and id.
const HELD = `${KERNEL_STATE}
from IPython.display import publish_display_data
publish_display_data({"${GIVEN_TYPE}": state.given})
`;

// One piece of a file: the first replaces whatever is at its name (a link is removed, never followed).
const WRITE = `${KERNEL_STATE}
import base64
path = os.path.join(state.workdir, NAME)
if FIRST:
    state.given.pop(NAME, None)
    if os.path.lexists(path):
        shutil.rmtree(path) if os.path.isdir(path) and not os.path.islink(path) else os.unlink(path)
flags = os.O_WRONLY | os.O_NOFOLLOW | (os.O_CREAT | os.O_EXCL if FIRST else os.O_APPEND)
fd = os.open(path, flags, 0o644)
try:
    os.write(fd, base64.b64decode(DATA))
finally:
    os.close(fd)
if LAST:
    state.given[NAME] = KEY
`;

/** Writes the files the kernel does not hold yet (or holds another version of) into its working directory. */
export async function giveFiles(kernel: Kernel, files: readonly GivenFile[], signal: AbortSignal): Promise<void> {
  if (!files.length) return;
  const held = ((await runCell(kernel, cell(HELD), GIVEN_TYPE)) ?? {}) as Record<string, unknown>;
  for (const file of files) {
    if (held[file.name] === file.fileId) continue;
    const pieces = Math.max(1, Math.ceil(file.bytes.length / CHUNK_BYTES));
    for (let n = 0; n < pieces; n++) {
      if (signal.aborted) throw signal.reason;
      const piece = file.bytes.subarray(n * CHUNK_BYTES, (n + 1) * CHUNK_BYTES);
      await runCell(
        kernel,
        cell(WRITE, {
          NAME: file.name,
          KEY: file.fileId,
          DATA: Buffer.from(piece).toString("base64"),
          FIRST: n === 0,
          LAST: n === pieces - 1,
        }),
      );
    }
  }
}
