// Stand-ins for what your app has already, so that the examples beside this
// file run in the kit's tests. Replace each with your own.
import type { IncomingMessage, ServerResponse } from "node:http";
import { createScriptedModel } from "execute-code-ui/harness";
import type { ExecuteCodeToolContext, ExecutionCost } from "execute-code-ui/server";

/** Your model, from an AI SDK provider. This one runs a message's ```python block as written. */
export const yourModel = createScriptedModel({ chunkDelayMs: 0 });

/** Your course's system prompt. */
export const coursePrompt = "You are the tutor of Python 101. Answer in two sentences at most.";

/** Where your app keeps what the runs cost, per student. Here: a list. */
export const usage: ExecutionCost[] = [];
export function recordUsage(cost: ExecutionCost) {
  usage.push(cost);
}

/** Your sign-in: who sent a request, or null. This one believes a `session` cookie as it is. */
export async function mySession(req: IncomingMessage): Promise<{ userId: string } | null> {
  const userId = /(?:^|;\s*)session=([\w-]+)/.exec(req.headers.cookie ?? "")?.[1];
  return userId ? { userId } : null;
}

/** The server tool's settings but the student: your sandbox service and the key its tokens are signed with. */
export const ctx: Omit<ExecuteCodeToolContext, "participantId"> = {
  sandboxUrl: process.env.SANDBOX_URL!,
  signing: {
    privateKey: process.env.SANDBOX_SIGNING_KEY!,
    algorithm: "EdDSA",
    issuer: "my-tutor",
    audience: "sandbox",
  },
  tenantId: "course-7",
};

/** The rest of your app's routes. */
export function myApp(_req: IncomingMessage, res: ServerResponse) {
  res.writeHead(200, { "content-type": "text/plain" }).end("Your app\n");
}
