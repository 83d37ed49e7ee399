import type { IncomingMessage } from "node:http";

/** Why a request body could not be read; each endpoint answers it in its own way. */
export class RequestBodyError extends Error {
  constructor(readonly kind: "too-large" | "not-json") {
    super(kind === "too-large" ? "The request body is too large." : "The request body is not JSON.");
  }
}

/** Reads a JSON request body of at most `maxBytes`. */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new RequestBodyError("too-large");
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new RequestBodyError("not-json");
  }
}
