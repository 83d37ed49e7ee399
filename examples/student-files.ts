// A student's files in a Next.js app: app/api/uploads/route.ts, app/api/files/[...ref]/route.ts,
// and the chat endpoints' options. Any server with Web Requests works the same.
import {
  createChatEndpoints,
  createExecuteCodeTool,
  createRunFileRoute,
  createSandboxFiles,
  createUploadRoute,
  type ChatStore,
} from "execute-code-ui/server";
import { coursePrompt, ctx, yourModel } from "./your-app"; // yours: model, prompt, tool settings

// The sandbox's files, seen by the upload route and the chats alike: each request for one student, with a token minted here.
const sandboxFiles = createSandboxFiles(ctx);

/** POST /api/uploads: the composer's files, checked and put in the sandbox (10 MB each, by default). */
export const uploads = createUploadRoute({ ...ctx, sandboxFiles });

/** GET /api/files/{sessionId}/{fileId}: a file to the student who owns it; 404 to anyone else. */
export const files = createRunFileRoute(ctx);

/** The chats: a message's files are checked for its sender, and each run gets the chat's files. */
export function studentChats(store: ChatStore) {
  return createChatEndpoints({
    store,
    model: yourModel,
    instructions: coursePrompt,
    attachments: sandboxFiles,
    tools: ({ participantId, files }) => ({ execute_code: createExecuteCodeTool({ ...ctx, participantId, files }) }),
  });
}

// In each route: `return uploads.handle(request, { participantId: session.userId })`, and so on.
