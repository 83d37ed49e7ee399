"use client";

import {
  AssistantRuntimeProvider,
  AuiConfig,
  AuiIf,
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
import { useEffect, useMemo, useRef, useState } from "react";

// Made once, outside any render: nothing here touches the browser until it runs there.
const config = AuiConfig({ tools: Tools({ toolkit: executeCodeToolkit }) });
const chats = createStoredChatsAdapter({ api: "/api" });
const transport = new AssistantChatTransport({ api: "/api/chat", fetch: stopRunOnAbort({ api: "/api" }) });
const attachments = createExecuteCodeAttachmentAdapter();
const OPEN_CHAT = "open-chat";
// Requests the scripted model knows; a real model takes them as any other.
const SUGGESTIONS = [
  "Plot the squares and save them as a CSV",
  "Add up the numbers from 1 to 100",
  "Show me a real traceback",
];
// A thumb's 44 px on a touch screen; a mouse's 36 px elsewhere.
const BUTTON =
  "inline-flex min-h-9 items-center justify-center rounded-md border border-zinc-300 px-3 text-sm pointer-coarse:min-h-11 dark:border-zinc-700";

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
    <MarkdownTextPrimitive className="flex min-w-0 flex-col gap-2 [&_code]:font-mono [&_ol]:list-decimal [&_ol]:pl-5 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-zinc-900 [&_pre]:p-3 [&_pre]:text-sm [&_pre]:text-zinc-100 [&_ul]:list-disc [&_ul]:pl-5" />
  );
}

/** What a new chat shows: what the tutor does, and requests to start with. */
function Welcome() {
  return (
    <div className="flex flex-col gap-3 py-4">
      <h2 className="text-lg font-semibold">Ask, and the tutor runs Python to answer</h2>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        It writes a program, runs it and shows you the real output, plots and files. Paste your own program in a
        ```python block and it runs exactly as you wrote it; attach a CSV file to work on your data.
      </p>
      <div className="flex flex-wrap gap-2">
        {SUGGESTIONS.map((prompt) => (
          <ThreadPrimitive.Suggestion key={prompt} prompt={prompt} send className={`${BUTTON} text-left`}>
            {prompt}
          </ThreadPrimitive.Suggestion>
        ))}
      </div>
    </div>
  );
}

/** The student's chats: beside the open one from 640 px, behind a Chats button on a phone. */
function ChatList() {
  const [open, setOpen] = useState(false);
  return (
    <nav aria-label="Chats" className="flex min-h-0 flex-col gap-1 text-sm">
      <div className="flex gap-2">
        <ThreadListPrimitive.New className={`${BUTTON} flex-1`} onClick={() => setOpen(false)}>
          New chat
        </ThreadListPrimitive.New>
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} className={`${BUTTON} sm:hidden`}>
          Chats
        </button>
      </div>
      <ThreadListPrimitive.Root
        className={`${open ? "flex" : "hidden"} max-h-48 flex-col gap-1 overflow-y-auto sm:flex sm:max-h-none`}
      >
        <ThreadListPrimitive.Items>
          {() => (
            <ThreadListItemPrimitive.Root className="flex min-w-0 items-center gap-1 rounded-md data-[active=true]:bg-zinc-100 dark:data-[active=true]:bg-zinc-800">
              <ThreadListItemPrimitive.Trigger
                onClick={() => setOpen(false)}
                className="min-h-9 min-w-0 flex-1 truncate rounded-md px-3 text-left pointer-coarse:min-h-11"
              >
                <ThreadListItemPrimitive.Title fallback="New chat" />
              </ThreadListItemPrimitive.Trigger>
              <ThreadListItemPrimitive.Archive className="min-h-9 px-2 text-zinc-500 pointer-coarse:min-h-11">
                Archive
              </ThreadListItemPrimitive.Archive>
            </ThreadListItemPrimitive.Root>
          )}
        </ThreadListPrimitive.Items>
      </ThreadListPrimitive.Root>
    </nav>
  );
}

/** The open chat: the conversation scrolls, the message box stays at the bottom. */
function Thread() {
  return (
    <ThreadPrimitive.Root className="flex min-h-0 min-w-0 flex-col">
      <ThreadPrimitive.Viewport
        role="region"
        aria-label="Conversation"
        className="flex min-h-0 flex-1 flex-col gap-4 overflow-y-auto"
      >
        <AuiIf condition={(state) => state.thread.isEmpty}>
          <Welcome />
        </AuiIf>
        <ThreadPrimitive.Messages>
          {({ message }) => (
            <MessagePrimitive.Root
              className={
                message.role === "user"
                  ? "min-w-0 max-w-[90%] self-end rounded-2xl bg-zinc-100 px-4 py-2 dark:bg-zinc-800"
                  : "flex min-w-0 flex-col gap-3"
              }
            >
              <ExecuteCodeMessageAttachments />
              <MessagePrimitive.Parts components={{ Text: Markdown }} />
            </MessagePrimitive.Root>
          )}
        </ThreadPrimitive.Messages>
        <ThreadPrimitive.ViewportFooter className="sticky bottom-0 mt-auto bg-white pt-2 pb-3 dark:bg-zinc-950">
          <ComposerPrimitive.AttachmentDropzone>
            <ComposerPrimitive.Root className="flex flex-wrap items-end gap-2 rounded-xl border border-zinc-300 p-2 dark:border-zinc-700">
              {/* On a phone the message box has a row of its own, the buttons under it: a pasted program keeps its width. */}
              <ExecuteCodeComposerAttachments className="basis-full max-sm:order-first" />
              {/* Beside the message box, only while the reader is above the end: it covers nothing of the thread. */}
              <ThreadPrimitive.ScrollToBottom
                aria-label="Jump to latest"
                className="size-11 shrink-0 rounded-full border border-zinc-300 disabled:hidden dark:border-zinc-700"
              >
                <span aria-hidden="true">↓</span>
              </ThreadPrimitive.ScrollToBottom>
              <ComposerPrimitive.Input
                aria-label="Message"
                placeholder="Ask the tutor…"
                className="max-h-40 min-h-10 min-w-0 flex-1 basis-24 resize-none bg-transparent p-2 outline-none placeholder:whitespace-nowrap max-sm:order-first max-sm:basis-full pointer-coarse:min-h-11"
              />
              <ComposerPrimitive.AddAttachment multiple className={`${BUTTON} max-sm:ml-auto`}>
                Attach files
              </ComposerPrimitive.AddAttachment>
              <ComposerPrimitive.Send
                className={`${BUTTON} border-zinc-900 bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900`}
              >
                Send
              </ComposerPrimitive.Send>
            </ComposerPrimitive.Root>
          </ComposerPrimitive.AttachmentDropzone>
        </ThreadPrimitive.ViewportFooter>
      </ThreadPrimitive.Viewport>
    </ThreadPrimitive.Root>
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
      <div className="grid min-h-0 flex-1 grid-cols-1 grid-rows-[auto_minmax(0,1fr)] gap-3 sm:grid-cols-[14rem_minmax(0,1fr)] sm:grid-rows-1 sm:gap-6">
        <ChatList />
        <Thread />
      </div>
    </AssistantRuntimeProvider>
  );
}
