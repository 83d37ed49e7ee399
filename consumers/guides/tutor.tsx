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
import { MarkdownTextPrimitive } from "@assistant-ui/react-markdown";
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
import { preloadHighlighter } from "execute-code-ui";
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

/** A message's words as Markdown: a fenced program is a code block, not three backticks. */
function Markdown() {
  return (
    <MarkdownTextPrimitive className="flex flex-col gap-2 [&_code]:font-mono [&_ol]:list-decimal [&_ol]:pl-5 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-zinc-900 [&_pre]:p-3 [&_pre]:text-sm [&_pre]:text-zinc-100 [&_ul]:list-disc [&_ul]:pl-5" />
  );
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
  // The code highlighter starts with the page, not with the first program: its colours come at once.
  useEffect(() => preloadHighlighter(), []);
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
          <ThreadListPrimitive.New className="rounded-md border border-zinc-300 px-3 py-1.5 dark:border-zinc-700 text-left">
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
                    message.role === "user"
                      ? "max-w-full self-end rounded-2xl bg-zinc-100 px-4 py-2 dark:bg-zinc-800"
                      : "flex flex-col gap-3"
                  }
                >
                  <ExecuteCodeMessageAttachments />
                  <MessagePrimitive.Parts components={{ Text: Markdown }} />
                </MessagePrimitive.Root>
              )}
            </ThreadPrimitive.Messages>
          </ThreadPrimitive.Viewport>
          <ComposerPrimitive.AttachmentDropzone>
            <ComposerPrimitive.Root className="flex flex-wrap items-end gap-2 rounded-xl border border-zinc-300 p-2 dark:border-zinc-700">
              <ExecuteCodeComposerAttachments className="basis-full" />
              <ComposerPrimitive.Input
                aria-label="Message"
                placeholder="Ask the tutor…"
                className="min-h-10 flex-1 resize-none bg-transparent p-2 outline-none"
              />
              <ComposerPrimitive.AddAttachment
                multiple
                className="rounded-md border border-zinc-300 px-3 py-1.5 dark:border-zinc-700 text-sm"
              >
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
