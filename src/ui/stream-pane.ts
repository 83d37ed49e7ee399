import { useMemo } from "react";
import { countLineBreaks } from "../contract/truncate.js";
import { slotName } from "../view/slots.js";
import { stripAnsi } from "./ansi.js";
import type { ExecuteCodeLabels } from "./labels.js";
import type { PaneProps } from "./pane.js";
import { useControllableOpen } from "./use-controllable.js";

/** Output longer than this starts folded. */
export const OUTPUT_FOLDED_LINES = 12;

/** Lines of a stream: a final line break ends its last line. */
export const lineCountOf = (text: string): number => countLineBreaks(text) + (text.endsWith("\n") ? 0 : 1);

interface StreamPaneOptions {
  stream: "stdout" | "stderr";
  text: string;
  labels: ExecuteCodeLabels;
  tone: "neutral" | "danger";
  open: boolean | undefined;
  defaultOpen: boolean;
  onOpenChange: ((open: boolean) => void) | undefined;
}

/**
 * What a stream's pane is, in either of its forms (the full one and the
 * plain one shown until the full one's code loads): its slot, name, folding,
 * copy and tone, so that the two cannot drift apart.
 */
export function useStreamPane({ stream, text, labels, tone, open, defaultOpen, onOpenChange }: StreamPaneOptions) {
  const [isOpen, setOpen] = useControllableOpen(open, defaultOpen, onOpenChange);
  const name = stream === "stdout" ? labels.stdout : labels.stderr;
  const lineCount = useMemo(() => lineCountOf(text), [text]);
  const pane: Omit<PaneProps, "children"> & { "data-tone": StreamPaneOptions["tone"] } = {
    slot: slotName(stream),
    name,
    labels,
    lineCount,
    foldedLines: OUTPUT_FOLDED_LINES,
    open: isOpen,
    onOpenChange: setOpen,
    copyText: () => stripAnsi(text),
    "data-tone": tone,
  };
  return { name, open: isOpen, pane };
}
