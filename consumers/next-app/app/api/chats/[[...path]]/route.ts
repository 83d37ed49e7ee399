import type { StartedSandbox } from "execute-code-ui/sandbox";
import {
  createChatEndpoints,
  createChatRoutes,
  createExecuteCodeTool,
  createRunFileRoute,
  createSqliteChatStore,
  EXECUTE_CODE_SYSTEM_PROMPT,
  type ChatRouteHandler,
} from "execute-code-ui/server";

// The harness's scripted model and the sandbox (which starts Python
// processes from files inside the package): Node loads them as they are, not
// through the bundler.
const harness = () => import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "execute-code-ui/harness");
const sandboxModule = () => import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "execute-code-ui/sandbox");

// Opened with the first request, so that building the app opens no database.
let routes: Promise<ChatRouteHandler> | undefined;
let sandbox: Promise<StartedSandbox> | undefined;

async function openRoutes(): Promise<ChatRouteHandler> {
  const [{ createScriptedModel }, { startSandbox }] = await Promise.all([harness(), sandboxModule()]);
  const { url, signing } = await (sandbox ??= startSandbox());
  const ctx = { sandboxUrl: url, signing, tenantId: "course-7" };
  const endpoints = createChatEndpoints({
    store: await createSqliteChatStore({ dataDir: "data" }), // or createPostgresChatStore({ connectionString })
    model: createScriptedModel(), // your model
    instructions: EXECUTE_CODE_SYSTEM_PROMPT,
    tools: ({ participantId }) => ({ execute_code: createExecuteCodeTool({ ...ctx, participantId }) }),
    // A chat may run execute_code in the browser instead (executeCodeClientTool).
    clientReplaceableTools: ["execute_code"],
  });
  // Every chat route, a run's files at /api/files/…, this origin's pages only.
  return createChatRoutes({
    endpoints,
    files: createRunFileRoute(ctx),
    participantId: () => "student-42", // from your sign-in; null answers 401
  }).handle;
}

// /api/chats, /api/chats/:id (PATCH archives or renames), /messages, /tool-results, /stream and /stop.
async function handler(request: Request) {
  // A failed start is tried again with the next request.
  routes ??= openRoutes().catch((error: unknown) => {
    routes = undefined;
    throw error;
  });
  return (await routes)(request);
}
export { handler as GET, handler as POST, handler as PATCH, handler as DELETE };
