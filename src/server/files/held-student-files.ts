import { HttpRefusal } from "../http/http.js";
import type { HeldFile, RunFileHolder } from "./run-file-holder.js";
import type { SandboxFiles } from "./sandbox-files.js";
import { tableSummary } from "./file-summary.js";

/** What the chat is told of a held file. */
const factsOf = (file: HeldFile & { summary?: string }) => ({
  name: file.name,
  mediaType: file.mediaType,
  size: file.bytes.length,
  ...(file.summary ? { summary: file.summary } : {}),
});

/**
 * The students' uploads of one tenant, held in this server's memory for
 * their owner (a sandbox that keeps no files of its own, such as Jupyter's):
 * what the upload route and the chat endpoints take as `sandboxFiles`.
 */
export function heldStudentFiles(uploads: RunFileHolder, tenantId: string): SandboxFiles {
  return {
    async upload(participantId, files) {
      const owner = { participantId, tenantId };
      const kept = uploads.keep(
        owner,
        await Promise.all(
          files.map(async (file) => {
            const bytes = new Uint8Array(await file.file.arrayBuffer());
            // Summed up once, as it arrives: every message that attaches it reads the summary.
            return { name: file.name, mediaType: file.mediaType, bytes, summary: tableSummary(bytes, file.mediaType) };
          }),
        ),
      );
      if (kept.length < files.length) {
        throw new HttpRefusal(
          507,
          "no_room",
          "The sandbox has no room for these files now (each student's files are bounded); try again with fewer or smaller files later.",
        );
      }
      return kept.map((file) => ({ ...file.ref, ...factsOf(file) }));
    },
    async read(participantId, ref) {
      const file = uploads.read({ participantId, tenantId }, ref);
      return file ? { ...ref, ...factsOf(file), bytes: file.bytes } : null;
    },
    async describe(participantId, ref) {
      const file = uploads.read({ participantId, tenantId }, ref);
      return file ? { ...ref, ...factsOf(file) } : null;
    },
  };
}
