// The public DOM contract's selectors, in one place: the Playwright helpers,
// the kit's own stories and tests read the card through these.

/** Every `execute_code` card. */
export const EXECUTE_CODE_CARD = '[data-slot="execute-code"]';

/** A part of the card by its slot name: `executeCodePart("stdout")` is `[data-slot="execute-code-stdout"]`. */
export const executeCodePart = (name: string) => `[data-slot="execute-code-${name}"]`;
