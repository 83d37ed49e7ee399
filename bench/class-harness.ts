// The harness for the class day, as `npm start` runs it (the sandbox in a
// process of its own, the CPython engine, its default limits), in a process
// of its own so that the class's load generator never shares its thread.
// Behind a "proxy": each student's address comes in X-Forwarded-For.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startHarness } from "../src/harness";

const dataDir = mkdtempSync(path.join(tmpdir(), "ecu-class-"));
const harness = await startHarness({
  port: 0,
  database: path.join(dataDir, "chats.sqlite"),
  engine: "cpython",
  sandboxProcess: true,
  trustProxy: true,
  operatorToken: process.env.CLASS_OPERATOR_TOKEN ?? "class-day",
  // npm start's settings, written out where startHarness's own defaults differ.
  chunkDelayMs: 30,
  toolTimeoutMs: 60_000,
  maxRunMs: 10_000,
  maxConcurrentRuns: 4,
});
process.send!({ type: "ready", url: harness.url });
process.on("message", (message: { type: string }) => {
  if (message.type !== "close") return;
  void harness.close().then(() => {
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
});
