import type { IncomingMessage, ServerResponse } from "node:http";
import { convertToModelMessages, stepCountIs, streamText, type LanguageModel, type ToolSet, type UIMessage } from "ai";

export interface ChatHandlerOptions {
  model: LanguageModel;
  /** The tools of one request; a function so each chat can get its own context. */
  tools: (request: IncomingMessage) => ToolSet;
  system?: string;
}

const MAX_BODY_BYTES = 2 * 1024 * 1024;

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error("The chat request is too large.");
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

/** `POST /api/chat`: streams the model's answer, with real tool calls, as an AI SDK UI message stream. */
export function createChatHandler(options: ChatHandlerOptions) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let messages: UIMessage[];
    try {
      const body = (await readJson(req)) as { messages?: unknown };
      if (!Array.isArray(body.messages)) throw new Error("The request has no messages.");
      messages = body.messages as UIMessage[];
    } catch (error) {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
      return;
    }

    // Stop means stop: when the browser hangs up, the model call and the running tool are aborted.
    const abort = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) abort.abort();
    });

    const tools = options.tools(req);
    const result = streamText({
      model: options.model,
      system: options.system,
      messages: await convertToModelMessages(messages, { tools, ignoreIncompleteToolCalls: true }),
      tools,
      stopWhen: stepCountIs(5),
      abortSignal: abort.signal,
    });
    result.pipeUIMessageStreamToResponse(res, {
      originalMessages: messages,
      onError: (error) => (error instanceof Error ? error.message : String(error)),
    });
  };
}
