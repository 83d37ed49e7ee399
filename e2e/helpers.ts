import type { Page } from "@playwright/test";
import { EXECUTE_CODE_CARD } from "../src/testing";

export const at = (port: number) => `http://127.0.0.1:${port}/`;

/** A chat message with a fenced Python block, which the scripted model runs as written. */
export const python = (code: string) => `Run this please:\n\`\`\`python\n${code}\n\`\`\``;

export async function send(page: Page, text: string) {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

/** Records every phase the first card shows, however briefly. */
export async function recordPhases(page: Page) {
  await page.evaluate((cardSelector) => {
    const seen: string[] = [];
    (window as unknown as { phases: string[] }).phases = seen;
    const note = (phase: string | null | undefined) => {
      if (phase && seen.at(-1) !== phase) seen.push(phase);
    };
    // Every phase the first card had, from the records' old values: on a busy machine one callback sees several changes.
    new MutationObserver((records) => {
      const card = document.querySelector(cardSelector);
      for (const record of records) if (record.type === "attributes" && record.target === card) note(record.oldValue);
      note(card?.getAttribute("data-phase"));
    }).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["data-phase"],
      attributeOldValue: true,
    });
  }, EXECUTE_CODE_CARD);
  return () => page.evaluate(() => (window as unknown as { phases: string[] }).phases);
}

/** Opens the demo's settings (colour scheme, Ask before running code, where code runs) from its header, if closed. */
export async function openSettings(page: Page) {
  const settings = page.getByRole("group", { name: "Settings" });
  if (!(await settings.isVisible())) await page.getByRole("button", { name: "Settings" }).click();
  return settings;
}
