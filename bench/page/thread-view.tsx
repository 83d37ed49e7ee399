import { AssistantRuntimeProvider, MessagePrimitive, ThreadPrimitive, type AssistantRuntime, type AuiConfig } from "@assistant-ui/react";

/** The bare assistant-ui thread every thread scenario renders: each message's parts, nothing else. */
export function ThreadView({ runtime, config }: { runtime: AssistantRuntime; config: ReturnType<typeof AuiConfig> }) {
  return (
    <AssistantRuntimeProvider runtime={runtime} config={config}>
      <ThreadPrimitive.Root>
        <ThreadPrimitive.Messages>
          {() => (
            <MessagePrimitive.Root>
              <MessagePrimitive.Parts />
            </MessagePrimitive.Root>
          )}
        </ThreadPrimitive.Messages>
      </ThreadPrimitive.Root>
    </AssistantRuntimeProvider>
  );
}
