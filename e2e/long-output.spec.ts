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
    /^Showing the first [\d,]+ and the last [\d,]+ of 50,000 lines of stdout\.$/,
  );
});

test("a program that floods its output shows its newest lines while it runs, not a frozen start", async ({ page }) => {
  await page.goto(at(PORTS.main));
  // Past the sandbox's live budget (a million characters): only the newest characters are sent on.
  await send(
    page,
    python("import time\nfor i in range(300_000):\n    print('line', i)\nprint('the end', flush=True)\ntime.sleep(5)"),
  );
  const card = executeCodeCard(page);
  const stdout = card.root.locator(executeCodePart("stdout"));
  await expect(stdout).toContainText("the end", { timeout: 60_000 });
  // Still running: the end came live, not with the result.
  expect(await card.phase()).toBe("running");
  expect((await card.text("stdout")).trimEnd().endsWith("line 299999\nthe end")).toBe(true);
});
