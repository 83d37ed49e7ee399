import { AuiConfig, Tools } from "@assistant-ui/react";
import { executeCodeToolkit } from "@/components/assistant-ui/execute-code";

// The tool UI that `npx shadcn add …/execute-code.json` put into components/assistant-ui,
// for <AssistantRuntimeProvider runtime={runtime} config={config}> as in TutorChat.
export const config = AuiConfig({ tools: Tools({ toolkit: executeCodeToolkit }) });
