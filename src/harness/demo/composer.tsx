// The demo's composer: the message, the student's files, Send or Stop.
import { ComposerPrimitive, useAuiState } from "@assistant-ui/react";
import { type MouseEvent, useSyncExternalStore } from "react";
import { createExecuteCodeAttachmentAdapter, ExecuteCodeComposerAttachments } from "../../assistant-ui/index.js";
import { STUDENT_FILE_EXTENSIONS } from "../../contract/file-name.js";
import { executeCodePart } from "../../testing/selectors.js";
import type { RunWhere } from "./demo-chats.js";
import { pageRuns } from "./run-where.js";

const FILE_KINDS = STUDENT_FILE_EXTENSIONS.join(", ");

/** Files go only to the server's sandbox; a chat whose code runs here says so on the chip. */
export const attachmentsFor: Record<RunWhere, ReturnType<typeof createExecuteCodeAttachmentAdapter>> = {
  server: createExecuteCodeAttachmentAdapter(),
  browser: createExecuteCodeAttachmentAdapter({
    unavailable:
      "Files need the server sandbox: this chat runs code in your browser. Start a server chat to attach files.",
  }),
};

/** Stop for a program this page runs: it presses the Stop of each card that runs one, as the student could. */
function stopPageRuns(event: MouseEvent<HTMLButtonElement>) {
  const thread = event.currentTarget.closest(".demo-thread");
  for (const stop of thread?.querySelectorAll<HTMLButtonElement>(`button${executeCodePart("stop")}`) ?? [])
    stop.click();
}

/**
 * The composer: the message, the student's files (button or drop), and Send,
 * held while a file is on its way or cannot go; Stop instead while the model
 * answers or a program runs in this page.
 */
export function Composer({
  phone,
  runWhere,
  onJump,
}: {
  phone: boolean;
  runWhere: RunWhere;
  /** While the reader is above the thread's end: Jump to latest, here in the composer's row, where it covers nothing of the thread. */
  onJump: (() => void) | null;
}) {
  const filesNotReady = useAuiState((state) =>
    state.composer.attachments.some((attachment) => attachment.status.type !== "requires-action"),
  );
  const threadRunning = useAuiState((state) => state.thread.isRunning);
  const runningHere = useSyncExternalStore(pageRuns.subscribe, pageRuns.count) > 0;
  return (
    <ComposerPrimitive.AttachmentDropzone className="demo-dropzone">
      <ComposerPrimitive.Root className="demo-composer">
        <ExecuteCodeComposerAttachments className="demo-attachments" />
        {onJump && (
          <button
            type="button"
            className="demo-send demo-jump"
            aria-label="Jump to latest"
            title="Jump to latest"
            // The button goes once at the end: the focus goes on to the message box, not back to the page's start.
            onClick={(event) => {
              event.currentTarget.parentElement
                ?.querySelector<HTMLElement>('[aria-label="Message"]')
                ?.focus({ preventScroll: true });
              onJump();
            }}
          >
            <span aria-hidden="true">↓</span>
          </button>
        )}
        <ComposerPrimitive.Input
          aria-label="Message"
          aria-describedby="demo-composer-hint"
          // One line, as empty and after a send; it grows with the message up to a cap, so the thread keeps the screen.
          // With Jump to latest beside it on a phone, a placeholder that still fits one line: the box keeps its height.
          placeholder={phone ? (onJump ? "Ask…" : "Ask, or paste code") : "Ask something, or paste a ```python block"}
          submitMode="enter"
          minRows={1}
          maxRows={phone ? 6 : 12}
        />
        {/* On a phone, one short line: the thread keeps the screen; the whole hints stay for screen readers. */}
        <p id="demo-composer-hint" className={phone ? "ecu-visually-hidden" : "demo-composer-hint"}>
          Enter sends · Shift+Enter adds a line
        </p>
        <p id="demo-files-hint" className={phone ? "ecu-visually-hidden" : "demo-composer-hint"}>
          {runWhere === "server"
            ? `Attach ${FILE_KINDS} files (or drop them here): up to 10 MB each, 5 a message, 20 MB a chat.`
            : "Files need the server sandbox: this chat runs code in your browser."}
        </p>
        {phone && (
          <p className="demo-composer-hint" aria-hidden="true">
            {runWhere === "server" ? "Files: up to 10 MB each, 5 a message" : "Files need the server sandbox"}
          </p>
        )}
        <ComposerPrimitive.AddAttachment
          multiple
          className="demo-send demo-attach"
          disabled={runWhere !== "server"}
          aria-describedby="demo-files-hint"
          // On a phone the word is shorter, so the message keeps one line.
          aria-label={phone ? "Attach files" : undefined}
        >
          {phone ? "Attach" : "Attach files"}
        </ComposerPrimitive.AddAttachment>
        {threadRunning ? (
          <ComposerPrimitive.Cancel className="demo-send">Stop</ComposerPrimitive.Cancel>
        ) : runningHere ? (
          <button type="button" className="demo-send" onClick={stopPageRuns}>
            Stop
          </button>
        ) : (
          <ComposerPrimitive.Send className="demo-send" disabled={filesNotReady}>
            Send
          </ComposerPrimitive.Send>
        )}
      </ComposerPrimitive.Root>
    </ComposerPrimitive.AttachmentDropzone>
  );
}
