import type { Locator, Page } from "@playwright/test";
import { ENDED_PHASES, type ExecuteCodePhase } from "../view/index.js";
import { EXECUTE_CODE_CARD, type ExecuteCodeSlot, executeCodePart } from "./selectors.js";

export { EXECUTE_CODE_CARD, EXECUTE_CODE_SLOTS, executeCodePart, type ExecuteCodeSlot } from "./selectors.js";

/** Every `execute_code` card on the page, in order. */
export function executeCodeCards(page: Page): Locator {
  return page.locator(EXECUTE_CODE_CARD);
}

export interface ExecuteCodeCardHandle {
  root: Locator;
  /** The program's text (line numbers are not part of it). */
  code: Locator;
  stdout: Locator;
  stderr: Locator;
  exit: Locator;
  status: Locator;
  message: Locator;
  /** What the program is about (the model's title, or its first comment), the card's title. */
  title: Locator;
  /** A failed run's exception ("ZeroDivisionError: division by zero"), in the header. */
  error: Locator;
  /** The card's phase, from `data-phase`. */
  phase(): Promise<ExecuteCodePhase>;
  /** The exit code from `data-exit-code`, or null when there is none. */
  exitCode(): Promise<number | null>;
  /**
   * The text of a stream as printed (a traceback's folded frames included), empty when the program printed
   * nothing on it (the card then shows no pane).
   */
  text(stream: "stdout" | "stderr"): Promise<string>;
  /** Waits until a stream's pane holds `text`: live output while the program runs, or the final output. */
  waitForOutput(stream: "stdout" | "stderr", text: string | RegExp, options?: { timeout?: number }): Promise<void>;
  /** Waits until the card reaches one of the phases. */
  waitForPhase(phase: ExecuteCodePhase | ExecuteCodePhase[], options?: { timeout?: number }): Promise<void>;
  /** Waits until the call has ended, whichever way, and says which: a test then fails on the phase, not a timeout. */
  waitForEnd(options?: { timeout?: number }): Promise<ExecuteCodePhase>;
}

/** The card of the latest `execute_code` call (or of the one at `index`), read through the public DOM contract. */
export function executeCodeCard(page: Page, index?: number): ExecuteCodeCardHandle {
  const cards = executeCodeCards(page);
  const root = index === undefined ? cards.last() : cards.nth(index);
  const slot = (name: ExecuteCodeSlot) => root.locator(executeCodePart(name));
  const phase = async () => (await root.getAttribute("data-phase")) as ExecuteCodePhase;
  const waitForPhase = async (wanted: ExecuteCodePhase | ExecuteCodePhase[], options?: { timeout?: number }) => {
    const selector = [wanted]
      .flat()
      .map((p) => `[data-phase="${p}"]`)
      .join(", ");
    await root.and(root.page().locator(selector)).waitFor({ timeout: options?.timeout });
  };
  return {
    root,
    code: slot("source").locator("code"),
    stdout: slot("stdout"),
    stderr: slot("stderr"),
    exit: slot("exit"),
    status: slot("status"),
    message: slot("message"),
    title: slot("title"),
    error: slot("error").locator("code"),
    phase,
    async exitCode() {
      if (!(await slot("exit").count())) return null;
      const value = await slot("exit").getAttribute("data-exit-code");
      return value === null ? null : Number(value);
    },
    async text(stream) {
      const pane = slot(stream);
      if (!(await pane.count())) return "";
      // As printed: a traceback's folded frames included, the card's line that folds them not.
      return pane.locator("pre").evaluate((pre: HTMLElement) => {
        if (!pre.querySelector("[data-fold]")) return pre.innerText;
        const copy = pre.cloneNode(true) as HTMLElement;
        for (const fold of copy.querySelectorAll("[data-fold]")) fold.remove();
        for (const folded of copy.querySelectorAll("[data-folded]")) folded.removeAttribute("hidden");
        copy.style.cssText = "position: fixed; left: -100000px; top: 0";
        pre.after(copy);
        try {
          return copy.innerText;
        } finally {
          copy.remove();
        }
      });
    },
    async waitForOutput(stream, text, options) {
      await slot(stream).locator("pre", { hasText: text }).waitFor({ timeout: options?.timeout });
    },
    waitForPhase,
    async waitForEnd(options) {
      await waitForPhase([...ENDED_PHASES], options);
      return phase();
    },
  };
}
