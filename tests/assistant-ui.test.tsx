import {
  AssistantRuntimeProvider,
  AuiConfig,
  ComposerPrimitive,
  MessagePrimitive,
  ThreadPrimitive,
  Tools,
  type Toolkit,
} from "@assistant-ui/react";
import { useChatRuntime } from "@assistant-ui/react-ai-sdk";
import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import {
  createUIMessageStream,
  createUIMessageStreamResponse,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
  type UIMessageChunk,
} from "ai";
import { useMemo } from "react";
import { describe, expect, it } from "vitest";
import { MessageParts, toolkit as readmeToolkit, ToolUIs } from "../examples/register-card";
import { executeCodeToolkit, makeExecuteCodeToolUI } from "../src/assistant-ui";
import { shownCode } from "./shown-code";
import { EXECUTE_CODE_CARD } from "../src/testing/selectors";
import { slotSelector } from "../src/view/slots";

/** A chat server stand-in: streams the chunks it is given, pausing wherever the test says. */
function scriptedServer() {
  const steps: Array<{ chunks: UIMessageChunk[]; release: Promise<void>; open: () => void }> = [];
  const step = (...chunks: UIMessageChunk[]) => {
    let open!: () => void;
    const release = new Promise<void>((resolve) => (open = resolve));
    steps.push({ chunks, release, open });
    return { release: () => act(async () => open()) };
  };
  const fetch = async () =>
    createUIMessageStreamResponse({
      stream: createUIMessageStream({
        execute: async ({ writer }) => {
          for (const { chunks, release } of steps) {
            await release;
            for (const chunk of chunks) writer.write(chunk);
          }
        },
      }),
    });
  return { step, fetch };
}

/** How the host registers the card: the three routes the README shows (examples/register-card.tsx). */
type Route = "toolkit" | "parts" | "component";

function Chat({
  fetch,
  route = "toolkit",
  toolkit = executeCodeToolkit,
  children,
}: {
  fetch: typeof globalThis.fetch;
  route?: Route;
  toolkit?: Toolkit;
  children?: React.ReactNode;
}) {
  const runtime = useChatRuntime({
    transport: new DefaultChatTransport({ api: "/api/chat", fetch }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const config = useMemo(
    () => AuiConfig({ tools: Tools({ toolkit: route === "toolkit" ? toolkit : {} }) }),
    [route, toolkit],
  );
  return (
    <AssistantRuntimeProvider runtime={runtime} config={config}>
      {route === "component" && (children ?? <ToolUIs />)}
      <ThreadPrimitive.Root>
        <ThreadPrimitive.Messages>
          {() => (
            <MessagePrimitive.Root>
              {route === "parts" ? <MessageParts /> : <MessagePrimitive.Parts />}
            </MessagePrimitive.Root>
          )}
        </ThreadPrimitive.Messages>
        <ComposerPrimitive.Root>
          <ComposerPrimitive.Input aria-label="Message" />
          <ComposerPrimitive.Send>Send</ComposerPrimitive.Send>
        </ComposerPrimitive.Root>
      </ThreadPrimitive.Root>
    </AssistantRuntimeProvider>
  );
}

const card = () => document.querySelector(EXECUTE_CODE_CARD);

async function send(text: string) {
  const user = userEvent.setup();
  await user.type(screen.getByRole("textbox", { name: "Message" }), text);
  await user.click(screen.getByRole("button", { name: "Send" }));
}

describe.each<Route>(["toolkit", "parts", "component"])(
  "the card in an assistant-ui chat (AI SDK runtime), registered as %s",
  (route) => {
    it("follows a streamed execute_code call from writing to its output", async () => {
      const server = scriptedServer();
      const id = "call-1";
      const code = 'print("hello from the sandbox")';
      const writing = server.step(
        { type: "start" },
        { type: "start-step" },
        { type: "tool-input-start", toolCallId: id, toolName: "execute_code" },
        { type: "tool-input-delta", toolCallId: id, inputTextDelta: '{"code":"print(\\"hello' },
      );
      const ran = server.step(
        { type: "tool-input-delta", toolCallId: id, inputTextDelta: ' from the sandbox\\")"}' },
        { type: "tool-input-available", toolCallId: id, toolName: "execute_code", input: { code } },
      );
      const done = server.step(
        {
          type: "tool-output-available",
          toolCallId: id,
          output: {
            status: "completed",
            stdout: "hello from the sandbox\n",
            stderr: "",
            exitCode: 0,
            signal: null,
            wallTimeMs: 31,
            truncated: { stdout: 0, stderr: 0 },
          },
        },
        { type: "finish-step" },
        { type: "finish" },
      );

      render(<Chat fetch={server.fetch as typeof fetch} route={route} />);
      await send("say hello");

      await writing.release();
      await waitFor(() => expect(card()).toHaveAttribute("data-phase", "writing"));
      expect(card()?.querySelector("code")).toHaveTextContent('print("hello');

      await ran.release();
      await waitFor(() => expect(card()).toHaveAttribute("data-phase", "running"));
      expect(shownCode(card()!)).toBe(code);

      await done.release();
      await waitFor(() => expect(card()).toHaveAttribute("data-phase", "succeeded"));
      expect(screen.getByRole("group", { name: "Output" })).toHaveTextContent("hello from the sandbox");
      expect(document.querySelector(slotSelector("exit"))).toHaveAttribute("data-exit-code", "0");
    });

    it("shows a tool error that the server reports", async () => {
      const server = scriptedServer();
      const id = "call-2";
      const all = server.step(
        { type: "start" },
        { type: "tool-input-available", toolCallId: id, toolName: "execute_code", input: { code: "1/0" } },
        { type: "tool-output-error", toolCallId: id, errorText: "The sandbox did not answer." },
        { type: "finish" },
      );
      render(<Chat fetch={server.fetch as typeof fetch} route={route} />);
      await send("divide");
      await all.release();
      await waitFor(() => expect(card()).toHaveAttribute("data-phase", "error"));
      expect(document.querySelector(slotSelector("message"))).toHaveTextContent("The sandbox did not answer.");
    });
  },
);

describe("the card's other options in an assistant-ui chat", () => {
  /** One finished call of the tool renamed `python`. */
  function pythonCall() {
    const server = scriptedServer();
    const all = server.step(
      { type: "start" },
      { type: "tool-input-available", toolCallId: "c", toolName: "python", input: { code: "print(2)" } },
      { type: "tool-output-available", toolCallId: "c", output: { stdout: "2\n", stderr: "", exitCode: 0 } },
      { type: "finish" },
    );
    return { fetch: server.fetch as typeof fetch, all };
  }

  it("renders a renamed tool with the README's toolkit: German labels, dark, the host's class", async () => {
    const { fetch, all } = pythonCall();
    render(<Chat fetch={fetch} toolkit={readmeToolkit} />);
    await send("two");
    await all.release();
    await waitFor(() => expect(card()).toHaveAttribute("data-phase", "succeeded"));
    expect(screen.getByRole("status")).toHaveTextContent("Fertig");
    expect(screen.getByRole("group", { name: "Ausgabe" })).toHaveTextContent("2");
    expect(card()).toHaveAttribute("data-theme", "dark");
    expect(card()).toHaveClass("my-card");
  });

  it("renders a renamed tool with the options its component was made with", async () => {
    const PythonToolUI = makeExecuteCodeToolUI({ toolName: "python", labels: { stdout: "Sandbox output" } });
    const { fetch, all } = pythonCall();
    render(
      <Chat fetch={fetch} route="component">
        <PythonToolUI />
      </Chat>,
    );
    await send("two");
    await all.release();
    await waitFor(() => expect(card()).toHaveAttribute("data-phase", "succeeded"));
    expect(screen.getByRole("group", { name: "Sandbox output" })).toHaveTextContent("2");
  });
});

describe("approval through the toolkit renderer", () => {
  /** Answers each request with the next list of chunks and keeps the request bodies. */
  function replies(...answers: UIMessageChunk[][]) {
    const bodies: Array<{ messages: UIMessage[] }> = [];
    const fetch = async (_url: RequestInfo | URL, init?: RequestInit) => {
      bodies.push(JSON.parse(String(init?.body)));
      const chunks = answers.shift() ?? [];
      return createUIMessageStreamResponse({
        stream: createUIMessageStream({
          execute: ({ writer }) => {
            for (const chunk of chunks) writer.write(chunk);
          },
        }),
      });
    };
    return { fetch, bodies };
  }

  it("Run sends the approval back and the chat goes on to the output", async () => {
    const id = "call-a";
    const server = replies(
      [
        { type: "start" },
        { type: "tool-input-available", toolCallId: id, toolName: "execute_code", input: { code: "print(6*7)" } },
        { type: "tool-approval-request", approvalId: "approval-1", toolCallId: id },
        { type: "finish" },
      ],
      [
        { type: "start" },
        { type: "tool-output-available", toolCallId: id, output: { stdout: "42\n", stderr: "", exitCode: 0 } },
        { type: "finish" },
      ],
    );
    render(<Chat fetch={server.fetch as typeof fetch} />);
    await send("six times seven");
    await waitFor(() => expect(card()).toHaveAttribute("data-phase", "awaiting-approval"));
    expect(server.bodies).toHaveLength(1);

    await userEvent.setup().click(screen.getByRole("button", { name: "Run" }));
    await waitFor(() => expect(card()).toHaveAttribute("data-phase", "succeeded"));
    expect(server.bodies).toHaveLength(2);
    const parts = server.bodies[1]!.messages.at(-1)!.parts;
    expect(parts).toContainEqual(
      expect.objectContaining({
        toolCallId: id,
        state: "approval-responded",
        approval: expect.objectContaining({ approved: true }),
      }),
    );
    expect(screen.getByRole("group", { name: "Output" })).toHaveTextContent("42");
  });
});
