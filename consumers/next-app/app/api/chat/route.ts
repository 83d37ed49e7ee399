import { convertToModelMessages, stepCountIs, streamText, type UIMessage } from "ai";
import type { StartedSandbox } from "execute-code-ui/sandbox";
import { createExecuteCodeTool, EXECUTE_CODE_SYSTEM_PROMPT } from "execute-code-ui/server";

// The harness's scripted model and the sandbox (which starts Python
// processes from files inside the package): Node loads them as they are, not
// through the bundler.
const harness = () => import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "execute-code-ui/harness");
const sandboxModule = () => import(/* webpackIgnore: true */ /* turbopackIgnore: true */ "execute-code-ui/sandbox");

// The sandbox on a loopback port, started with the first request. In
// production: your sandbox service's URL and signing key instead.
let sandbox: Promise<StartedSandbox> | undefined;

export async function POST(req: Request) {
  const { messages }: { messages: UIMessage[] } = await req.json();
  const [{ createScriptedModel }, { startSandbox }] = await Promise.all([harness(), sandboxModule()]);
  sandbox ??= startSandbox();
  const { url, signing } = await sandbox;
  const tools = {
    execute_code: createExecuteCodeTool({
      sandboxUrl: url,
      signing,
      participantId: "student-42", // from your session
      tenantId: "course-7",
    }),
  };
  const result = streamText({
    model: createScriptedModel(), // your model; this one runs ```python blocks as written
    instructions: EXECUTE_CODE_SYSTEM_PROMPT,
    messages: await convertToModelMessages(messages, { tools }),
    tools,
    stopWhen: stepCountIs(5),
    abortSignal: req.signal,
  });
  return result.toUIMessageStreamResponse();
}
