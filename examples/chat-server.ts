import { createServer } from "node:http";
import { createExecuteCodeTool, createChatEndpoints, toNodeHandler, type ChatStore } from "execute-code-ui/server";
import { coursePrompt, ctx, mySession, yourModel } from "./your-app"; // yours: model, prompt, sign-in, tool settings

/** The chat endpoints under /api, for signed-in users. */
export function createChatServer(store: ChatStore) {
  const chats = createChatEndpoints({
    store,
    model: yourModel,
    instructions: coursePrompt,
    tools: ({ participantId }) => ({ execute_code: createExecuteCodeTool({ ...ctx, participantId }) }),
    // A chat may take execute_code over, to run it where the client is.
    clientReplaceableTools: ["execute_code"],
  });
  return createServer(
    toNodeHandler(async (request, req) => {
      const session = await mySession(req);
      if (!session) return Response.json({ error: "unauthenticated" }, { status: 401 });
      return chats.handle(request, { participantId: session.userId });
    }),
  );
}

// createChatServer(await createSqliteChatStore({ dataDir: "data" })).listen(3000); or { path: ":memory:" } in tests
