"use client";

import { Slot } from "radix-ui";
import { useState, type ComponentPropsWithoutRef } from "react";
import type { ExecuteCodeRunFile } from "../contract/index.js";
import { cn } from "./cn.js";
import { useExecuteCode } from "./context.js";
import { formatBytes } from "./format.js";
import type { ExecuteCodeLabels } from "./labels.js";
import { PHASE_LOOK } from "./phase-look.js";

/** Where the app serves a run's file: by default the harness's route, `/api/files/{sessionId}/{fileId}`. */
export function defaultFileUrl(file: ExecuteCodeRunFile): string {
  return `/api/files/${encodeURIComponent(file.ref.sessionId)}/${encodeURIComponent(file.ref.fileId)}`;
}

const baseName = (name: string) => name.split("/").at(-1) ?? name;

function Figure({ file, url, labels }: { file: ExecuteCodeRunFile; url: string; labels: ExecuteCodeLabels }) {
  const [failed, setFailed] = useState(false);
  const size = formatBytes(file.size, labels.numbers);
  return (
    <figure className="ecu-figure" data-state={failed ? "unavailable" : "shown"}>
      {failed ? (
        <p data-slot="execute-code-file-unavailable" className="ecu-file-unavailable">
          {labels.fileUnavailable(baseName(file.name))}
        </p>
      ) : (
        // Room for matplotlib's default 4:3 is kept before the image loads, so the thread does not jump.
        <img className="ecu-figure-image" src={url} alt={file.alt ?? baseName(file.name)} width={640} height={480} loading="lazy" decoding="async" onError={() => setFailed(true)} />
      )}
      <figcaption className="ecu-figure-caption">
        <a data-slot="execute-code-file" href={url} download={baseName(file.name)} className="ecu-file-link">
          {labels.download(baseName(file.name), size)}
        </a>
      </figcaption>
    </figure>
  );
}

export interface FilesProps extends ComponentPropsWithoutRef<"div"> {
  asChild?: boolean;
}

/**
 * What a finished run left: its figures, each at its own aspect ratio with
 * a download link, and its other files as download links with name and size.
 */
export function Files({ asChild, className, ...props }: FilesProps) {
  const { view, labels, fileUrl } = useExecuteCode();
  if (!PHASE_LOOK[view.phase].output || view.files.length === 0) return null;
  const figures = view.files.filter((file) => file.kind === "image");
  const others = view.files.filter((file) => file.kind !== "image");
  const Component = asChild ? Slot.Root : "div";
  return (
    <Component data-slot="execute-code-files" className={cn("ecu-files", className)} {...props}>
      {figures.length > 0 && (
        <div role="group" aria-label={labels.figures} data-slot="execute-code-figures" className="ecu-figures">
          {figures.map((file) => (
            <Figure key={`${file.ref.sessionId}/${file.ref.fileId}`} file={file} url={fileUrl(file)} labels={labels} />
          ))}
        </div>
      )}
      {others.length > 0 && (
        <ul aria-label={labels.files} className="ecu-file-list">
          {others.map((file) => (
            <li key={`${file.ref.sessionId}/${file.ref.fileId}`}>
              <a data-slot="execute-code-file" href={fileUrl(file)} download={baseName(file.name)} className="ecu-file-chip">
                {labels.download(file.name, formatBytes(file.size, labels.numbers))}
              </a>
            </li>
          ))}
        </ul>
      )}
    </Component>
  );
}
