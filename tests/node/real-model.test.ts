// The demo with a real model: the harness reads an OpenAI-compatible endpoint
// from the environment and drives it with the same server tool and sandbox.
// The endpoint here is a local server written for the test, speaking the
// streamed chat-completions protocol with a tool call, as OpenAI, Ollama and
// vLLM do.
import { afterEach, describe, expect, it } from "vitest";
import { modelFromEnv, ModelEnvError, startHarness } from "../../src/harness";
import { startCompletionsServer as startServer } from "./fixtures/completions-server";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startCompletionsServer(program: string) {
  const server = await startServer(program);
  cleanups.push(server.close);
  return server;
}

describe("the demo with a real model from the environment", () => {
  it("streams the model's tool call into the real sandbox and the result back to the model", async () => {
    const endpoint = await startCompletionsServer("print(6 * 7)");
    const real = await modelFromEnv({
      OPENAI_BASE_URL: endpoint.url,
      OPENAI_API_KEY: "sk-test",
      OPENAI_MODEL: "tutor-1",
    });
    expect(real?.name).toBe(`tutor-1 at ${new URL(endpoint.url).host}`);
    const h = await startHarness({ port: 0, database: ":memory:", model: real!.model, modelName: real!.name });
    cleanups.push(h.close);

    const response = await fetch(`${h.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        id: "chat-real",
        trigger: "submit-message",
        messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "What is six times seven?" }] }],
      }),
    });
    expect(response.status).toBe(200);
    const chat = (await response.json()) as {
      status: string;
      messages: Array<{ role: string; parts: Array<Record<string, any>> }>;
    };
    expect(chat.status).toBe("idle");
    const parts = chat.messages.at(-1)!.parts;
    const call = parts.find((part) => part.type === "tool-execute_code")!;
    expect(call.input).toEqual({ code: "print(6 * 7)" });
    expect(call.output).toMatchObject({ status: "completed", stdout: "42\n", exitCode: 0 });
    expect(
      parts
        .filter((part) => part.type === "text")
        .map((part) => part.text)
        .join(""),
    ).toBe("The sandbox said: 42.");

    // What the endpoint was sent: the key, the model, the kit's tool and system prompt, and the run's output.
    const [first, second] = endpoint.requests;
    expect(first?.authorization).toBe("Bearer sk-test");
    expect(first?.body).toMatchObject({ model: "tutor-1", stream: true });
    expect(first?.body.messages[0]).toMatchObject({ role: "system" });
    expect(first?.body.tools?.map((tool) => tool.function.name)).toEqual(["execute_code"]);
    expect(second?.body.messages.at(-1)).toMatchObject({ role: "tool" });
    expect(JSON.stringify(second?.body.messages.at(-1))).toContain("42");

    // The demo page names the model.
    const session = (await (await fetch(`${h.url}/api/session`)).json()) as { model: string | null };
    expect(session.model).toBe(`tutor-1 at ${new URL(endpoint.url).host}`);
  });

  it("is the scripted tutor when the environment names no endpoint, and says what is missing when it names half of one", async () => {
    expect(await modelFromEnv({})).toBeNull();
    await expect(modelFromEnv({ OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" })).rejects.toThrow(ModelEnvError);
    await expect(modelFromEnv({ OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" })).rejects.toThrow("Set OPENAI_MODEL");
    expect((await modelFromEnv({ OPENAI_API_KEY: "sk-x" }))?.name).toBe("gpt-4.1-mini at api.openai.com");
    // What the page is told never carries the endpoint's credentials.
    const named = await modelFromEnv({
      OPENAI_BASE_URL: "http://user:s3cret@10.1.2.3:9/v1?api-key=abc",
      OPENAI_MODEL: "m",
    });
    expect(named?.name).toBe("m at 10.1.2.3:9");
    const h = await startHarness({ port: 0, database: ":memory:" });
    cleanups.push(h.close);
    expect(((await (await fetch(`${h.url}/api/session`)).json()) as { model?: string }).model).toBeUndefined();
  });
});
