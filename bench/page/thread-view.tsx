import {
  AssistantRuntimeProvider,
  AuiConfig,
  MessagePrimitive,
  ThreadPrimitive,
  Tools,
  useExternalStoreRuntime,
  type AssistantRuntime,
  type ThreadMessageLike,
} from "@assistant-ui/react";
import { executeCodeToolkit } from "../../src/assistant-ui";

/** The kit's card, registered through the toolkit route as the README shows. */
export const kitConfig = AuiConfig({ tools: Tools({ toolkit: executeCodeToolkit }) });

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

/** The kit's thread over messages the scenario holds itself (`useExternalStoreRuntime`), its last message still running. */
export function StoreThreadView({ messages }: { messages: readonly ThreadMessageLike[] }) {
  const runtime = useExternalStoreRuntime({
    messages,
    isRunning: true,
    convertMessage: (message: ThreadMessageLike) => message,
    onNew: async () => undefined,
  });
  return <ThreadView runtime={runtime} config={kitConfig} />;
}
