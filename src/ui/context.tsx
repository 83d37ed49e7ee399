import { createContext, useContext, type RefObject } from "react";
import type { ExecuteCodeRunFile } from "../contract/index.js";
import type { ExecuteCodeView } from "../view/index.js";
import type { ExecuteCodeLabels } from "./labels.js";

export interface ExecuteCodeContextValue {
  view: ExecuteCodeView;
  labels: ExecuteCodeLabels;
  /** Whether the card shows its body. */
  open: boolean;
  setOpen: (open: boolean) => void;
  /** The id of the card's body, for the fold button's `aria-controls`. */
  contentId: string;
  /** The ids of the title and the phase word, which name the card. */
  titleId: string;
  phaseId: string;
  /** Line of the code block picked from a traceback, 1-based. */
  focusedLine: number | null;
  focusLine: (line: number | null) => void;
  /** The card's root, which takes the focus when an answered approval bar goes away. */
  rootRef: RefObject<HTMLDivElement | null>;
  /** Where the app serves a run's file. */
  fileUrl: (file: ExecuteCodeRunFile) => string;
}

export const ExecuteCodeContext = createContext<ExecuteCodeContextValue | null>(null);

export function useExecuteCode(): ExecuteCodeContextValue {
  const value = useContext(ExecuteCodeContext);
  if (!value) throw new Error("ExecuteCode parts must be rendered inside <ExecuteCode.Root>.");
  return value;
}
