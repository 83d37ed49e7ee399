// tutor-server.ts: the whole server side of the tutor chat, as one Web handler.
import { readFile } from "node:fs/promises";
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
  type TokenMinterOptions,
} from "execute-code-ui/server";

// The harness's scripted model stands in for your model, so this runs with no key. Programs run in the
// sandbox you deployed (`execute-code-ui-sandbox serve`, docs/sandbox.md) where SANDBOX_URL names it, else in
// one started here. Node loads these as they are (the sandbox starts Python from files inside the package).
const harness = () => import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "execute-code-ui/harness");
const sandboxModule = () => import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "execute-code-ui/sandbox");
let sandbox: Promise<StartedSandbox> | undefined;

async function sandboxService(): Promise<{ url: string; signing: TokenMinterOptions }> {
  const deployed = process.env.SANDBOX_URL;
  if (deployed) {
    // Signed with the private key `execute-code-ui-sandbox keygen` wrote.
    const keys = process.env.SANDBOX_KEYS_DIR ?? "sandbox-keys";
    const privateKey = await readFile(`${keys}/token-private.pem`, "utf8");
    console.info(`Programs run in the sandbox at ${deployed}.`);
    return {
      url: deployed,
      signing: { privateKey, algorithm: "EdDSA", issuer: "execute-code-ui-sandbox", audience: "sandbox" },
    };
  }
  const { startSandbox } = await sandboxModule();
  const { url, signing, engine } = await (sandbox ??= startSandbox());
  console.info(`The sandbox runs Python in ${engine === "cpython" ? "CPython" : "Pyodide"} at ${url}.`);
  return { url, signing };
}

async function openRoutes(): Promise<ChatRouteHandler> {
  const { createScriptedModel } = await harness();
  const { url, signing } = await sandboxService();
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
