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
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
import { useEffect, useRef, useState } from "react";
import { executeCodeToolkit } from "../../assistant-ui/index.js";
import { DEMO_PROMPTS } from "./prompts.js";

const MESSAGES_KEY = "demo-messages";
const config = AuiConfig({ tools: Tools({ toolkit: executeCodeToolkit }) });
const ASK_KEY = "demo-ask-before-running";

function savedMessages(): UIMessage[] {
  try {
    const saved = JSON.parse(localStorage.getItem(MESSAGES_KEY) ?? "[]") as unknown;
    return Array.isArray(saved) ? (saved as UIMessage[]) : [];
  } catch {
    return [];
  }
}

/**
 * The chat, kept in localStorage so that a reload shows the same thread (and
 * a pending approval prompt). Each request says whether to ask before running code.
 */
function useDemoChat(askBeforeRunning: boolean) {
  const ask = useRef(askBeforeRunning);
  ask.current = askBeforeRunning;
  const [transport] = useState(
    () => new DefaultChatTransport({ api: "/api/chat", body: () => ({ confirmCodeExecution: ask.current }) }),
  );
  const chat = useChat({
    id: "demo",
    transport,
    messages: savedMessages(),
    // Answering an approval sends the chat on by itself.
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  useEffect(() => {
    localStorage.setItem(MESSAGES_KEY, JSON.stringify(chat.messages));
  }, [chat.messages]);
  return chat;
}

type Theme = "light" | "dark";

function useTheme(): [Theme, (theme: Theme) => void] {
  const [theme, setTheme] = useState<Theme>(() =>
    localStorage.getItem("demo-theme") === "dark" ? "dark" : "light",
  );
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    localStorage.setItem("demo-theme", theme);
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

export function DemoApp() {
  const [theme, setTheme] = useTheme();
  const [askBeforeRunning, setAskBeforeRunning] = useState(() => localStorage.getItem(ASK_KEY) === "true");
  useEffect(() => localStorage.setItem(ASK_KEY, String(askBeforeRunning)), [askBeforeRunning]);
  const chat = useDemoChat(askBeforeRunning);
  const runtime = useAISDKRuntime(chat);
  return (
    <AssistantRuntimeProvider runtime={runtime} config={config}>
      <div className="demo">
        <header className="demo-header">
          <h1>execute-code-ui</h1>
          <p>A scripted tutor with a real Python sandbox (Pyodide), on this machine.</p>
          <label className="demo-switch">
            <input
              type="checkbox"
              checked={theme === "dark"}
              onChange={(event) => setTheme(event.target.checked ? "dark" : "light")}
            />
            Dark theme
          </label>
          <label className="demo-switch">
            <input
              type="checkbox"
              checked={askBeforeRunning}
              onChange={(event) => setAskBeforeRunning(event.target.checked)}
            />
            Ask before running code
          </label>
          <button type="button" className="demo-send" onClick={() => chat.setMessages([])}>
            New chat
          </button>
        </header>
        <ThreadPrimitive.Root className="demo-thread">
          <ThreadPrimitive.Viewport className="demo-viewport">
            <AuiIf condition={(state) => state.thread.isEmpty}>
              <p className="demo-hint">
                Type a <code>```python</code> block and it runs exactly as written, or pick an example:
              </p>
            </AuiIf>
            <ExamplePrompts />
            <ThreadPrimitive.Messages>{({ message }) => <Message role={message.role} />}</ThreadPrimitive.Messages>
          </ThreadPrimitive.Viewport>
          <ComposerPrimitive.Root className="demo-composer">
            <ComposerPrimitive.Input
              aria-label="Message"
              placeholder={"Ask something, or paste a program:\n```python\nprint(2 ** 100)\n```"}
              submitMode="ctrlEnter"
              rows={4}
            />
            <AuiIf condition={(state) => !state.thread.isRunning}>
              <ComposerPrimitive.Send className="demo-send">Send</ComposerPrimitive.Send>
            </AuiIf>
            <AuiIf condition={(state) => state.thread.isRunning}>
              <ComposerPrimitive.Cancel className="demo-send">Stop</ComposerPrimitive.Cancel>
            </AuiIf>
          </ComposerPrimitive.Root>
        </ThreadPrimitive.Root>
      </div>
    </AssistantRuntimeProvider>
  );
}
