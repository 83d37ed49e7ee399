import type { ExecuteCodeResult } from "../../contract/index.js";
import { errorMessage } from "../../contract/error-message.js";

/** A network failure as a result a student can read and a model can act on. */
export function describeNetworkError(cause: unknown): ExecuteCodeResult {
  const code = networkErrorCode(cause);
  if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EHOSTUNREACH") {
    return {
      status: "error",
      code: "sandbox_unavailable",
      message: "The code runner cannot be reached right now, so the program did not run. Try again in a minute.",
    };
  }
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET" || code === "EPIPE") {
    return {
      status: "error",
      code: "connection_reset",
      message:
        "The connection to the code runner broke before it answered. The program may or may not have run; run it again to see its output.",
    };
  }
  return {
    status: "error",
    code: "network_error",
    message: `The code runner could not be reached (${errorMessage(cause)}).`,
  };
}

function networkErrorCode(cause: unknown): string | undefined {
  for (let e: unknown = cause, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
