import { expect, test } from "@playwright/test";
import { executeCodeCard, executeCodePart } from "execute-code-ui/testing";
import { at, python, send } from "./helpers";
import { PORTS } from "./playwright.config";

/** The seconds the card's clock shows ("4 s / 60 s" reads 4). */
const seconds = async (page: import("@playwright/test").Page) =>
  Number(
    /^(\d+) s/.exec((await executeCodeCard(page).root.locator(executeCodePart("timing")).textContent()) ?? "")?.[1],
  );

test("a reload in the middle of a run: the clock goes on from the run's start, not from 0", async ({ page }) => {
  // An instance with the default time limit (10 s, not the main one's 3 s): the run outlasts a reload on a busy machine.
  await page.goto(at(PORTS.shortApproval));
  // Prints once, then is silent: no output after the reload says how long it has run.
  await send(page, python('import time\nprint("started", flush=True)\ntime.sleep(8)\nprint("done")'));
  const card = executeCodeCard(page);
  await card.waitForOutput("stdout", "started");
  await expect.poll(() => seconds(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
  const before = await seconds(page);
  await page.reload();
  await expect(executeCodeCard(page).root).toHaveAttribute("data-phase", "running");
  // On from what it read before the reload, not from 0 (the reload itself takes a moment or two).
  const after = await seconds(page);
  expect(after).toBeGreaterThanOrEqual(before);
  expect(after).toBeLessThanOrEqual(before + 4);
  expect(await executeCodeCard(page).waitForEnd({ timeout: 30_000 })).toBe("succeeded");
});
