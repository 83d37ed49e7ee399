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
import { useMemo, useState } from "react";

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
  // The chat open before a reload opens again. Read once: the list switches chats after that.
  const [openedFirst] = useState(() => localStorage.getItem(OPEN_CHAT) ?? undefined);
  const runtime = useRemoteThreadListRuntime({
    adapter: chats,
    runtimeHook: useStoredChat,
    threadId: openedFirst,
    onThreadIdChange: (id) => {
      if (id) localStorage.setItem(OPEN_CHAT, id);
      else localStorage.removeItem(OPEN_CHAT);
    },
  });
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
