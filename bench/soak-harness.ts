// The harness under soak, in a process of its own so that its memory is
// measured alone. Started with --expose-gc; talks to the soak over IPC.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startHarness } from "../src/harness";

// The soak's thousands of chats go to a file of their own, not the demo's database.
const dataDir = mkdtempSync(path.join(tmpdir(), "ecu-soak-"));
const harness = await startHarness({
  port: 0,
  database: path.join(dataDir, "chats.sqlite"),
  chunkDelayMs: 0,
  // The soak reads the interpreters' count from the operators' health.
  operatorToken: "soak",
  rateLimit: { max: 1_000_000, windowMs: 1000 },
  chatRateLimit: { max: 1_000_000, windowMs: 1000 },
  participantCookie: { newParticipantLimit: { max: 1000, windowMs: 60_000 } },
  // Each of the soak's few browsers starts a chat per run: thousands each.
  chatLimits: { maxChatsPerParticipant: 1_000_000 },
});
const gc = (globalThis as { gc?: () => void }).gc!;
process.on("message", (message: { type: string }) => {
  if (message.type === "memory") {
    gc();
    gc();
    const { rss, heapUsed } = process.memoryUsage();
    process.send!({ type: "memory", rss, heapUsed });
  } else if (message.type === "close") {
    void harness.close().then(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  }
});
// The soak went away (it crashed, or was stopped): go too.
process.on("disconnect", () => void harness.close().then(() => process.exit(0)));
process.send!({ type: "ready", url: harness.url });
