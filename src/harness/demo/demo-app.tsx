import {
  AssistantRuntimeProvider,
  ComposerPrimitive,
  MessagePrimitive,
  ThreadPrimitive,
  useThreadRuntime,
} from "@assistant-ui/react";
import { useChatRuntime } from "@assistant-ui/react-ai-sdk";
import { useEffect, useState } from "react";
import { ExecuteCodeToolUI } from "../../index";
import { DEMO_PROMPTS } from "./prompts";

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
  const thread = useThreadRuntime();
  return (
    <ul className="demo-examples" aria-label="Example prompts">
      {DEMO_PROMPTS.map((prompt) => (
        <li key={prompt}>
          <button
            type="button"
            onClick={() => thread.append({ role: "user", content: [{ type: "text", text: prompt }] })}
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
  const runtime = useChatRuntime();
  return (
    <AssistantRuntimeProvider runtime={runtime}>
      <ExecuteCodeToolUI />
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
        </header>
        <ThreadPrimitive.Root className="demo-thread">
          <ThreadPrimitive.Viewport className="demo-viewport">
            <ThreadPrimitive.Empty>
              <p className="demo-hint">
                Type a <code>```python</code> block and it runs exactly as written, or pick an example:
              </p>
            </ThreadPrimitive.Empty>
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
            <ThreadPrimitive.If running={false}>
              <ComposerPrimitive.Send className="demo-send">Send</ComposerPrimitive.Send>
            </ThreadPrimitive.If>
            <ThreadPrimitive.If running>
              <ComposerPrimitive.Cancel className="demo-send">Stop</ComposerPrimitive.Cancel>
            </ThreadPrimitive.If>
          </ComposerPrimitive.Root>
        </ThreadPrimitive.Root>
      </div>
    </AssistantRuntimeProvider>
  );
}
