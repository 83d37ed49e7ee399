"use client";

import {
  AssistantRuntimeProvider,
  AuiConfig,
  ComposerPrimitive,
  MessagePrimitive,
  ThreadPrimitive,
  Tools,
} from "@assistant-ui/react";
import { useChatRuntime } from "@assistant-ui/react-ai-sdk";
import { lastAssistantMessageIsCompleteWithApprovalResponses } from "ai";
import { preloadHighlighter } from "execute-code-ui";
import { executeCodeToolkit } from "execute-code-ui/assistant-ui";
import "execute-code-ui/styles.css";
import { useEffect } from "react";

// Renders every `execute_code` call as the card. Made once, outside the component.
const config = AuiConfig({ tools: Tools({ toolkit: executeCodeToolkit }) });

export function TutorChat() {
  // The code highlighter starts with the page, not with the first program: its colours come at once.
  useEffect(() => preloadHighlighter(), []);
  // Talks to POST /api/chat, where your route runs `streamText` with an `execute_code` tool.
  const runtime = useChatRuntime({
    // Answering Run or Deny (when the server asks first) sends the chat on.
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  return (
    <AssistantRuntimeProvider runtime={runtime} config={config}>
      <ThreadPrimitive.Root>
        <ThreadPrimitive.Viewport>
          <ThreadPrimitive.Messages>
            {() => (
              <MessagePrimitive.Root>
                <MessagePrimitive.Parts />
              </MessagePrimitive.Root>
            )}
          </ThreadPrimitive.Messages>
        </ThreadPrimitive.Viewport>
        <ComposerPrimitive.Root>
          <ComposerPrimitive.Input aria-label="Message" />
          <ComposerPrimitive.Send>Send</ComposerPrimitive.Send>
        </ComposerPrimitive.Root>
      </ThreadPrimitive.Root>
    </AssistantRuntimeProvider>
  );
}
