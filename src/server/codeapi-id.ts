import { randomBytes } from "node:crypto";

/**
 * A new id in codeapi's form for a session or a file: 21 characters of
 * `A-Za-z0-9_-` (126 random bits), what its clients accept; LibreChat's
 * download route takes only `^[A-Za-z0-9_-]{21}$`.
 */
export function codeapiId(): string {
  return randomBytes(16).toString("base64url").slice(0, 21);
}
