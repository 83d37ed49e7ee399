"use client";

import {
  AssistantRuntimeProvider,
  AuiConfig,
  ComposerPrimitive,
  MessagePrimitive,
  ThreadListItemPrimitive,
  ThreadListPrimitive,
  ThreadPrimitive,
  Tools,
  useAuiState,
  useRemoteThreadListRuntime,
} from "@assistant-ui/react";
import { AssistantChatTransport, useChatRuntime } from "@assistant-ui/react-ai-sdk";
import { lastAssistantMessageIsCompleteWithApprovalResponses } from "ai";
import {
  createStoredChatsAdapter,
  executeCodeToolkit,
  stopRunOnAbort,
  storedChatHistory,
} from "execute-code-ui/assistant-ui";
import "execute-code-ui/styles.css";
import { useEffect, useMemo, useRef } from "react";

const config = AuiConfig({ tools: Tools({ toolkit: executeCodeToolkit }) });

// The student's chats as the server keeps them (createChatEndpoints under /api).
const chats = createStoredChatsAdapter({ api: "/api" });
// A run outlives its request there: Stop also asks the server to end it.
const transport = new AssistantChatTransport({ api: "/api/chat", fetch: stopRunOnAbort({ api: "/api" }) });

/** One chat: its stored messages, then the AI SDK chat for what comes next. */
function useStoredChat() {
  const remoteId = useAuiState((state) => state.threadListItem.remoteId);
  const history = useMemo(() => storedChatHistory(remoteId, { api: "/api" }), [remoteId]);
  return useChatRuntime({
    transport,
    adapters: { history },
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
}

const OPEN_CHAT = "open-chat";

export function StoredTutorChat() {
  // The chat open before a reload opens again. localStorage is read after the first render, never during one,
  // so the page prerenders (Next.js) the same as it first renders in the browser.
  const restored = useRef(false);
  const runtime = useRemoteThreadListRuntime({
    adapter: chats,
    runtimeHook: useStoredChat,
    onThreadIdChange: (id) => {
      if (!restored.current) return;
      if (id) localStorage.setItem(OPEN_CHAT, id);
      else localStorage.removeItem(OPEN_CHAT);
    },
  });
  useEffect(() => {
    const opened = localStorage.getItem(OPEN_CHAT);
    const switched = opened ? runtime.threads.switchToThread(opened) : Promise.resolve();
    // A chat that is gone (deleted, another browser's) leaves the new one open.
    void switched.catch(() => undefined).finally(() => (restored.current = true));
  }, [runtime]);
  return (
    <AssistantRuntimeProvider runtime={runtime} config={config}>
      <div style={{ display: "grid", gridTemplateColumns: "14rem 1fr", gap: 16 }}>
        <ThreadListPrimitive.Root aria-label="Chats">
          <ThreadListPrimitive.New>New chat</ThreadListPrimitive.New>
          <ThreadListPrimitive.Items>
            {() => (
              <ThreadListItemPrimitive.Root>
                <ThreadListItemPrimitive.Trigger>
                  <ThreadListItemPrimitive.Title fallback="New chat" />
                </ThreadListItemPrimitive.Trigger>
                <ThreadListItemPrimitive.Archive>Archive</ThreadListItemPrimitive.Archive>
              </ThreadListItemPrimitive.Root>
            )}
          </ThreadListPrimitive.Items>
        </ThreadListPrimitive.Root>
        <ThreadPrimitive.Root>
          <ThreadPrimitive.Viewport>
            <ThreadPrimitive.Messages>
              {() => (
                <MessagePrimitive.Root>
                  <MessagePrimitive.Parts />
                </MessagePrimitive.Root>
              )}
            </ThreadPrimitive.Messages>
          </ThreadPrimitive.Viewport>
          <ComposerPrimitive.Root>
            <ComposerPrimitive.Input aria-label="Message" />
            <ComposerPrimitive.Send>Send</ComposerPrimitive.Send>
          </ComposerPrimitive.Root>
        </ThreadPrimitive.Root>
      </div>
    </AssistantRuntimeProvider>
  );
}
