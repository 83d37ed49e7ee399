import { AssistantRuntimeProvider, AuiIf, MessagePrimitive, ThreadPrimitive, useAui } from "@assistant-ui/react";
import { useAISDKRuntime } from "@assistant-ui/react-ai-sdk";
import { ExecuteCodeMessageAttachments, ExecuteCodeMessageText } from "../../assistant-ui/index.js";
import { useCallback, useEffect, useRef, useState } from "react";
import { ChatList } from "./chat-list.js";
import {
  api,
  ASK_KEY,
  askBeforeRunning,
  createChat,
  openChat,
  rememberChat,
  restoreChat,
  type DemoChat,
  type RunWhere,
} from "./demo-chats.js";
import { DEMO_PROMPTS, SERVER_ONLY_PROMPTS } from "./prompts.js";
import { useFollowNewest } from "./follow-newest.js";
import { attachmentsFor, Composer } from "./composer.js";
import { type Scheme, usePhone, useScheme } from "./page-settings.js";
import { configs } from "./run-where.js";
import { useDemoChat } from "./use-demo-chat.js";
import { errorMessage } from "../../contract/error-message.js";

function ExamplePrompts({ runWhere }: { runWhere: RunWhere }) {
  const aui = useAui();
  const prompts =
    runWhere === "browser" ? DEMO_PROMPTS.filter((prompt) => !SERVER_ONLY_PROMPTS.has(prompt)) : DEMO_PROMPTS;
  return (
    <ul className="demo-examples" aria-label="Example prompts">
      {prompts.map((prompt) => (
        <li key={prompt}>
          <button
            type="button"
            onClick={() => aui.thread.append({ role: "user", content: [{ type: "text", text: prompt }] })}
          >
            {prompt}
          </button>
        </li>
      ))}
    </ul>
  );
}

function Message({ role }: { role: string }) {
  return (
    <MessagePrimitive.Root className="demo-message" data-role={role}>
      {role === "user" && <ExecuteCodeMessageAttachments />}
      {/* No typing dot after a card: the card shows its own progress. */}
      <MessagePrimitive.Parts components={{ Text: ExecuteCodeMessageText }} unstable_showEmptyOnNonTextEnd={false} />
    </MessagePrimitive.Root>
  );
}

/** A request the server refused, at the end of the thread and scrolled into view. */
function ChatError({ message }: { message: string }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => ref.current?.scrollIntoView({ block: "center" }), [message]);
  return (
    <p ref={ref} role="alert" className="demo-error">
      {message}
    </p>
  );
}

function Thread({ demoChat, opening, onSettled }: { demoChat: DemoChat; opening: boolean; onSettled: () => void }) {
  const { chat, refusal } = useDemoChat(demoChat);
  const phone = usePhone();
  const runtime = useAISDKRuntime(chat, { adapters: { attachments: attachmentsFor[demoChat.runWhere] } });
  const viewport = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const { aboveEnd, jumpToEnd } = useFollowNewest(viewport, content);
  // The list names a chat after its first message: read it again once a run has ended.
  const settled = chat.status === "ready" || chat.status === "error";
  useEffect(() => {
    if (settled) onSettled();
  }, [settled, onSettled]);
  // Replies that come while the page is open, not those of a chat it opened.
  const [openedWith] = useState(() => chat.messages.length);
  const replied = settled && chat.messages.length > openedWith && chat.messages.at(-1)?.role === "assistant";
  return (
    <AssistantRuntimeProvider runtime={runtime} config={configs[demoChat.runWhere]}>
      <ThreadPrimitive.Root
        className="demo-thread"
        data-chat-id={demoChat.id}
        data-run-where={demoChat.runWhere}
        aria-busy={opening || undefined}
        // The chat it replaces takes no typing, Send or Tab until then: a message would go to the wrong chat.
        inert={opening || undefined}
      >
        {/* Not a live log: that would read each new card's whole program aloud. A reply is announced (below). */}
        {/* The thread follows new output itself (useFollowNewest), never past the newest card's top while it runs. */}
        <ThreadPrimitive.Viewport
          ref={viewport}
          className="demo-viewport"
          role="region"
          aria-label="Conversation"
          autoScroll={false}
          scrollToBottomOnRunStart={false}
          scrollToBottomOnInitialize={false}
        >
          <div ref={content} className="demo-thread-content">
            {/* The examples start a chat: once it has a message, the thread has the room. */}
            <AuiIf condition={(state) => state.thread.isEmpty}>
              <p className="demo-hint">
                Type a <code>```python</code> block and it runs exactly as written, or pick an example:
              </p>
              <ExamplePrompts runWhere={demoChat.runWhere} />
            </AuiIf>
            <ThreadPrimitive.Messages>{({ message }) => <Message role={message.role} />}</ThreadPrimitive.Messages>
            {refusal && <ChatError message={refusal} />}
          </div>
        </ThreadPrimitive.Viewport>
        {/* Present from the start, so a screen reader hears it change: the reply's words are the next message. */}
        <p className="ecu-visually-hidden" aria-live="polite">
          {replied ? "The tutor has replied." : ""}
        </p>
        <Composer phone={phone} runWhere={demoChat.runWhere} onJump={aboveEnd ? jumpToEnd : null} />
      </ThreadPrimitive.Root>
    </AssistantRuntimeProvider>
  );
}

export function DemoApp() {
  const [scheme, setScheme] = useScheme();
  const [ask, setAsk] = useState(askBeforeRunning.current);
  const [demoChat, setDemoChat] = useState<DemoChat | null>(null);
  // The choice shows at once; the chat for it follows.
  const [chosen, setChosen] = useState<RunWhere | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // The model the harness was started with, when it is not the scripted tutor.
  const [model, setModel] = useState<string | null>(null);
  useEffect(() => {
    void api<{ model?: string | null }>("/api/session").then(({ body }) => setModel(body?.model ?? null));
  }, []);
  useEffect(() => {
    askBeforeRunning.current = ask;
    localStorage.setItem(ASK_KEY, String(ask));
  }, [ask]);
  useEffect(() => {
    // A chat the student opened or started meanwhile stays: the restore is only for a page with none yet.
    restoreChat().then(
      (restored) => setDemoChat((current) => current ?? restored),
      (error: unknown) => setFailure(String(error)),
    );
  }, []);
  const [listRefresh, setListRefresh] = useState(0);
  const onSettled = useCallback(() => setListRefresh((count) => count + 1), []);
  // The chat being opened from the list, or a new chat being made: the one on screen dims (and takes no input)
  // until the next one comes, so nothing typed meanwhile goes to the chat being left.
  const [opening, setOpening] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  // The student's latest choice (a chat from the list, a new chat): an earlier one that answers later is dropped.
  const latestChoice = useRef(0);
  const show = (chat: DemoChat) => {
    rememberChat(chat);
    setFailure(null);
    setChosen(null);
    setDemoChat(chat);
  };
  const openChosen = async (id: string) => {
    const choice = ++latestChoice.current;
    setOpening(id);
    setStarting(false);
    let opened: DemoChat | null = null;
    let failed: string | null = null;
    try {
      opened = await openChat(id);
    } catch (error) {
      failed = errorMessage(error);
    }
    if (latestChoice.current !== choice) return;
    setOpening(null);
    if (opened) show(opened);
    else setFailure(failed ?? "That chat is gone.");
  };
  // The chat on screen stays until the new one exists: a refused request (429) loses nothing.
  const startChat = (runWhere: RunWhere) => {
    const choice = ++latestChoice.current;
    setOpening(null);
    setStarting(true);
    setChosen(runWhere);
    createChat(runWhere).then(
      (created) => {
        if (latestChoice.current !== choice) return;
        setStarting(false);
        show(created);
      },
      (error: unknown) => {
        if (latestChoice.current !== choice) return;
        setStarting(false);
        setChosen(null);
        setFailure(errorMessage(error));
      },
    );
  };
  return (
    <div className="demo">
      {/* One line at any width: the settings open from it. */}
      <header className="demo-header">
        <h1>execute-code-ui</h1>
        <p>{model ? `${model}, with` : "A scripted tutor with"} a real Python sandbox on this machine.</p>
        <button
          type="button"
          className="demo-send"
          disabled={!demoChat}
          onClick={() => startChat(demoChat?.runWhere ?? "server")}
        >
          New chat
        </button>
        <button type="button" className="demo-send" popoverTarget="demo-settings">
          Settings
        </button>
        <div id="demo-settings" className="demo-settings" popover="auto" role="group" aria-label="Settings">
          <label className="demo-switch">
            Colour scheme
            <select value={scheme} onChange={(event) => setScheme(event.target.value as Scheme)}>
              <option value="system">As the system</option>
              <option value="light">Light</option>
              <option value="dark">Dark</option>
            </select>
          </label>
          <label className="demo-switch">
            <input type="checkbox" checked={ask} onChange={(event) => setAsk(event.target.checked)} />
            Ask before running code
          </label>
          <fieldset className="demo-switch demo-run-where">
            <legend>Run code</legend>
            {(
              [
                ["server", "on the server sandbox"],
                ["browser", "in this browser"],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="demo-switch">
                <input
                  type="radio"
                  name="run-where"
                  value={value}
                  checked={(chosen ?? demoChat?.runWhere) === value}
                  onChange={() => startChat(value)}
                />
                {label}
              </label>
            ))}
          </fieldset>
        </div>
      </header>
      <ChatList
        current={demoChat?.id}
        opening={opening}
        refresh={listRefresh}
        onOpen={(id) => {
          setFailure(null);
          void openChosen(id);
        }}
      />
      {/* Seen as the dimmed chat below; heard from here. */}
      <p className="ecu-visually-hidden" role="status">
        {opening ? "Opening the chat…" : starting ? "Starting a new chat…" : ""}
      </p>
      {failure && <p role="alert">{failure}</p>}
      {demoChat ? (
        <Thread key={demoChat.id} demoChat={demoChat} opening={opening !== null || starting} onSettled={onSettled} />
      ) : (
        <p className="demo-hint">Loading the chat…</p>
      )}
    </div>
  );
}
