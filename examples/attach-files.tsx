import { AssistantRuntimeProvider, ComposerPrimitive, MessagePrimitive, ThreadPrimitive } from "@assistant-ui/react";
import { useChatRuntime } from "@assistant-ui/react-ai-sdk";
import {
  createExecuteCodeAttachmentAdapter,
  ExecuteCodeComposerAttachments,
  ExecuteCodeMessageAttachments,
  ExecuteCodeToolUI,
} from "execute-code-ui/assistant-ui";

// Made once: it uploads each file to /api/uploads as it is attached, with its progress on the chip.
const attachments = createExecuteCodeAttachmentAdapter();

/** A chat whose student can attach files (button or drop) that the tutor's programs open by name. */
export function TutorWithFiles() {
  const runtime = useChatRuntime({ adapters: { attachments } });
  return (
    <AssistantRuntimeProvider runtime={runtime}>
      <ExecuteCodeToolUI />
      <ThreadPrimitive.Root>
        <ThreadPrimitive.Messages>
          {() => (
            <MessagePrimitive.Root>
              <ExecuteCodeMessageAttachments />
              <MessagePrimitive.Parts />
            </MessagePrimitive.Root>
          )}
        </ThreadPrimitive.Messages>
        <ComposerPrimitive.AttachmentDropzone>
          <ComposerPrimitive.Root>
            <ExecuteCodeComposerAttachments />
            <ComposerPrimitive.Input aria-label="Message" />
            <ComposerPrimitive.AddAttachment multiple>Attach files</ComposerPrimitive.AddAttachment>
            <ComposerPrimitive.Send>Send</ComposerPrimitive.Send>
          </ComposerPrimitive.Root>
        </ComposerPrimitive.AttachmentDropzone>
      </ThreadPrimitive.Root>
    </AssistantRuntimeProvider>
  );
}
