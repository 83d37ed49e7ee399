import { expect, test } from "@playwright/test";
import { executeCodeCard, executeCodePart } from "../src/testing";
import { at, python, send } from "./helpers";
import { PORTS } from "./playwright.config";

test("50,000 printed lines keep their last line: the card shows it, and says how much is between", async ({ page }) => {
  await page.goto(at(PORTS.main));
  await send(page, python("for i in range(50_000):\n    print('line', i)"));
  const card = executeCodeCard(page);
  expect(await card.waitForEnd({ timeout: 60_000 })).toBe("succeeded");
  // The start and the end, as a terminal keeps the latest lines; the end is where a loop says what went wrong.
  const stdout = await card.text("stdout");
  expect(stdout.startsWith("line 0\n")).toBe(true);
  expect(stdout.trimEnd().endsWith("line 49999")).toBe(true);
  await expect(card.root.locator(executeCodePart("cut"))).toHaveText(/^⋯ [\d,]+ lines not kept ⋯$/);
  await expect(card.root.locator(executeCodePart("truncated"))).toHaveText(
    /^The program printed 50,000 lines of output; the first [\d,]+ and the last [\d,]+ were kept\.$/,
  );
});

test("a program that floods its output shows its newest lines while it runs, not a frozen start", async ({ page }) => {
  await page.goto(at(PORTS.main));
  // Noted in the page as it happens: whether the card showed the program's end while it still ran.
  await page.evaluate(() => {
    const noted = window as unknown as { endWhileRunning?: string };
    new MutationObserver(() => {
      const card = document.querySelector("[data-slot=execute-code]");
      const stdout = card?.querySelector("[data-slot=execute-code-stdout]")?.textContent ?? "";
      if (card?.getAttribute("data-phase") === "running" && stdout.includes("the end"))
        noted.endWhileRunning ??= stdout;
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  // Past the sandbox's live budget (a million characters) only the newest characters are sent on; the dots
  // after the end are writes, at which an interpreter without a timer of its own (Pyodide) sends its latest.
  await send(
    page,
    python(
      "import time\nfor i in range(120_000):\n    print('line', i)\nprint('the end', flush=True)\nfor _ in range(4):\n    time.sleep(0.2)\n    print('.', end='', flush=True)",
    ),
  );
  const card = executeCodeCard(page);
  await card.waitForEnd({ timeout: 60_000 });
  const shown = await page.evaluate(() => (window as unknown as { endWhileRunning?: string }).endWhileRunning);
  expect(shown).toContain("line 119999\nthe end");
});
