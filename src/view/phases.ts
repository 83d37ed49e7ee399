// The one table of a card's phases: which exist, which have ended, whether
// the program ran. The list of phases, ENDED_PHASES and every test's and
// story's list of phases come from it.

export interface PhaseFacts {
  /** The call stays in this phase: it has ended, one way or another. */
  ended: boolean;
  /** The program ran (to its end or its limit), so its output is the card's to show. */
  ran: boolean;
  /** What the phase means, for designers' galleries and the docs. */
  summary: string;
}

/** Every state an `execute_code` card can be in, and what each means. */
export const PHASES = {
  writing: { ended: false, ran: false, summary: "The model is still writing the program." },
  "awaiting-approval": { ended: false, ran: false, summary: "The program waits for the student to Run or Deny it." },
  running: { ended: false, ran: false, summary: "The program runs; its output arrives as it prints." },
  succeeded: { ended: true, ran: true, summary: "The program ran to its end and exited with 0." },
  failed: { ended: true, ran: true, summary: "The program raised an exception, exited non-zero or was killed." },
  "timed-out": { ended: true, ran: true, summary: "The program ran past its time limit and was stopped." },
  busy: { ended: true, ran: false, summary: "The sandbox had no room; the program did not run." },
  denied: { ended: true, ran: false, summary: "The student denied the run, or the approval expired." },
  cancelled: { ended: true, ran: false, summary: "The call was stopped before it finished." },
  skipped: { ended: true, ran: false, summary: "The student sent a new message instead; the program never ran." },
  error: { ended: true, ran: false, summary: "The tool failed: the sandbox was down or refused the program." },
  unrecognised: { ended: true, ran: false, summary: "The tool answered in a shape the kit cannot read." },
  "awaiting-client": { ended: false, ran: false, summary: "The program waits to run in the student's browser." },
} as const satisfies Record<string, PhaseFacts>;

export type ExecuteCodePhase = keyof typeof PHASES;

/** A phase a call stays in: it has ended, one way or another. */
export type EndedPhase = {
  [P in ExecuteCodePhase]: (typeof PHASES)[P]["ended"] extends true ? P : never;
}[ExecuteCodePhase];

/** Every phase, in the table's order. */
export const EXECUTE_CODE_PHASES = Object.keys(PHASES) as readonly ExecuteCodePhase[];

/** The phases a call stays in: it has ended, one way or another. */
export const ENDED_PHASES: readonly EndedPhase[] = EXECUTE_CODE_PHASES.filter(
  (phase): phase is EndedPhase => PHASES[phase].ended,
);
