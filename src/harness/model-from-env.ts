import type { LanguageModel } from "ai";

/** The environment a real model is read from: an OpenAI-compatible endpoint (OpenAI, a local Ollama or vLLM). */
export interface ModelEnv {
  /** `https://api.openai.com/v1` (the default), `http://127.0.0.1:11434/v1` for Ollama, `http://127.0.0.1:8000/v1` for vLLM. */
  OPENAI_BASE_URL?: string;
  OPENAI_API_KEY?: string;
  /**
   * The model's name at that endpoint.
   * @default `gpt-4.1-mini` at OpenAI; required elsewhere
   */
  OPENAI_MODEL?: string;
}

const OPENAI = "https://api.openai.com/v1";

/** Why the environment names no usable model. */
export class ModelEnvError extends Error {}

/**
 * A real model when the environment names one (an API key, or a base URL
 * with a model name), through the AI SDK's OpenAI-compatible provider (an
 * optional peer: `npm install @ai-sdk/openai-compatible`); null otherwise,
 * for the scripted model. Streamed chat completions with tool calls are all
 * it needs of the endpoint.
 */
export async function modelFromEnv(
  env: ModelEnv = process.env,
): Promise<{ model: LanguageModel; name: string } | null> {
  const baseURL = env.OPENAI_BASE_URL?.trim() || undefined;
  const apiKey = env.OPENAI_API_KEY?.trim() || undefined;
  if (!baseURL && !apiKey) return null;
  const atOpenAI = !baseURL || new URL(baseURL).origin === new URL(OPENAI).origin;
  const modelId = env.OPENAI_MODEL?.trim() || (atOpenAI ? "gpt-4.1-mini" : undefined);
  if (!modelId) throw new ModelEnvError(`Set OPENAI_MODEL to the name of a model served at ${baseURL}.`);
  if (atOpenAI && !apiKey) throw new ModelEnvError("Set OPENAI_API_KEY to use OpenAI's models.");
  let provider: typeof import("@ai-sdk/openai-compatible");
  try {
    provider = await import("@ai-sdk/openai-compatible");
  } catch {
    throw new ModelEnvError(
      "A real model needs the AI SDK's OpenAI-compatible provider: npm install @ai-sdk/openai-compatible",
    );
  }
  const openai = provider.createOpenAICompatible({ name: "openai-compatible", baseURL: baseURL ?? OPENAI, apiKey });
  // The name is shown to every visitor of the demo: the endpoint's host only, never its credentials, path or query.
  return { model: openai.chatModel(modelId), name: `${modelId} at ${new URL(baseURL ?? OPENAI).host}` };
}
