import {
  Ban,
  CircleCheck,
  CircleSlash,
  CircleX,
  Hourglass,
  Laptop,
  LoaderCircle,
  PencilLine,
  ShieldQuestionMark,
  Timer,
  TriangleAlert,
  type LucideIcon,
} from "lucide-react";
import type { ExecuteCodePhase } from "../view/index.js";

export type Tone = "progress" | "success" | "danger" | "warning" | "muted" | "attention";

/** How each phase looks: one table for every state of the card. */
export const PHASE_LOOK: Record<ExecuteCodePhase, { icon: LucideIcon; tone: Tone; spins?: boolean }> = {
  writing: { icon: PencilLine, tone: "progress" },
  "awaiting-approval": { icon: ShieldQuestionMark, tone: "attention" },
  running: { icon: LoaderCircle, tone: "progress", spins: true },
  succeeded: { icon: CircleCheck, tone: "success" },
  failed: { icon: CircleX, tone: "danger" },
  "timed-out": { icon: Timer, tone: "warning" },
  busy: { icon: Hourglass, tone: "warning" },
  denied: { icon: Ban, tone: "muted" },
  cancelled: { icon: CircleSlash, tone: "muted" },
  error: { icon: TriangleAlert, tone: "danger" },
  "awaiting-client": { icon: Laptop, tone: "attention" },
};
