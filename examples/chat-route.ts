// app/api/chat/route.ts in a Next.js app; any server with Web Requests works the same.
import { convertToModelMessages, stepCountIs, streamText } from "ai";
import { createExecuteCodeTool, EXECUTE_CODE_SYSTEM_PROMPT } from "execute-code-ui/server";
import { coursePrompt, recordUsage, yourModel } from "./your-app"; // yours: your model, prompt and usage store

export async function POST(req: Request) {
  const { messages } = await req.json();
  const tools = {
    execute_code: createExecuteCodeTool({
      sandboxUrl: process.env.SANDBOX_URL!,
      signing: {
        privateKey: process.env.SANDBOX_SIGNING_KEY!, // PKCS#8 PEM, or a JWK / KeyObject
        algorithm: "EdDSA",
        issuer: "my-tutor",
        audience: "sandbox",
      },
      participantId: "student-42", // from your session
      tenantId: "course-7",
      chatbotId: "python-101",
      onCost: (cost) => recordUsage(cost),
      log: (event) => console.log(event), // no code unless logCode: true
    }),
  };
  const result = streamText({
    model: yourModel,
    instructions: `${coursePrompt}\n\n${EXECUTE_CODE_SYSTEM_PROMPT}`,
    messages: await convertToModelMessages(messages, { tools }),
    tools,
    stopWhen: stepCountIs(5),
  });
  return result.toUIMessageStreamResponse({
    onError: (error) => (error instanceof Error ? error.message : String(error)),
  });
}
