import {
  AssistantRuntimeProvider,
  AuiIf,
  ComposerPrimitive,
  MessagePrimitive,
  ThreadPrimitive,
  useAui,
  useAuiState,
} from "@assistant-ui/react";
import { useAISDKRuntime } from "@assistant-ui/react-ai-sdk";
import {
  createExecuteCodeAttachmentAdapter,
  ExecuteCodeComposerAttachments,
  ExecuteCodeMessageAttachments,
} from "../../assistant-ui/index.js";
import { STUDENT_FILE_EXTENSIONS } from "../../contract/file-name.js";
import { type MouseEvent, useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { ChatList } from "./chat-list.js";
import {
  api,
  ASK_KEY,
  askBeforeRunning,
  createChat,
  openChat,
  restoreChat,
  type DemoChat,
  type RunWhere,
} from "./demo-chats.js";
import { DEMO_PROMPTS } from "./prompts.js";
import { useFollowNewest } from "./follow-newest.js";
import { configs, pageRuns } from "./run-where.js";
import { useDemoChat } from "./use-demo-chat.js";
import { errorMessage } from "../../contract/error-message.js";
import { executeCodePart } from "../../testing/selectors.js";

// The student's pick of colour scheme; none: the system's. (The old key held "light" for everyone.)
const SCHEME_KEY = "demo-color-scheme";
localStorage.removeItem("demo-theme");
const FILE_KINDS = STUDENT_FILE_EXTENSIONS.join(", ");
const PHONE = window.matchMedia("(max-width: 640px)");

/** Whether the page is phone-sized now; follows rotations and resizes. */
function usePhone(): boolean {
  return useSyncExternalStore(
    (changed) => {
      PHONE.addEventListener("change", changed);
      return () => PHONE.removeEventListener("change", changed);
    },
    () => PHONE.matches,
  );
}

type Scheme = "system" | "light" | "dark";

/**
 * The page's colour scheme: the system's (`prefers-color-scheme`, in the
 * page's CSS and the card's) until the student picks one, which stays. A
 * pick sets `data-theme` on the page, which the card follows too.
 */
function useScheme(): [Scheme, (scheme: Scheme) => void] {
  const [scheme, setScheme] = useState<Scheme>(() => {
    const saved = localStorage.getItem(SCHEME_KEY);
    return saved === "light" || saved === "dark" ? saved : "system";
  });
  useEffect(() => {
    if (scheme === "system") {
      delete document.documentElement.dataset.theme;
      localStorage.removeItem(SCHEME_KEY);
    } else {
      document.documentElement.dataset.theme = scheme;
      localStorage.setItem(SCHEME_KEY, scheme);
    }
  }, [scheme]);
  return [scheme, setScheme];
}

function ExamplePrompts() {
  const aui = useAui();
  return (
    <ul className="demo-examples" aria-label="Example prompts">
      {DEMO_PROMPTS.map((prompt) => (
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
      <MessagePrimitive.Parts unstable_showEmptyOnNonTextEnd={false} />
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

/** Files go only to the server's sandbox; a chat whose code runs here says so on the chip. */
const attachmentsFor: Record<RunWhere, ReturnType<typeof createExecuteCodeAttachmentAdapter>> = {
  server: createExecuteCodeAttachmentAdapter(),
  browser: createExecuteCodeAttachmentAdapter({
    unavailable:
      "Files need the server sandbox: this chat runs code in your browser. Start a server chat to attach files.",
  }),
};

/** Stop for a program this page runs: it presses the Stop of each card that runs one, as the student could. */
function stopPageRuns(event: MouseEvent<HTMLButtonElement>) {
  const thread = event.currentTarget.closest(".demo-thread");
  for (const stop of thread?.querySelectorAll<HTMLButtonElement>(`button${executeCodePart("stop")}`) ?? [])
    stop.click();
}

/**
 * The composer: the message, the student's files (button or drop), and Send,
 * held while a file is on its way or cannot go; Stop instead while the model
 * answers or a program runs in this page.
 */
function Composer({ phone, runWhere }: { phone: boolean; runWhere: RunWhere }) {
  const filesNotReady = useAuiState((state) =>
    state.composer.attachments.some((attachment) => attachment.status.type !== "requires-action"),
  );
  const threadRunning = useAuiState((state) => state.thread.isRunning);
  const runningHere = useSyncExternalStore(pageRuns.subscribe, pageRuns.count) > 0;
  return (
    <ComposerPrimitive.AttachmentDropzone className="demo-dropzone">
      <ComposerPrimitive.Root className="demo-composer">
        <ExecuteCodeComposerAttachments className="demo-attachments" />
        <ComposerPrimitive.Input
          aria-label="Message"
          aria-describedby="demo-composer-hint"
          // One line, as empty and after a send; it grows with the message up to a cap, so the thread keeps the screen.
          placeholder={phone ? "Ask, or paste code" : "Ask something, or paste a ```python block"}
          submitMode="enter"
          minRows={1}
          maxRows={phone ? 6 : 12}
        />
        <p id="demo-composer-hint" className="demo-composer-hint">
          Enter sends · Shift+Enter adds a line
        </p>
        <p id="demo-files-hint" className="demo-composer-hint">
          {runWhere === "server"
            ? `Attach ${FILE_KINDS} files (or drop them here): up to 10 MB each, 5 a message, 20 MB a chat.`
            : "Files need the server sandbox: this chat runs code in your browser."}
        </p>
        <ComposerPrimitive.AddAttachment
          multiple
          className="demo-send demo-attach"
          disabled={runWhere !== "server"}
          aria-describedby="demo-files-hint"
          // On a phone the word is shorter, so the message keeps one line.
          aria-label={phone ? "Attach files" : undefined}
        >
          {phone ? "Attach" : "Attach files"}
        </ComposerPrimitive.AddAttachment>
        {threadRunning ? (
          <ComposerPrimitive.Cancel className="demo-send">Stop</ComposerPrimitive.Cancel>
        ) : runningHere ? (
          <button type="button" className="demo-send" onClick={stopPageRuns}>
            Stop
          </button>
        ) : (
          <ComposerPrimitive.Send className="demo-send" disabled={filesNotReady}>
            Send
          </ComposerPrimitive.Send>
        )}
      </ComposerPrimitive.Root>
    </ComposerPrimitive.AttachmentDropzone>
  );
}

function Thread({ demoChat, onSettled }: { demoChat: DemoChat; onSettled: () => void }) {
  const { chat, refusal } = useDemoChat(demoChat);
  const phone = usePhone();
  const runtime = useAISDKRuntime(chat, { adapters: { attachments: attachmentsFor[demoChat.runWhere] } });
  const viewport = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  useFollowNewest(viewport, content);
  // The list names a chat after its first message: read it again once a run has ended.
  const settled = chat.status === "ready" || chat.status === "error";
  useEffect(() => {
    if (settled) onSettled();
  }, [settled, onSettled]);
  return (
    <AssistantRuntimeProvider runtime={runtime} config={configs[demoChat.runWhere]}>
      <ThreadPrimitive.Root className="demo-thread" data-chat-id={demoChat.id} data-run-where={demoChat.runWhere}>
        {/* A log: what is added (the assistant's replies) is read out politely. */}
        {/* The thread follows new output itself (useFollowNewest), never past the newest card's top. */}
        <ThreadPrimitive.Viewport
          ref={viewport}
          className="demo-viewport"
          role="log"
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
              <ExamplePrompts />
            </AuiIf>
            <ThreadPrimitive.Messages>{({ message }) => <Message role={message.role} />}</ThreadPrimitive.Messages>
            {refusal && <ChatError message={refusal} />}
          </div>
          {/* Shown only while the reader is above the end; the thread follows new output once they are back there. */}
          <ThreadPrimitive.ScrollToBottom className="demo-send demo-jump">
            Jump to latest ↓
          </ThreadPrimitive.ScrollToBottom>
        </ThreadPrimitive.Viewport>
        <Composer phone={phone} runWhere={demoChat.runWhere} />
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
  const openChosen = async (id: string) => {
    const opened = await openChat(id);
    if (!opened) {
      setFailure("That chat is gone.");
      return;
    }
    setFailure(null);
    setChosen(null);
    setDemoChat(opened);
  };
  // The chat on screen stays until the new one exists: a refused request (429) loses nothing.
  const startChat = (runWhere: RunWhere) => {
    setChosen(runWhere);
    createChat(runWhere).then(
      (created) => {
        setFailure(null);
        setDemoChat(created);
      },
      (error: unknown) => {
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
      <ChatList current={demoChat?.id} refresh={listRefresh} onOpen={(id) => void openChosen(id)} />
      {failure && <p role="alert">{failure}</p>}
      {demoChat ? (
        <Thread key={demoChat.id} demoChat={demoChat} onSettled={onSettled} />
      ) : (
        <p className="demo-hint">Loading the chat…</p>
      )}
    </div>
  );
}
