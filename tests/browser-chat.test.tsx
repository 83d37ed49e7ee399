// The guide's page whose execute_code calls the browser runs: examples/browser-chat.tsx,
// against a stand-in chat server. Pyodide needs a real browser's Web Worker (jsdom has
// none), so a stand-in executor runs the programs here; the real one runs in Chromium
// in the harness demo's end-to-end test (e2e/client-tools.spec.ts).
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createUIMessageStream, createUIMessageStreamResponse, type UIMessage, type UIMessageChunk } from "ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BrowserTutorChat } from "../examples/browser-chat";
import type { ExecuteCodeResult } from "../src/contract";
import { EXECUTE_CODE_CARD } from "../src/testing/selectors";

const executor = vi.hoisted(() => ({ run: vi.fn(), preload: vi.fn(), close: vi.fn() }));
vi.mock("execute-code-ui/client-executor", async (importOriginal) => ({
  ...(await importOriginal<typeof import("execute-code-ui/client-executor")>()),
  createPyodideWorkerExecutor: () => executor,
}));

const ran: ExecuteCodeResult = {
  status: "completed",
  stdout: "42\n",
  stderr: "",
  exitCode: 0,
  signal: null,
  wallTimeMs: 3,
  truncated: { stdout: 0, stderr: 0 },
};

const stream = (...chunks: UIMessageChunk[]) =>
  createUIMessageStreamResponse({
    stream: createUIMessageStream({
      execute: ({ writer }) => {
        for (const chunk of chunks) writer.write(chunk);
      },
    }),
  });

/** The server's chat endpoints, as far as the page uses them: it keeps what the page sent. */
function chatServer() {
  const created: unknown[] = [];
  const turns: Array<{ id: string; messages: UIMessage[] }> = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body));
    if (String(input) === "/api/chats") {
      created.push(body);
      return Response.json({ id: "chat_1", status: "idle", messages: [] }, { status: 201 });
    }
    turns.push(body);
    // First the model's call of execute_code, which the chat awaits from the page; then the answer to its result.
    return turns.length === 1
      ? stream(
          { type: "start" },
          { type: "start-step" },
          {
            type: "tool-input-available",
            toolCallId: "call_1",
            toolName: "execute_code",
            input: { code: "print(6 * 7)" },
          },
          { type: "finish-step" },
          { type: "finish" },
        )
      : stream(
          { type: "start" },
          { type: "start-step" },
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: "The program printed 42." },
          { type: "text-end", id: "t" },
          { type: "finish-step" },
          { type: "finish" },
        );
  });
  return { fetch, created, turns };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe("a chat whose programs the browser runs (examples/browser-chat.tsx)", () => {
  it("creates the chat with execute_code as its own tool, runs the model's program, and the chat goes on with the result", async () => {
    const server = chatServer();
    vi.stubGlobal("fetch", server.fetch);
    executor.run.mockResolvedValue(ran);
    render(<BrowserTutorChat />);

    const user = userEvent.setup();
    await user.type(await screen.findByRole("textbox", { name: "Message" }), "What is 6 times 7?");
    await user.click(screen.getByRole("button", { name: "Send" }));

    expect(await screen.findByText("The program printed 42.")).toBeVisible();
    expect(screen.getByRole("group", { name: "Output" })).toHaveTextContent("42");
    expect(document.querySelector(EXECUTE_CODE_CARD)).toHaveAttribute("data-phase", "succeeded");

    expect(server.created).toEqual([{ tools: [expect.objectContaining({ name: "execute_code" })] }]);
    expect(executor.preload).toHaveBeenCalled();
    expect(executor.run).toHaveBeenCalledTimes(1);
    expect(executor.run).toHaveBeenCalledWith("print(6 * 7)", expect.anything());
    // Both turns belong to the chat the page created; the second carries the page's result.
    await waitFor(() => expect(server.turns).toHaveLength(2));
    expect(server.turns.map((turn) => turn.id)).toEqual(["chat_1", "chat_1"]);
    expect(server.turns[1]!.messages.at(-1)!.parts).toContainEqual(
      expect.objectContaining({
        type: "tool-execute_code",
        toolCallId: "call_1",
        state: "output-available",
        output: ran,
      }),
    );
  });
});
