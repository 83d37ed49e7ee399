import {
  AssistantRuntimeProvider,
  AuiConfig,
  AuiIf,
  ComposerPrimitive,
  MessagePrimitive,
  ThreadPrimitive,
  Tools,
  useAui,
} from "@assistant-ui/react";
import { useChat } from "@ai-sdk/react";
import { useAISDKRuntime } from "@assistant-ui/react-ai-sdk";
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
  type UIMessage,
} from "ai";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { executeCodeToolkit, makeExecuteCodeToolkit } from "../../assistant-ui/index.js";
import {
  createPyodideWorkerExecutor,
  executeCodeClientTool,
  type ClientExecutor,
} from "../../client-executor/index.js";
import { DEMO_PROMPTS } from "./prompts.js";

type RunWhere = "server" | "browser";

const CHAT_KEY = "demo-chat";
const MID_RUN = new Set(["running", "pending"]);
const ASK_KEY = "demo-ask-before-running";
const THEME_KEY = "demo-theme";

// Read when a browser-run call arrives: the same switch gates both kinds of chat.
const askBeforeRunning = { current: localStorage.getItem(ASK_KEY) === "true" };

// Python in this page, in a Web Worker, loaded once a chat runs code in the browser.
let executor: ClientExecutor | null = null;
const pageExecutor = () => (executor ??= createPyodideWorkerExecutor());
const browserExecutor = {
  run: (code: string, options?: Parameters<ClientExecutor["run"]>[1]) => pageExecutor().run(code, options),
  get timeoutMs() {
    return pageExecutor().timeoutMs;
  },
};

const configs: Record<RunWhere, AuiConfig> = {
  server: AuiConfig({ tools: Tools({ toolkit: executeCodeToolkit }) }),
  browser: AuiConfig({
    tools: Tools({
      toolkit: makeExecuteCodeToolkit({
        execution: "client",
        executor: browserExecutor,
        askBeforeRunning: () => askBeforeRunning.current,
        labels: { approvalQuestion: "Run this Python program in this browser?" },
      }),
    }),
  }),
};

interface DemoChat {
  id: string;
  runWhere: RunWhere;
  messages: UIMessage[];
  /** A run of it is going on (started before this page loaded): the page follows it. */
  midRun: boolean;
}

/** What the server said in a refusal's JSON body (`{ error, message }`), if anything. */
function refusalMessage(body: unknown): string | null {
  const message = (body as { message?: unknown } | null)?.message;
  return typeof message === "string" ? message : null;
}

async function api<T>(path: string, init?: RequestInit): Promise<{ status: number; body: T }> {
  const response = await fetch(path, {
    ...init,
    headers: { "content-type": "application/json", ...init?.headers },
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as T };
}

/** A new chat on the server: in browser mode, with execute_code as a tool this page runs. */
async function createChat(runWhere: RunWhere): Promise<DemoChat> {
  const { status, body } = await api<{ id: string }>("/api/chats", {
    method: "POST",
    body: JSON.stringify({
      tools: runWhere === "browser" ? [executeCodeClientTool] : [],
      confirmCodeExecution: askBeforeRunning.current,
    }),
  });
  if (status !== 201) {
    const said = refusalMessage(body);
    throw new Error(`The chat could not be created (${status}${said === null ? "" : `: ${said}`}).`);
  }
  localStorage.setItem(CHAT_KEY, JSON.stringify({ id: body.id, runWhere }));
  return { id: body.id, runWhere, messages: [], midRun: false };
}

/** A stored chat as the server keeps it (null when there is none), run in this browser when the page runs its execute_code. */
async function openChat(id: string): Promise<DemoChat | null> {
  const { status, body } = await api<{ status: string; messages: UIMessage[]; tools: Array<{ name: string }> }>(
    `/api/chats/${encodeURIComponent(id)}`,
  );
  if (status !== 200) return null;
  const runWhere: RunWhere = body.tools.some((tool) => tool.name === "execute_code") ? "browser" : "server";
  localStorage.setItem(CHAT_KEY, JSON.stringify({ id, runWhere }));
  return { id, runWhere, messages: body.messages, midRun: MID_RUN.has(body.status) };
}

/** The chat this browser had, as the server keeps it; a new one when there is none. */
async function restoreChat(): Promise<DemoChat> {
  try {
    const saved = JSON.parse(localStorage.getItem(CHAT_KEY) ?? "null") as { id?: string } | null;
    const chat = saved?.id ? await openChat(saved.id) : null;
    if (chat) return chat;
  } catch {
    // Start afresh.
  }
  return createChat("server");
}

interface ListedChat {
  id: string;
  title: string | null;
}

/** This browser's earlier chats, from the server's list (`GET /api/chats`); read again whenever `refresh` changes. */
function ChatList({
  current,
  refresh,
  onOpen,
}: {
  current: string | undefined;
  refresh: unknown;
  onOpen: (id: string) => void;
}) {
  const [chats, setChats] = useState<ListedChat[]>([]);
  useEffect(() => {
    let live = true;
    void api<{ chats: ListedChat[] }>("/api/chats").then(({ status, body }) => {
      if (live && status === 200) setChats(body.chats);
    });
    return () => {
      live = false;
    };
  }, [current, refresh]);
  if (chats.length < 2) return null;
  return (
    <details className="demo-chats">
      <summary>Your chats ({chats.length})</summary>
      <nav aria-label="Chats">
        <ul>
          {chats.map((chat) => (
            <li key={chat.id}>
              <button
                type="button"
                aria-current={chat.id === current ? "true" : undefined}
                onClick={() => onOpen(chat.id)}
              >
                {chat.title ?? "New chat"}
              </button>
            </li>
          ))}
        </ul>
      </nav>
    </details>
  );
}

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
function useDemoChat(demoChat: DemoChat) {
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
  }, [demoChat.id, chat.stop]);

  return { chat: { ...chat, stop }, refusal };
}

type Theme = "light" | "dark";

function useTheme(): [Theme, (theme: Theme) => void] {
  const [theme, setTheme] = useState<Theme>(() => (localStorage.getItem(THEME_KEY) === "dark" ? "dark" : "light"));
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    localStorage.setItem(THEME_KEY, theme);
  }, [theme]);
  return [theme, setTheme];
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
      <MessagePrimitive.Parts />
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

function Thread({ demoChat, onSettled }: { demoChat: DemoChat; onSettled: () => void }) {
  const { chat, refusal } = useDemoChat(demoChat);
  const runtime = useAISDKRuntime(chat);
  // The list names a chat after its first message: read it again once a run has ended.
  const settled = chat.status === "ready" || chat.status === "error";
  useEffect(() => {
    if (settled) onSettled();
  }, [settled, onSettled]);
  return (
    <AssistantRuntimeProvider runtime={runtime} config={configs[demoChat.runWhere]}>
      <ThreadPrimitive.Root className="demo-thread" data-chat-id={demoChat.id} data-run-where={demoChat.runWhere}>
        {/* A log: what is added (the assistant's replies) is read out politely. */}
        <ThreadPrimitive.Viewport className="demo-viewport" role="log" aria-label="Conversation">
          <AuiIf condition={(state) => state.thread.isEmpty}>
            <p className="demo-hint">
              Type a <code>```python</code> block and it runs exactly as written, or pick an example:
            </p>
          </AuiIf>
          <ExamplePrompts />
          <ThreadPrimitive.Messages>{({ message }) => <Message role={message.role} />}</ThreadPrimitive.Messages>
          {refusal && <ChatError message={refusal} />}
          {/* Shown only while the reader is above the end; the thread follows new output once they are back there. */}
          <ThreadPrimitive.ScrollToBottom className="demo-send demo-jump">
            Jump to latest ↓
          </ThreadPrimitive.ScrollToBottom>
        </ThreadPrimitive.Viewport>
        <ComposerPrimitive.Root className="demo-composer">
          <ComposerPrimitive.Input
            aria-label="Message"
            aria-describedby="demo-composer-hint"
            placeholder={"Ask something, or paste a program:\n```python\nprint(2 ** 100)\n```"}
            submitMode="enter"
            rows={4}
          />
          <p id="demo-composer-hint" className="demo-composer-hint">
            Enter sends · Shift+Enter adds a line
          </p>
          <AuiIf condition={(state) => !state.thread.isRunning}>
            <ComposerPrimitive.Send className="demo-send">Send</ComposerPrimitive.Send>
          </AuiIf>
          <AuiIf condition={(state) => state.thread.isRunning}>
            <ComposerPrimitive.Cancel className="demo-send">Stop</ComposerPrimitive.Cancel>
          </AuiIf>
        </ComposerPrimitive.Root>
      </ThreadPrimitive.Root>
    </AssistantRuntimeProvider>
  );
}

export function DemoApp() {
  const [theme, setTheme] = useTheme();
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
    restoreChat().then(setDemoChat, (error: unknown) => setFailure(String(error)));
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
        setFailure(error instanceof Error ? error.message : String(error));
      },
    );
  };
  return (
    <div className="demo">
      <header className="demo-header">
        <h1>execute-code-ui</h1>
        <p>{model ? `${model}, with` : "A scripted tutor with"} a real Python sandbox on this machine.</p>
        <label className="demo-switch">
          <input
            type="checkbox"
            checked={theme === "dark"}
            onChange={(event) => setTheme(event.target.checked ? "dark" : "light")}
          />
          Dark theme
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
        <button
          type="button"
          className="demo-send"
          disabled={!demoChat}
          onClick={() => startChat(demoChat?.runWhere ?? "server")}
        >
          New chat
        </button>
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
