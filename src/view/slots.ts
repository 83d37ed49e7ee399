// The card's parts by name: `data-slot="execute-code-<name>"`. The card
// writes only these, and the testing helpers read only these.

/** The parts of the public DOM contract (docs/card.md): stable across minor versions. */
export const EXECUTE_CODE_SLOTS = [
  "header",
  "title",
  "error",
  "explanation",
  "values",
  "error-span",
  "library-frames",
  "status",
  "exit",
  "timing",
  "stop",
  "retry",
  "trigger",
  "copy",
  "source",
  "content",
  "message",
  "approval",
  "approval-error",
  "output",
  "stdout",
  "stderr",
  "no-output",
  "truncated",
  "cut",
  "overwritten",
  "show-more",
  "hidden",
  "raw",
  "figures",
  "figure-open",
  "figure-pending",
  "figure-dialog",
  "figure-download",
  "file",
  "file-unavailable",
  "files-used",
  "files-gone",
  "table-preview",
  "continued",
  "restarted",
  "attachment",
  "attachment-error",
] as const;

/** Parts the card marks for its own layout; they may change in any version. */
export const INTERNAL_SLOTS = ["gutter", "files", "frame-link"] as const;

export type ExecuteCodeSlot = (typeof EXECUTE_CODE_SLOTS)[number];
export type InternalSlot = (typeof INTERNAL_SLOTS)[number];

/** The card's own `data-slot`, on its root. */
export const EXECUTE_CODE_ROOT_SLOT = "execute-code";

/** The `data-slot` value of a part: `slotName("stdout")` is `"execute-code-stdout"`. */
export const slotName = <Name extends ExecuteCodeSlot | InternalSlot>(name: Name): `execute-code-${Name}` =>
  `execute-code-${name}`;

/** The selector of a part, internal ones included (the kit's own tests read those). */
export const slotSelector = (name: ExecuteCodeSlot | InternalSlot) => `[data-slot="${slotName(name)}"]`;
