// The tool on Jupyter kernels: a Jupyter server, Kernel Gateway or Enterprise Gateway you run.
import { createExecuteCodeTool, createJupyterSandbox, type ServerToolsContext } from "execute-code-ui/server";

// One for the server: it keeps each chat's kernel between the chat's runs.
const jupyter = createJupyterSandbox({
  url: process.env.JUPYTER_URL!, // e.g. https://gateway.example.edu/
  token: process.env.JUPYTER_TOKEN!,
  kernels: "per-chat", // or "per-run" (the default): a fresh kernel for each run
});

// createChatEndpoints({ …, tools }): each chat's runs share its kernel.
export const tools = ({ participantId, chatId }: ServerToolsContext) => ({
  execute_code: createExecuteCodeTool({
    sandbox: jupyter,
    participantId,
    chatId,
    tenantId: "course-7",
    timeoutMs: 30_000,
  }),
});
