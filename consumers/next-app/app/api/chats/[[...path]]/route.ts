import type { StartedMockSandbox } from "execute-code-ui/harness";
import {
  createExecuteCodeTool,
  createChatEndpoints,
  createSqliteChatStore,
  EXECUTE_CODE_SYSTEM_PROMPT,
  type ChatEndpoints,
} from "execute-code-ui/server";

// The harness (scripted model, mock sandbox) starts Python processes from
// files inside the package, so Node loads it as it is, not through the bundler.
const harness = () => import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "execute-code-ui/harness");

// Opened with the first request, so that building the app opens no database.
let chats: Promise<ChatEndpoints> | undefined;
let sandbox: Promise<StartedMockSandbox> | undefined;

async function openChats(): Promise<ChatEndpoints> {
  const { createScriptedModel, startMockSandbox } = await harness();
  const { url, signing } = await (sandbox ??= startMockSandbox());
  return createChatEndpoints({
    store: await createSqliteChatStore({ dataDir: "data" }), // or createPostgresChatStore({ connectionString })
    model: createScriptedModel(), // your model
    instructions: EXECUTE_CODE_SYSTEM_PROMPT,
    tools: ({ participantId }) => ({
      execute_code: createExecuteCodeTool({ sandboxUrl: url, signing, participantId, tenantId: "course-7" }),
    }),
    // A chat may run execute_code in the browser instead (executeCodeClientTool).
    clientReplaceableTools: ["execute_code"],
  });
}

// /api/chats, /api/chats/:id, /api/chats/:id/messages and /tool-results.
async function handler(req: Request) {
  const participantId = "student-42"; // from your sign-in; answer 401 without one
  // A failed start is tried again with the next request.
  chats ??= openChats().catch((error: unknown) => {
    chats = undefined;
    throw error;
  });
  return (await (await chats).handle(req, { participantId })) ?? new Response(null, { status: 404 });
}
export { handler as GET, handler as POST };
