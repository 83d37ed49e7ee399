// Apart from the schemas, so that the card's code can name them without valibot.

/** Error code of a call whose approval came too late: the card shows it as an expired approval. */
export const APPROVAL_EXPIRED = "approval_expired";

/** Error code of a run the person stopped before it ended: the card shows it as cancelled. */
export const RUN_STOPPED = "run_stopped";
