"use client";

import { Slot } from "radix-ui";
import { useComposedRefs } from "@radix-ui/react-compose-refs";
import { useEffect, useId, useMemo, useRef, useState, type ComponentProps } from "react";
import type { ExecuteCodeRunFile } from "../contract/index.js";
import { deriveExecuteCodeView, type ExecuteCodeCallState, type ExecuteCodeView } from "../view/index.js";
import { ansiParser } from "./ansi-parser.js";
import { cn } from "./cn.js";
import { ExecuteCodeContext } from "./context.js";
import { resolveLabels, type ExecuteCodeLabels } from "./labels.js";
import { PHASE_LOOK } from "./phase-look.js";
import { runResultParts } from "./run-result-parts.js";
import { whenIdle } from "./lazy-resource.js";
import { defaultFileUrl } from "./run-files.js";
import { useControllableOpen } from "./use-controllable.js";
import { useStreamingView } from "./use-streaming-view.js";
import { EXECUTE_CODE_ROOT_SLOT } from "../view/slots.js";

export interface AsChild {
  /** Render the part's own element as its only child (Radix's `Slot`). */
  asChild?: boolean;
}

export interface RootProps extends ExecuteCodeCallState, AsChild, ComponentProps<"div"> {
  /** A view already derived with `deriveExecuteCodeView`; by default the card derives it from the call state. */
  view?: ExecuteCodeView;
  labels?: Partial<ExecuteCodeLabels>;
  /** Forces a colour scheme; by default the card follows the host's (`.dark`, `[data-theme]`, `color-scheme`). */
  theme?: "light" | "dark";
  /**
   * Where the app serves a run's figures and files.
   * @default `/api/files/{sessionId}/{fileId}` (the harness's route)
   */
  fileUrl?: (file: ExecuteCodeRunFile) => string;
  /** Whether the card shows its body or only its header (controlled); with `defaultOpen` it keeps its own state. */
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
}

export function Root({
  view: given,
  status,
  args,
  argsText,
  argsComplete,
  result,
  isError,
  approval,
  execution,
  labels,
  theme,
  fileUrl = defaultFileUrl,
  open: openProp,
  defaultOpen = true,
  onOpenChange,
  asChild,
  className,
  children,
  ref,
  ...props
}: RootProps) {
  const derived = useMemo(
    () =>
      given ?? deriveExecuteCodeView({ status, args, argsText, argsComplete, result, isError, approval, execution }),
    [given, status, args, argsText, argsComplete, result, isError, approval, execution],
  );
  const view = useStreamingView(derived);
  // Output comes later; its parser and its panes' code should be there by
  // then. (perf) Once the page is idle: started in the mount, the bundler's
  // chunk loading lengthened the card's first task (about 8 ms in the bench).
  useEffect(
    () =>
      whenIdle(() => {
        ansiParser.preload();
        runResultParts.preload();
      }),
    [],
  );
  const resolved = useMemo(() => resolveLabels(labels), [labels]);
  const [open, setOpen] = useControllableOpen(openProp, defaultOpen, onOpenChange);
  const [focusedLine, setFocusedLine] = useState<number | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const composedRef = useComposedRefs(rootRef, ref);
  const contentId = useId();
  const titleId = useId();
  const phaseId = useId();
  const context = useMemo(
    () => ({
      view,
      labels: resolved,
      open,
      setOpen,
      contentId,
      titleId,
      phaseId,
      focusedLine,
      // A traceback link also opens a folded card.
      focusLine: (line: number | null) => {
        setFocusedLine(line);
        if (line !== null) setOpen(true);
      },
      rootRef,
      fileUrl,
    }),
    [view, resolved, open, focusedLine, setOpen, contentId, titleId, phaseId, fileUrl],
  );
  const look = PHASE_LOOK[view.phase];
  const Component = asChild ? Slot.Root : "div";
  return (
    <ExecuteCodeContext.Provider value={context}>
      <Component
        ref={composedRef}
        tabIndex={-1}
        // Named by its title and phase ("Primes below 50 Failed"), so a screen reader can tell one card from the next.
        role="group"
        aria-labelledby={`${titleId} ${phaseId}`}
        data-slot={EXECUTE_CODE_ROOT_SLOT}
        data-state={open ? "open" : "closed"}
        data-phase={view.phase}
        data-tone={look.tone}
        data-theme={theme}
        className={cn("ecu-card", className)}
        {...props}
      >
        {children}
      </Component>
    </ExecuteCodeContext.Provider>
  );
}

export type PartProps<E extends "div" | "span" | "p"> = ComponentProps<E> & AsChild;
