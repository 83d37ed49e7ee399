"use client";

import { useChat } from "@ai-sdk/react";
import { AssistantRuntimeProvider, AuiConfig, Tools } from "@assistant-ui/react";
import { useAISDKRuntime } from "@assistant-ui/react-ai-sdk";
import { lastAssistantMessageIsCompleteWithApprovalResponses, lastAssistantMessageIsCompleteWithToolCalls } from "ai";
import { makeExecuteCodeToolkit } from "execute-code-ui/assistant-ui";
import { createPyodideWorkerExecutor, executeCodeClientTool } from "execute-code-ui/client-executor";
import "execute-code-ui/styles.css";
import { useEffect, useState } from "react";
import { Thread } from "./thread"; // yours: any assistant-ui thread

// Python in a Web Worker; it touches the page only once it runs, so a server render can import this.
const executor = createPyodideWorkerExecutor();

// The card runs each call once it is written and awaited (after Run, when asked), and adds the result.
const toolkit = makeExecuteCodeToolkit({ execution: "client", executor, askBeforeRunning: false });
const config = AuiConfig({ tools: Tools({ toolkit }) });

// The chat: created with execute_code as a tool this page runs, once per page load.
let chatId: Promise<string> | undefined;
async function createChat(): Promise<string> {
  const response = await fetch("/api/chats", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ tools: [executeCodeClientTool] }),
  });
  return ((await response.json()) as { id: string }).id;
}

function Chat({ id }: { id: string }) {
  const chat = useChat({
    id,
    // The result the card added sends the chat on, as an answer to an approval does.
    sendAutomaticallyWhen: (o) =>
      lastAssistantMessageIsCompleteWithToolCalls(o) || lastAssistantMessageIsCompleteWithApprovalResponses(o),
  });
  const runtime = useAISDKRuntime(chat);
  return (
    <AssistantRuntimeProvider runtime={runtime} config={config}>
      <Thread />
    </AssistantRuntimeProvider>
  );
}

export function BrowserTutorChat() {
  const [id, setId] = useState<string>();
  useEffect(() => {
    executor.preload(); // Pyodide takes seconds to load: start before the first program
    void (chatId ??= createChat()).then(setId);
  }, []);
  return id ? <Chat id={id} /> : null;
}
