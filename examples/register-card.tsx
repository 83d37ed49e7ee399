import { MessagePrimitive } from "@assistant-ui/react";
import { ExecuteCodeToolRender, ExecuteCodeToolUI, makeExecuteCodeToolkit } from "execute-code-ui/assistant-ui";
import { germanLabels } from "execute-code-ui/locales/de";

// A renamed tool or other labels: make your own toolkit, once.
export const toolkit = makeExecuteCodeToolkit({
  toolName: "python", // default "execute_code"
  labels: germanLabels, // or a partial set: { title: "Sandbox" }
  theme: "dark", // default: follow a `.dark` / [data-theme="dark"] ancestor
  className: "my-card",
  execution: "server", // "client" when the browser runs the code and adds the result
});

// Per message, without a toolkit: a MessagePrimitive.Parts override.
export const MessageParts = () => (
  <MessagePrimitive.Parts components={{ tools: { by_name: { execute_code: ExecuteCodeToolRender } } }} />
);

// The component route of earlier assistant-ui versions still works in 0.15:
// mount it once under AssistantRuntimeProvider.
export const ToolUIs = () => <ExecuteCodeToolUI />;
