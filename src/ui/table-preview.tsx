"use client";

// Loaded with the first table a card shows, in a chunk of its own with the CSV parser.
import Papa from "papaparse";
import { useEffect, useRef, useState } from "react";
import type { ExecuteCodeRunFile } from "../contract/index.js";
import type { ExecuteCodeLabels } from "./labels.js";
import { FileUnavailable } from "./file-unavailable.js";
import { formatCount } from "./format.js";
import { useScrollFocus } from "./use-scroll-focus.js";
import { VisibleText } from "./visible-text.js";
import { slotName } from "../view/slots.js";

/** Rows shown below the header, and bytes of the file read for them. */
const PREVIEW_ROWS = 20;
const PREVIEW_BYTES = 64 * 1024;

/** The file is not there (any more): the server answered 404 or 410. */
class FileGone extends Error {}

/** The start of a file, at most `limit` bytes: a large table is not fetched whole for its first rows. */
async function fileStart(url: string, limit: number, signal: AbortSignal): Promise<{ text: string; whole: boolean }> {
  const response = await fetch(url, { signal });
  if (response.status === 404 || response.status === 410) throw new FileGone(`HTTP ${response.status}`);
  if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let whole = true;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    chunks.push(chunk.value);
    size += chunk.value.length;
    if (size >= limit) {
      whole = false;
      void reader.cancel();
      break;
    }
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { text: new TextDecoder().decode(bytes.subarray(0, limit)), whole };
}

type Preview =
  | { state: "loading" }
  | { state: "failed" }
  | { state: "gone" }
  | { state: "shown"; rows: string[][]; cut: boolean };

/**
 * The first rows of a table a run wrote, under its download link: the
 * header row sticks while the rest scrolls, and each cell is text, with
 * hidden characters marked. The whole file is the download.
 */
export default function TablePreview({
  file,
  url,
  labels,
}: {
  file: ExecuteCodeRunFile;
  url: string;
  labels: ExecuteCodeLabels;
}) {
  const [preview, setPreview] = useState<Preview>({ state: "loading" });
  useEffect(() => {
    const abort = new AbortController();
    fileStart(url, PREVIEW_BYTES, abort.signal).then(
      ({ text, whole }) => {
        const parsed = Papa.parse<string[]>(text, {
          delimiter: file.mediaType === "text/tab-separated-values" ? "\t" : "",
          preview: PREVIEW_ROWS + 2,
          skipEmptyLines: true,
        });
        // A cut file's last row may be cut too: it is not shown.
        setPreview({ state: "shown", rows: whole ? parsed.data : parsed.data.slice(0, -1), cut: !whole });
      },
      (error: unknown) => !abort.signal.aborted && setPreview({ state: error instanceof FileGone ? "gone" : "failed" }),
    );
    return () => abort.abort();
  }, [url, file.mediaType]);
  const name = file.name.split("/").at(-1) ?? file.name;
  // Its download would save the server's "not found": the student is told the file is gone instead.
  if (preview.state === "gone") return <FileUnavailable name={name} labels={labels} />;
  if (preview.state !== "shown" || preview.rows.length === 0) return null;
  return <TableView rows={preview.rows} cut={preview.cut} name={name} labels={labels} />;
}

/** A first row of numbers is data, not a header: `squares.csv` is `1,1`, `2,4`, … */
const isHeader = (row: string[] | undefined) =>
  !!row && !row.every((cell) => cell.trim() !== "" && !Number.isNaN(Number(cell)));

function TableView({
  rows,
  cut,
  name,
  labels,
}: {
  rows: string[][];
  /** The file goes on past what was read. */
  cut: boolean;
  name: string;
  labels: ExecuteCodeLabels;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  // A tab stop while it scrolls: the keyboard reaches what the mouse does.
  const scrollStop = useScrollFocus(scroller, rows);
  const header = isHeader(rows[0]) ? rows[0]! : null;
  const data = header ? rows.slice(1) : rows;
  const body = data.slice(0, PREVIEW_ROWS);
  const more = cut || data.length > PREVIEW_ROWS;
  return (
    <figure data-slot={slotName("table-preview")} className="ecu-table-preview">
      <div
        ref={scroller}
        className="ecu-table-scroll"
        role="region"
        aria-label={labels.tablePreview(name)}
        tabIndex={scrollStop}
      >
        <table className="ecu-table">
          {header && (
            <thead>
              <tr>
                {header.map((cell, column) => (
                  <th key={column} scope="col">
                    <VisibleText text={cell} />
                  </th>
                ))}
              </tr>
            </thead>
          )}
          <tbody>
            {body.map((row, index) => (
              <tr key={index}>
                {row.map((cell, column) => (
                  <td key={column}>
                    <VisibleText text={cell} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {more && (
        <figcaption className="ecu-table-note">
          {labels.tableRowsShown(formatCount(body.length, labels.numbers))}
        </figcaption>
      )}
    </figure>
  );
}
