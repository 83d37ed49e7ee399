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
  createExecuteCodeAttachmentAdapter,
  createStoredChatsAdapter,
  ExecuteCodeComposerAttachments,
  ExecuteCodeMessageAttachments,
  executeCodeToolkit,
  stopRunOnAbort,
  storedChatHistory,
} from "execute-code-ui/assistant-ui";
import "execute-code-ui/styles.css";
import { useEffect, useMemo, useRef } from "react";

// Made once, outside any render: nothing here touches the browser until it runs there.
const config = AuiConfig({ tools: Tools({ toolkit: executeCodeToolkit }) });
const chats = createStoredChatsAdapter({ api: "/api" });
const transport = new AssistantChatTransport({ api: "/api/chat", fetch: stopRunOnAbort({ api: "/api" }) });
const attachments = createExecuteCodeAttachmentAdapter();
const OPEN_CHAT = "open-chat";

function useStoredChat() {
  const remoteId = useAuiState((state) => state.threadListItem.remoteId);
  const history = useMemo(() => storedChatHistory(remoteId, { api: "/api" }), [remoteId]);
  return useChatRuntime({
    transport,
    adapters: { history, attachments },
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
}

/** The student's chats beside the open one; the chat open before a reload opens again. */
export function Tutor() {
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
  // After the first render, never during one: the page prerenders as it first renders in the browser.
  useEffect(() => {
    const opened = localStorage.getItem(OPEN_CHAT);
    const switched = opened ? runtime.threads.switchToThread(opened) : Promise.resolve();
    void switched.catch(() => undefined).finally(() => (restored.current = true));
  }, [runtime]);
  return (
    <AssistantRuntimeProvider runtime={runtime} config={config}>
      <div className="grid w-full gap-6 sm:grid-cols-[12rem_1fr]">
        <ThreadListPrimitive.Root aria-label="Chats" className="flex flex-col gap-1 text-sm">
          <ThreadListPrimitive.New className="rounded-md border px-3 py-1.5 text-left">
            New chat
          </ThreadListPrimitive.New>
          <ThreadListPrimitive.Items>
            {() => (
              <ThreadListItemPrimitive.Root className="flex items-center gap-1 rounded-md data-[active=true]:bg-zinc-100 dark:data-[active=true]:bg-zinc-800">
                <ThreadListItemPrimitive.Trigger className="flex-1 truncate rounded-md px-3 py-1.5 text-left">
                  <ThreadListItemPrimitive.Title fallback="New chat" />
                </ThreadListItemPrimitive.Trigger>
                <ThreadListItemPrimitive.Archive className="px-2 text-zinc-500">
                  Archive
                </ThreadListItemPrimitive.Archive>
              </ThreadListItemPrimitive.Root>
            )}
          </ThreadListPrimitive.Items>
        </ThreadListPrimitive.Root>
        <ThreadPrimitive.Root className="flex min-w-0 flex-col gap-4">
          <ThreadPrimitive.Viewport className="flex flex-col gap-4">
            <ThreadPrimitive.Messages>
              {({ message }) => (
                <MessagePrimitive.Root
                  className={
                    message.role === "user" ? "self-end rounded-2xl bg-zinc-100 px-4 py-2 dark:bg-zinc-800" : ""
                  }
                >
                  <ExecuteCodeMessageAttachments />
                  <MessagePrimitive.Parts />
                </MessagePrimitive.Root>
              )}
            </ThreadPrimitive.Messages>
          </ThreadPrimitive.Viewport>
          <ComposerPrimitive.AttachmentDropzone>
            <ComposerPrimitive.Root className="flex flex-wrap items-end gap-2 rounded-xl border p-2">
              <ExecuteCodeComposerAttachments className="basis-full" />
              <ComposerPrimitive.Input
                aria-label="Message"
                placeholder="Ask the tutor…"
                className="min-h-10 flex-1 resize-none bg-transparent p-2 outline-none"
              />
              <ComposerPrimitive.AddAttachment multiple className="rounded-md border px-3 py-1.5 text-sm">
                Attach files
              </ComposerPrimitive.AddAttachment>
              <ComposerPrimitive.Send className="rounded-md bg-zinc-900 px-3 py-1.5 text-sm text-white dark:bg-zinc-100 dark:text-zinc-900">
                Send
              </ComposerPrimitive.Send>
            </ComposerPrimitive.Root>
          </ComposerPrimitive.AttachmentDropzone>
        </ThreadPrimitive.Root>
      </div>
    </AssistantRuntimeProvider>
  );
}
