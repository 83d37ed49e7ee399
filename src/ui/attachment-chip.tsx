"use client";

import type { ReactNode } from "react";
import { formatBytes, formatCount, type NumberSeparators } from "./format.js";
import { VisibleText } from "./visible-text.js";
import { slotName } from "../view/slots.js";

export interface AttachmentLabels {
  numbers: NumberSeparators;
  /** The chips' group. */
  attachments: string;
  /** The remove button of a chip not yet sent. */
  remove: (name: string) => string;
  /** The progress bar while a file uploads. */
  uploading: (name: string, percent: string) => string;
}

export const englishAttachmentLabels: AttachmentLabels = {
  numbers: { decimal: ".", group: "," },
  attachments: "Attached files",
  remove: (name) => `Remove ${name}`,
  uploading: (name, percent) => `Uploading ${name}: ${percent}%`,
};

export interface AttachmentChipProps {
  /** The name as the student gave it, shown with any hidden characters marked. */
  name: string;
  size?: number;
  /** 0 to 1 while it uploads. */
  progress?: number;
  /** Why it cannot be sent (too large, not a kind the sandbox takes, the sandbox unreachable). */
  error?: string;
  /** Where it downloads from, once it is in a sent message. */
  href?: string;
  /** The remove button, before sending. */
  remove?: ReactNode;
  labels?: AttachmentLabels;
}

/**
 * A student's file as a chip: its name and size, a progress bar while it
 * uploads, the reason when it cannot go, a remove button before sending
 * and a download link once sent.
 */
export function AttachmentChip({
  name,
  size,
  progress,
  error,
  href,
  remove,
  labels = englishAttachmentLabels,
}: AttachmentChipProps) {
  const state = error ? "error" : progress !== undefined ? "uploading" : "ready";
  const shown = <VisibleText text={name} />;
  return (
    <span data-slot={slotName("attachment")} data-state={state} className="ecu-attachment">
      {href ? (
        <a className="ecu-attachment-name" href={href} download={name}>
          {shown}
        </a>
      ) : (
        <span className="ecu-attachment-name">{shown}</span>
      )}
      {size !== undefined && <span className="ecu-attachment-meta">{formatBytes(size, labels.numbers)}</span>}
      {progress !== undefined && !error && (
        <progress
          value={progress}
          max={1}
          aria-label={labels.uploading(name, formatCount(progress * 100, labels.numbers))}
        />
      )}
      {error && (
        <span role="alert" data-slot={slotName("attachment-error")}>
          {error}
        </span>
      )}
      {remove}
    </span>
  );
}
