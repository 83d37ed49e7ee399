// The tool on Jupyter kernels: a Jupyter server, Kernel Gateway or Enterprise Gateway you run.
import {
  createExecuteCodeTool,
  createJupyterSandbox,
  createRunFileRoute,
  createUploadRoute,
  type ServerToolsContext,
} from "execute-code-ui/server";

const tenantId = "course-7";

// One for the server: it keeps each chat's kernel between the chat's runs.
export const jupyter = createJupyterSandbox({
  url: process.env.JUPYTER_URL!, // e.g. https://gateway.example.edu/
  token: process.env.JUPYTER_TOKEN!,
  kernels: "per-chat", // or "per-run" (the default): a fresh kernel for each run
});

// The students' uploads and the runs' figures and files are held by the sandbox, for their owners.
export const studentFiles = jupyter.studentFiles(tenantId); // createChatEndpoints({ attachments: studentFiles })
export const uploads = createUploadRoute({ sandboxFiles: studentFiles });
export const files = createRunFileRoute({ sandbox: jupyter, tenantId });

// createChatEndpoints({ …, tools }): each chat's runs share its kernel, and get the student's files.
export const tools = ({ participantId, chatId, files }: ServerToolsContext) => ({
  execute_code: createExecuteCodeTool({
    sandbox: jupyter,
    participantId,
    chatId,
    files,
    tenantId,
    timeoutMs: 30_000,
  }),
});
