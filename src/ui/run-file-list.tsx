"use client";

import { useRef, useState, type CSSProperties, type RefObject } from "react";
import type { ExecuteCodeRunFile } from "../contract/index.js";
import type { ExecuteCodeView } from "../view/index.js";
import { formatBytes } from "./format.js";
import type { ExecuteCodeLabels } from "./labels.js";
import { lazyResource, useLazyResource } from "./lazy-resource.js";
import { baseName, figureSize, roomStyle } from "./figure-room.js";
import { FileUnavailable } from "./file-unavailable.js";
import { VisibleText } from "./visible-text.js";
import { slotName } from "../view/slots.js";

// Radix's dialog (focus trap, scroll lock, portal) is most of the card's weight: loaded once a figure shows.
// A part that cannot load is left out (and tried again by the next card), never an error that takes the page.
const figureDialog = lazyResource(() => import("./figure-dialog.js").then((module) => module.default));
// A table's preview shows once its file is fetched and parsed: its code comes in the same wait.
const tablePreview = lazyResource(() => import("./table-preview.js").then((module) => module.default));

/** Whether the card shows a file as a table: a CSV or TSV a run wrote. */
const isTable = (file: ExecuteCodeRunFile) =>
  file.mediaType === "text/csv" || file.mediaType === "text/tab-separated-values";

interface FigureProps {
  file: ExecuteCodeRunFile;
  url: string;
  labels: ExecuteCodeLabels;
  /** The card, whose scheme the enlarged figure takes. */
  cardRef: RefObject<HTMLElement | null>;
}

function Figure({ file, url, labels, cardRef }: FigureProps) {
  const [failed, setFailed] = useState(false);
  const [open, setOpen] = useState(false);
  const openerRef = useRef<HTMLButtonElement>(null);
  // The dialog's code comes before anyone asks for it: once a figure shows, not with every card.
  const FigureDialog = useLazyResource(figureDialog);
  // The card's scheme as shown (the host's `.dark`, a wrapper's `data-theme`, the system), read as the dialog opens.
  const card = cardRef.current;
  const scheme = open && card && getComputedStyle(card).colorScheme.includes("dark") ? "dark" : "light";
  const name = baseName(file.name);
  const alt = file.alt ?? name;
  const { width, height } = figureSize(file);
  const download = labels.download(name, formatBytes(file.size, labels.numbers));
  // The width and height attributes keep the figure's room before it loads, so the thread does not jump.
  const image = (className: string, loading: "lazy" | "eager", style?: CSSProperties) => (
    <img
      className={className}
      src={url}
      alt={alt}
      width={width}
      height={height}
      style={{ aspectRatio: `auto ${width} / ${height}`, ...style }}
      loading={loading}
      decoding="async"
      onError={() => setFailed(true)}
    />
  );
  return (
    <figure className="ecu-figure" data-state={failed ? "unavailable" : "shown"} style={roomStyle({ width, height })}>
      {failed ? (
        <FileUnavailable name={name} labels={labels} />
      ) : (
        <>
          <button
            ref={openerRef}
            type="button"
            data-slot={slotName("figure-open")}
            className="ecu-figure-open"
            aria-label={labels.enlargeFigure(alt)}
            aria-haspopup="dialog"
            aria-expanded={open}
            onClick={() => setOpen(true)}
          >
            {image("ecu-figure-image", "lazy")}
          </button>
          {open && FigureDialog && (
            <FigureDialog
              onClose={() => setOpen(false)}
              onClosed={() => openerRef.current?.focus()}
              scheme={scheme}
              title={alt}
              image={image("ecu-figure-dialog-image", "eager", {
                // As large as the screen allows, at the figure's ratio; on a phone, at its own width (styles.css).
                width: `min(100vw - 48px, (100dvh - 140px) * ${width} / ${height})`,
                "--ecu-figure-width": `${width}px`,
              } as CSSProperties)}
              download={
                <a data-slot={slotName("figure-download")} href={url} download={name} className="ecu-button">
                  <VisibleText text={download} />
                </a>
              }
              closeLabel={labels.closeFigure}
              panLabel={labels.panFigure}
            />
          )}
        </>
      )}
      {/* A figure that is gone has nothing to download: the link would save the server's "not found". */}
      {!failed && (
        <figcaption className="ecu-figure-caption">
          <a data-slot={slotName("file")} href={url} download={name} className="ecu-file-link">
            <VisibleText text={download} />
          </a>
        </figcaption>
      )}
    </figure>
  );
}

/** A table's first rows, once the preview's code (and the CSV parser in it) has loaded. */
function LazyTablePreview(props: { file: ExecuteCodeRunFile; url: string; labels: ExecuteCodeLabels }) {
  const TablePreview = useLazyResource(tablePreview);
  return TablePreview && <TablePreview {...props} />;
}

export interface FileListProps {
  view: ExecuteCodeView;
  labels: ExecuteCodeLabels;
  fileUrl: (file: ExecuteCodeRunFile) => string;
  /** The card, whose scheme an enlarged figure takes. */
  rootRef: RefObject<HTMLElement | null>;
}

/** What an ended run left and started from: its session, the given files it used or missed, its figures and files. */
export function FileList({ view, labels, fileUrl, rootRef }: FileListProps) {
  const { used, gone, session } = view.inputs;
  const figures = view.files.filter((file) => file.kind === "image");
  const others = view.files.filter((file) => file.kind !== "image");
  return (
    <>
      {session && (
        <p
          data-slot={session === "continued" ? slotName("continued") : slotName("restarted")}
          className="ecu-files-used"
        >
          {labels[session]}
        </p>
      )}
      {used.length > 0 && (
        <p data-slot={slotName("files-used")} className="ecu-files-used">
          {labels.filesUsed}{" "}
          {used.map((name, index) => (
            <span key={name}>
              {index > 0 && ", "}
              <code>
                <VisibleText text={name} />
              </code>
            </span>
          ))}
        </p>
      )}
      {gone.length > 0 && (
        <p data-slot={slotName("files-gone")} className="ecu-files-gone">
          <VisibleText text={labels.filesGone(gone.join(", "))} />
        </p>
      )}
      {figures.length > 0 && (
        <div role="group" aria-label={labels.figures} data-slot={slotName("figures")} className="ecu-figures">
          {figures.map((file) => (
            <Figure
              key={`${file.ref.sessionId}/${file.ref.fileId}`}
              file={file}
              url={fileUrl(file)}
              labels={labels}
              cardRef={rootRef}
            />
          ))}
        </div>
      )}
      {others.length > 0 && (
        <ul aria-label={labels.files} className="ecu-file-list">
          {others.map((file) => (
            <li key={`${file.ref.sessionId}/${file.ref.fileId}`}>
              <a
                data-slot={slotName("file")}
                href={fileUrl(file)}
                download={baseName(file.name)}
                className="ecu-file-chip"
              >
                <VisibleText text={labels.download(file.name, formatBytes(file.size, labels.numbers))} />
              </a>
              {isTable(file) && <LazyTablePreview file={file} url={fileUrl(file)} labels={labels} />}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
