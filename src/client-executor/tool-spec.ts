/**
 * `execute_code` as a tool the chat's client runs itself: what to send when
 * creating a chat (`POST /api/chats` `{ tools: [executeCodeClientTool] }`),
 * so that the model's programs run in the browser instead of a sandbox.
 */
export const executeCodeClientTool = {
  name: "execute_code",
  description:
    "Run a Python 3 program and get back what it printed (stdout and stderr) and its exit code. " +
    "It runs in the student's browser: only the standard library, no network, nothing kept between runs, " +
    "so put everything the program needs in it and print what you want to see.",
  input_schema: {
    type: "object",
    properties: { code: { type: "string", description: "The whole Python program.", maxLength: 20_000 } },
    required: ["code"],
    additionalProperties: false,
  },
} as const;
