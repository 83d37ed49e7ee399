// The tool on the sandbox you deployed with `execute-code-ui-sandbox serve`.
import { readFileSync } from "node:fs";
import { createExecuteCodeTool, type ServerToolsContext } from "execute-code-ui/server";

const keys = process.env.SANDBOX_KEYS_DIR ?? "/etc/execute-code-ui"; // what `keygen --keys` wrote

// The private key signs each run's token; it stays on your chat server.
const signing = {
  privateKey: readFileSync(`${keys}/token-private.pem`, "utf8"),
  algorithm: "EdDSA" as const,
  issuer: "execute-code-ui-sandbox",
  audience: "sandbox",
};

// createChatEndpoints({ …, tools }): each run goes to the service, for the student who asked.
export const tools = ({ participantId, chatId, files }: ServerToolsContext) => ({
  execute_code: createExecuteCodeTool({
    sandboxUrl: process.env.SANDBOX_URL ?? "http://sandbox.internal:8700",
    signing,
    participantId,
    chatId,
    files,
    tenantId: "course-1",
  }),
});
