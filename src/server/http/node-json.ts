import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpRefusal } from "./http.js";

/** A JSON answer on Node's `http`. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** Answers a refused request with its status, headers and JSON body, and drains what the client sent. */
export function sendRefusal(req: IncomingMessage, res: ServerResponse, refusal: HttpRefusal): void {
  req.resume();
  sendJson(res, refusal.status, refusal.body, refusal.headers);
}
