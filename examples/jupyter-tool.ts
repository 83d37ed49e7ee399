// The tool on Jupyter kernels: a Jupyter server, Kernel Gateway or Enterprise Gateway you run.
import { createExecuteCodeTool, createJupyterSandbox } from "execute-code-ui/server";

// One for the server: it holds no state of a run.
const jupyter = createJupyterSandbox({
  url: process.env.JUPYTER_URL!, // e.g. https://gateway.example.edu/
  token: process.env.JUPYTER_TOKEN!,
});

export const toolsFor = (participantId: string) => ({
  execute_code: createExecuteCodeTool({
    sandbox: jupyter,
    participantId, // from your session
    tenantId: "course-7",
    timeoutMs: 30_000,
  }),
});
