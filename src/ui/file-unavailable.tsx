"use client";

import type { ExecuteCodeLabels } from "./labels.js";
import { VisibleText } from "./visible-text.js";
import { slotName } from "../view/slots.js";

/** In place of a figure or a table the app can no longer fetch: that it is gone, and why it may be. */
export function FileUnavailable({ name, labels }: { name: string; labels: ExecuteCodeLabels }) {
  return (
    <p data-slot={slotName("file-unavailable")} className="ecu-file-unavailable">
      <VisibleText text={labels.fileUnavailable(name)} />
    </p>
  );
}
