import type { UIMessage, UIMessageChunk } from "ai";
import { exportPKCS8 } from "jose";
import { createPyodideExecutor } from "../../../src/sandbox";
import { startSandbox } from "../sandbox-fixture";

/**
 * The sandbox service the examples sign for (issuer "my-tutor"): the mock
 * one, running Python in Pyodide, and its signing key as PKCS#8 PEM text,
 * as an app keeps it in an environment variable.
 */
export async function startTutorSandbox() {
  const sandbox = await startSandbox(createPyodideExecutor({ poolSize: 1, onWarning: () => undefined }), {
    issuer: "my-tutor",
  });
  return { url: sandbox.url, signingKey: await exportPKCS8(sandbox.privateKey), close: sandbox.close };
}

/** A student's message, as the AI SDK's useChat sends it. */
export const userMessage = (text: string): UIMessage => ({ id: "m1", role: "user", parts: [{ type: "text", text }] });

/** A message with a fenced Python block, which the scripted model runs as written. */
export const python = (code: string) => `Run this, please:\n\`\`\`python\n${code}\n\`\`\``;

/** Every chunk of a UI message stream response. */
export async function chunksOf(response: Response): Promise<UIMessageChunk[]> {
  return (await response.text())
    .split("\n")
    .filter((line) => line.startsWith("data: {"))
    .map((line) => JSON.parse(line.slice("data: ".length)) as UIMessageChunk);
}

/** The streamed text of the answer. */
export const textOf = (chunks: UIMessageChunk[]) =>
  chunks.flatMap((chunk) => (chunk.type === "text-delta" ? [chunk.delta] : [])).join("");
