// The public DOM contract's selectors, in one place: the Playwright helpers,
// the kit's own stories and tests read the card through these.
import { EXECUTE_CODE_ROOT_SLOT, type ExecuteCodeSlot, slotSelector } from "../view/slots.js";

export { EXECUTE_CODE_SLOTS, type ExecuteCodeSlot } from "../view/slots.js";

/** Every `execute_code` card. */
export const EXECUTE_CODE_CARD = `[data-slot="${EXECUTE_CODE_ROOT_SLOT}"]`;

/** A part of the card by its slot name: `executeCodePart("stdout")` is `[data-slot="execute-code-stdout"]`. */
export const executeCodePart = (name: ExecuteCodeSlot): string => slotSelector(name);
