// execute-code-ui/harness: the demo's server (chat, scripted model, the
// sandbox behind it) for your own development server and tests. The sandbox
// service alone, its engines and executors, is execute-code-ui/sandbox.

// Before anything else loads: a Node too old is told so at start.
import "../server/require-node.js";

export { startHarness } from "./harness-server.js";
export {
  DEFAULT_CHAT_RATE_LIMIT,
  DEFAULT_HARNESS_STORED_BYTES,
  type HarnessOptions,
  type RunningHarness,
} from "./harness-options.js";
export { createChatHandler, type ChatHandlerOptions } from "./chat-handler.js";
export { checkSameOrigin, checkSameOriginJson } from "./request-guard.js";
export type { ConnectionLimits } from "./connection-limits.js";
export { HttpRefusal } from "../server/http/http.js";
export { createPyodideFileHandler, type PyodideFileLimits } from "./pyodide-files.js";
export {
  createParticipantCookies,
  DEFAULT_NEW_PARTICIPANT_DAILY_LIMIT,
  DEFAULT_NEW_PARTICIPANT_LIMIT,
  type ParticipantCookieOptions,
} from "./participant-cookie.js";
export { modelFromEnv, ModelEnvError, type ModelEnv } from "./model-from-env.js";
export { createScriptedModel, type ScriptedModelOptions } from "./scripted-model.js";
