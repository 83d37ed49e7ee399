import { slotSelector } from "../src/view/slots";

/**
 * The program in a card as a person selects and copies it: lines inside a
 * block are separated by "\n" and each block's edge ends its last line
 * (jsdom has no innerText; the stories check innerText and the selection in
 * Chromium).
 */
export function shownCode(root: ParentNode): string {
  return [...root.querySelectorAll(`${slotSelector("source")} code > .ecu-code-block`)]
    .map((block) => block.textContent)
    .join("\n");
}
