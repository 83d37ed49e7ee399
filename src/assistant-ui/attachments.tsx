"use client";

import {
  AttachmentPrimitive,
  ComposerPrimitive,
  MessagePrimitive,
  useAuiEvent,
  useAuiState,
  type Attachment,
} from "@assistant-ui/react";
import { useState } from "react";
import { AttachmentChip, englishAttachmentLabels, type AttachmentLabels } from "../ui/attachment-chip.js";
import { cn } from "../ui/cn.js";
import { slotName } from "../view/slots.js";

/** The chip of the attachment in scope: a pending one with its progress or error, a sent one with its link. */
function ScopedChip({ labels, removable }: { labels: AttachmentLabels; removable: boolean }) {
  const attachment = useAuiState((state) => state.attachment) as Attachment;
  const status = attachment.status;
  const sent = attachment.content?.find((part) => part.type === "file");
  return (
    <AttachmentChip
      name={attachment.name}
      size={attachment.file?.size}
      progress={status.type === "running" ? status.progress : undefined}
      error={status.type === "incomplete" ? (status.message ?? undefined) : undefined}
      href={status.type === "complete" && sent?.type === "file" ? sent.data : undefined}
      labels={labels}
      remove={
        removable ? (
          <AttachmentPrimitive.Remove className="ecu-attachment-remove" aria-label={labels.remove(attachment.name)}>
            ×
          </AttachmentPrimitive.Remove>
        ) : undefined
      }
    />
  );
}

interface AttachmentsProps {
  labels?: AttachmentLabels;
  className?: string;
}

/**
 * The composer's attachments as chips (name, size, upload progress, remove),
 * and the reason a dropped or chosen file was not taken. Put it in
 * `ComposerPrimitive.Root`, beside `ComposerPrimitive.AddAttachment`.
 */
export function ExecuteCodeComposerAttachments({ labels = englishAttachmentLabels, className }: AttachmentsProps) {
  const [refused, setRefused] = useState<string | null>(null);
  useAuiEvent("composer.attachmentAddError", (event) => setRefused(event.message));
  useAuiEvent("composer.attachmentAdd", () => setRefused(null));
  const count = useAuiState((state) => state.composer.attachments.length);
  if (!count && !refused) return null;
  return (
    <div className={cn("ecu-card ecu-attachments", className)} role="group" aria-label={labels.attachments}>
      <ComposerPrimitive.Attachments>{() => <ScopedChip labels={labels} removable />}</ComposerPrimitive.Attachments>
      {refused && (
        <p role="alert" data-slot={slotName("attachment-error")}>
          {refused}
        </p>
      )}
    </div>
  );
}

/** A sent message's attachments as chips, each a download of the file as the sandbox keeps it. */
export function ExecuteCodeMessageAttachments({ labels = englishAttachmentLabels, className }: AttachmentsProps) {
  const count = useAuiState((state) => state.message.attachments?.length ?? 0);
  if (!count) return null;
  return (
    <div className={cn("ecu-card ecu-attachments", className)} role="group" aria-label={labels.attachments}>
      <MessagePrimitive.Attachments>
        {() => <ScopedChip labels={labels} removable={false} />}
      </MessagePrimitive.Attachments>
    </div>
  );
}
