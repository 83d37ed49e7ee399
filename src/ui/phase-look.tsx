import {
  Ban,
  CircleCheck,
  CircleHelp,
  CircleSlash,
  CircleX,
  Hourglass,
  Laptop,
  SkipForward,
  LoaderCircle,
  PencilLine,
  ShieldQuestionMark,
  Timer,
  TriangleAlert,
} from "lucide";
import type { ReactNode } from "react";
import type { ExecuteCodePhase, ExecuteCodeView } from "../view/index.js";
import { BusyCountdown } from "./busy-countdown.js";
import { formatDuration } from "./format.js";
import type { IconNode } from "./icon.js";
import type { ExecuteCodeLabels } from "./labels.js";
import { lazyResource, useLazyResource } from "./lazy-resource.js";
import { VisibleText } from "./visible-text.js";

// (perf) A result the card cannot read is rare: its view loads when one shows, not with every page.
const rawResult = lazyResource(() => import("./raw-result.js").then((module) => module.default));

function RawResult({ value }: { value: unknown }) {
  const Raw = useLazyResource(rawResult);
  return Raw && <Raw value={value} />;
}

/** The colour a phase is drawn in: the card's frame, its status and its icon. */
export type Tone = "progress" | "success" | "danger" | "warning" | "muted" | "attention";

export interface PhaseLook {
  icon: IconNode;
  tone: Tone;
  /** The icon turns while the phase lasts. */
  spins?: boolean;
  /** The sentence under the code that explains the phase; null when the panes say it all. */
  message: ((view: ExecuteCodeView, labels: ExecuteCodeLabels) => ReactNode) | null;
  /** Whether the program's output shows: stdout and stderr, or that it printed nothing. */
  output: boolean;
  /** The output is still arriving: panes follow their newest line, and nothing is said of an empty stream yet. */
  live?: boolean;
  /** Whether Run and Deny show. */
  approval?: boolean;
  /** The code did not run (or was stopped): it keeps its lines and place, under a dashed frame. */
  notRun?: boolean;
}

/**
 * How each phase looks. Every part of the card reads this table and nothing
 * else decides what a phase looks like; a new phase fails to compile until
 * it has a row here.
 */
export const PHASE_LOOK: Record<ExecuteCodePhase, PhaseLook> = {
  writing: { icon: PencilLine, tone: "progress", message: null, output: false },
  "awaiting-approval": {
    icon: ShieldQuestionMark,
    tone: "attention",
    message: (_, labels) => (
      <>
        <strong>{labels.approvalQuestion}</strong> {labels.awaitingApproval}
      </>
    ),
    output: false,
    approval: true,
  },
  running: { icon: LoaderCircle, tone: "progress", spins: true, message: null, output: true, live: true },
  succeeded: { icon: CircleCheck, tone: "success", message: null, output: true },
  // The exception leads the card, in its header (ErrorSummary).
  failed: { icon: CircleX, tone: "danger", message: null, output: true },
  "timed-out": {
    icon: Timer,
    tone: "warning",
    message: (view, labels) =>
      labels.timedOut(
        view.timeoutMs === null ? null : formatDuration(view.timeoutMs, labels.numbers),
        !!(view.output?.stdout || view.output?.stderr),
      ),
    output: true,
  },
  busy: {
    icon: Hourglass,
    tone: "warning",
    message: (view, labels) =>
      view.retryAfterMs === null ? (
        labels.busy(null)
      ) : (
        <BusyCountdown retryAfterMs={view.retryAfterMs} labels={labels} />
      ),
    output: false,
  },
  denied: {
    icon: Ban,
    tone: "muted",
    message: (view, labels) =>
      view.denial?.expired ? (
        labels.expired
      ) : (
        <>
          {labels.denied}
          {view.denial?.reason && <> {labels.deniedReason(view.denial.reason)}</>}
        </>
      ),
    output: false,
    notRun: true,
  },
  cancelled: {
    icon: CircleSlash,
    tone: "muted",
    message: (view, labels) => (view.cancelReason === "no-result" ? labels.cancelledNoResult : labels.cancelled),
    // What a stopped run printed before it stopped, when it streamed any.
    output: true,
    notRun: true,
  },
  error: {
    icon: TriangleAlert,
    tone: "danger",
    message: (view, labels) => (
      <>
        {labels.error}
        {view.error?.message && (
          <span className="ecu:font-code ecu:text-[13px]">
            {" "}
            <VisibleText text={view.error.message} />
          </span>
        )}
      </>
    ),
    output: false,
  },
  unrecognised: {
    icon: CircleHelp,
    tone: "muted",
    message: (view, labels) => (
      <>
        {labels.unrecognised}
        <RawResult value={view.error?.raw} />
      </>
    ),
    output: false,
  },
  "awaiting-client": { icon: Laptop, tone: "attention", message: (_, labels) => labels.awaitingClient, output: false },
  skipped: { icon: SkipForward, tone: "muted", message: (_, labels) => labels.skipped, output: false, notRun: true },
};
