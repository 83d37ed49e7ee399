"use client";

import { Slot } from "radix-ui";
import type { ComponentProps, ReactNode } from "react";
import type { ExecuteCodeRunFile } from "../contract/index.js";
import { cn } from "./cn.js";
import { useExecuteCode } from "./context.js";
import { formatBytes } from "./format.js";
import { useLazyResource } from "./lazy-resource.js";
import { baseName, DEFAULT_SIZE, type FigureSize, figureSize, roomStyle } from "./figure-room.js";
import { PHASE_LOOK } from "./phase-look.js";
import { runResultParts } from "./run-result-parts.js";
import { VisibleText } from "./visible-text.js";
import { slotName } from "../view/slots.js";

/** Where the app serves a run's file: by default the harness's route, `/api/files/{sessionId}/{fileId}`. */
export function defaultFileUrl(file: ExecuteCodeRunFile): string {
  return `/api/files/${encodeURIComponent(file.ref.sessionId)}/${encodeURIComponent(file.ref.fileId)}`;
}

/** Whether a program draws with matplotlib, so that its running card keeps room for the figure. */
export function drawsFigure(code: string): boolean {
  return /^\s*(?:import|from)\s+(?:matplotlib|pylab)\b|\bplt\.(?:plot|show|figure|subplots?|bar|scatter|hist|imshow)\s*\(/m.test(
    code,
  );
}

/** A figure's frame before its image: the room the image will take, and its caption. */
function FigureRoom({
  size,
  caption,
  children,
  ...props
}: ComponentProps<"div"> & { size: FigureSize; caption?: ReactNode }) {
  return (
    <div className="ecu-figure" style={roomStyle(size)} {...props}>
      <div className="ecu-figure-pending">{children}</div>
      <div className="ecu-figure-caption" aria-hidden={caption ? undefined : true}>
        {caption ?? "\u00a0"}
      </div>
    </div>
  );
}

/**
 * Until the files' own code (the figures, their larger view, table
 * previews, the notes on given files) has loaded, or should it fail to:
 * each figure's room, and every file's download link.
 */
function FilesBeforeLoad({ files }: { files: ExecuteCodeRunFile[] }) {
  const { labels, fileUrl } = useExecuteCode();
  // A figure's link names the file, as its caption does; another file's, its path in the run's folder.
  const link = (file: ExecuteCodeRunFile, className: string, name: string) => (
    <a data-slot={slotName("file")} href={fileUrl(file)} download={baseName(file.name)} className={className}>
      <VisibleText text={labels.download(name, formatBytes(file.size, labels.numbers))} />
    </a>
  );
  const key = (file: ExecuteCodeRunFile) => `${file.ref.sessionId}/${file.ref.fileId}`;
  const figures = files.filter((file) => file.kind === "image");
  const others = files.filter((file) => file.kind !== "image");
  return (
    <>
      {figures.length > 0 && (
        <div className="ecu-figures">
          {figures.map((file) => (
            <FigureRoom
              key={key(file)}
              size={figureSize(file)}
              caption={link(file, "ecu-file-link", baseName(file.name))}
            />
          ))}
        </div>
      )}
      {others.length > 0 && (
        <ul aria-label={labels.files} className="ecu-file-list">
          {others.map((file) => (
            <li key={key(file)}>{link(file, "ecu-file-chip", file.name)}</li>
          ))}
        </ul>
      )}
    </>
  );
}

export interface FilesProps extends ComponentProps<"div"> {
  asChild?: boolean;
}

/**
 * What a finished run left: its figures, each at its own aspect ratio with
 * a download link and a larger view, and its other files as download links
 * with name and size. While a program that draws runs, the room for its
 * figure.
 */
export function Files({ asChild, className, ...props }: FilesProps) {
  const { view, labels, fileUrl, rootRef } = useExecuteCode();
  const pending = view.phase === "running" && drawsFigure(view.code);
  const { used, gone, session } = view.inputs;
  const ended =
    PHASE_LOOK[view.phase].output && (view.files.length + used.length + gone.length > 0 || session !== null);
  const parts = useLazyResource(runResultParts, ended && !pending);
  if (!pending && !ended) return null;
  const Component = asChild ? Slot.Root : "div";
  return (
    <Component data-slot={slotName("files")} className={cn("ecu-files", className)} {...props}>
      {pending ? (
        // The frame a figure will have, at the size it will most likely be: the card does not jump when it comes.
        <div className="ecu-figures">
          <FigureRoom data-slot={slotName("figure-pending")} size={DEFAULT_SIZE}>
            <p>{labels.figurePending}</p>
          </FigureRoom>
        </div>
      ) : parts ? (
        <parts.FileList view={view} labels={labels} fileUrl={fileUrl} rootRef={rootRef} />
      ) : (
        <FilesBeforeLoad files={view.files} />
      )}
    </Component>
  );
}
