import { useChat } from "@ai-sdk/react";
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
  type UIMessage,
} from "ai";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { api, askBeforeRunning, MID_RUN, refusalMessage, type DemoChat, type RunWhere } from "./demo-chats.js";
import { pageExecutor } from "./run-where.js";

const sendOnWhen: Record<RunWhere, (options: { messages: UIMessage[] }) => boolean> = {
  // Answering an approval sends the chat on by itself.
  server: lastAssistantMessageIsCompleteWithApprovalResponses,
  // So does the result of a program this page ran.
  browser: (options) =>
    lastAssistantMessageIsCompleteWithApprovalResponses(options) ||
    lastAssistantMessageIsCompleteWithToolCalls(options),
};

/**
 * The AI SDK's own useChat against the stateful /api/chat. The server keeps
 * the chat: when it refuses a request (409: another tab answered first, or
 * the chat moved on), the page shows what the server has. A run goes on when
 * the page goes away; a page that opens the chat mid-run follows it
 * (`resume`), and Stop asks the server to end it.
 */
export function useDemoChat(demoChat: DemoChat) {
  const resync = useRef<() => Promise<void>>(async () => undefined);
  // What the server said when it refused a request for another reason (429: too many requests).
  const [refusal, setRefusal] = useState<string | null>(null);
  const [transport] = useState(
    () =>
      new DefaultChatTransport({
        api: "/api/chat",
        body: () => ({ confirmCodeExecution: askBeforeRunning.current }),
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          // 204 to a resume: the run ended after this page read the chat.
          if (response.status === 409 || (init?.method === "GET" && response.status === 204)) void resync.current();
          else if (response.ok) setRefusal(null);
          else {
            const body: unknown = await response
              .clone()
              .json()
              .catch(() => null);
            setRefusal(refusalMessage(body) ?? `The request failed (${response.status}).`);
          }
          return response;
        },
      }),
  );
  const chat = useChat({
    id: demoChat.id,
    transport,
    messages: demoChat.messages,
    sendAutomaticallyWhen: sendOnWhen[demoChat.runWhere],
    resume: demoChat.midRun,
  });
  // Pyodide takes seconds to load: start as the chat opens, not when its first program arrives.
  useEffect(() => {
    if (demoChat.runWhere === "browser") pageExecutor().preload();
  }, [demoChat.runWhere]);
  // What the server has, once it is not mid-run (another tab's run, say): a run's stored messages lack what it is still writing.
  useLayoutEffect(() => {
    resync.current = async () => {
      const path = `/api/chats/${encodeURIComponent(demoChat.id)}`;
      let answer = await api<{ status: string; messages: UIMessage[] }>(path);
      for (let waited = 0; answer.status === 200 && MID_RUN.has(answer.body.status) && waited < 10_000; waited += 250) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        answer = await api(path);
      }
      if (answer.status !== 200) return;
      chat.setMessages(answer.body.messages);
      chat.clearError();
    };
  });

  // The composer's Stop and the card's: the server ends the run (it no longer ends with the request), and the page stops reading.
  const stop = useCallback(async () => {
    const asked = fetch(`/api/chats/${encodeURIComponent(demoChat.id)}/stop`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    }).catch(() => undefined);
    await Promise.all([asked, chat.stop()]);
    // The stored chat has what the server settled at the stop: how long the program ran, among it.
    await resync.current();
  }, [demoChat.id, chat.stop]);

  return { chat: { ...chat, stop }, refusal };
}
