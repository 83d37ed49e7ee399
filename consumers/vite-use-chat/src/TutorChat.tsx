"use client";

import { useChat } from "@ai-sdk/react";
import { lastAssistantMessageIsCompleteWithApprovalResponses } from "ai";
import { ExecuteCodeCard, fromAISDKToolPart } from "execute-code-ui";
import "execute-code-ui/styles.css";
import { useState } from "react";

export function TutorChat() {
  // Talks to POST /api/chat, where your route runs `streamText` with an `execute_code` tool.
  const { messages, sendMessage, addToolApprovalResponse } = useChat({
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  const [input, setInput] = useState("");
  return (
    <div>
      {messages.map((message) => (
        <div key={message.id}>
          {message.parts.map((part, index) => {
            if (part.type === "text") return <p key={index}>{part.text}</p>;
            if (part.type === "tool-execute_code") {
              const approvalId = part.approval?.id ?? "";
              return (
                <ExecuteCodeCard
                  key={part.toolCallId}
                  {...fromAISDKToolPart(part)}
                  onApprove={() => addToolApprovalResponse({ id: approvalId, approved: true })}
                  onDeny={(reason) =>
                    addToolApprovalResponse({ id: approvalId, approved: false, ...(reason ? { reason } : {}) })
                  }
                />
              );
            }
            return null;
          })}
        </div>
      ))}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void sendMessage({ text: input });
          setInput("");
        }}
      >
        <textarea aria-label="Message" value={input} onChange={(event) => setInput(event.target.value)} />
        <button type="submit">Send</button>
      </form>
    </div>
  );
}
