// tutor-server.ts: the whole server side of the tutor chat, as one Web handler.
import type { StartedSandbox } from "execute-code-ui/sandbox";
import {
  createChatEndpoints,
  createChatRoutes,
  createExecuteCodeTool,
  createRunFileRoute,
  createSandboxFiles,
  createSqliteChatStore,
  createUploadRoute,
  EXECUTE_CODE_SYSTEM_PROMPT,
  type ChatRouteHandler,
} from "execute-code-ui/server";

// The sandbox and the harness's scripted model stand in for your sandbox service and model, so this
// runs with no key. Node loads them as they are (the sandbox starts Python from files inside the package).
const harness = () => import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "execute-code-ui/harness");
const sandboxModule = () => import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "execute-code-ui/sandbox");
let sandbox: Promise<StartedSandbox> | undefined;

async function openRoutes(): Promise<ChatRouteHandler> {
  const [{ createScriptedModel }, { startSandbox }] = await Promise.all([harness(), sandboxModule()]);
  const { url, signing, engine } = await (sandbox ??= startSandbox()); // yours: { sandboxUrl, signing }
  console.info(`The sandbox runs Python in ${engine === "cpython" ? "CPython" : "Pyodide"} at ${url}.`);
  const ctx = { sandboxUrl: url, signing, tenantId: "course-7" };
  const sandboxFiles = createSandboxFiles(ctx);
  const endpoints = createChatEndpoints({
    store: await createSqliteChatStore({ dataDir: "data" }),
    model: createScriptedModel(), // yours: an AI SDK model
    instructions: EXECUTE_CODE_SYSTEM_PROMPT,
    attachments: sandboxFiles,
    tools: ({ participantId, files }) => ({ execute_code: createExecuteCodeTool({ ...ctx, participantId, files }) }),
  });
  return createChatRoutes({
    endpoints,
    files: createRunFileRoute(ctx),
    uploads: createUploadRoute({ ...ctx, sandboxFiles }),
    participantId: () => "student-42", // yours: the signed-in student from your session; null answers 401
  }).handle;
}

// Opened with the first request, so that a build opens no database; a failed start is tried again.
let routes: Promise<ChatRouteHandler> | undefined;
export async function tutorApi(request: Request): Promise<Response> {
  routes ??= openRoutes().catch((error: unknown) => {
    routes = undefined;
    throw error;
  });
  return (await routes)(request);
}
