import type { IncomingMessage } from "node:http";
import { HttpRefusal } from "../server/http.js";

/** Reads a JSON request body of at most `maxBytes`; refuses one that is larger (413) or not JSON (400). */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new HttpRefusal(413, "body_too_large", "The request body is too large.");
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new HttpRefusal(400, "invalid_json", "The request body is not JSON.");
  }
}
