import { expect, test } from "@playwright/test";
import { executeCodeCard } from "../src/testing";
import { at, python, send } from "./helpers";
import { PORTS } from "./playwright.config";

// A student on a phone: a thumb is the pointer, so every target in a card is at least 44 px.

test.use({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });

const DRAWS_THEN_FAILS = [
  "import matplotlib.pyplot as plt",
  "plt.plot([1, 4, 9])",
  'plt.title("squares")',
  "plt.show()",
  "def mean(values):",
  "    return sum(values) / len(values)",
  "print(mean([]))",
].join("\n");

test("on a touch screen every button and link of a card is a 44 px target", async ({ page }) => {
  await page.goto(at(PORTS.main));
  expect(await page.evaluate(() => matchMedia("(pointer: coarse)").matches)).toBe(true);
  await send(page, python(DRAWS_THEN_FAILS));
  const card = executeCodeCard(page, 0).root;
  await expect(card).toHaveAttribute("data-phase", "failed", { timeout: 30_000 });
  await expect(card.locator("img")).toBeVisible();
  await expect(card.locator(".ecu-frame-link").first()).toBeVisible();
  const small = await card.evaluate((root) =>
    [...root.querySelectorAll<HTMLElement>("button, a[href]")]
      .filter((target) => target.getClientRects().length > 0)
      .map((target) => ({ target, box: target.getBoundingClientRect() }))
      .filter(({ box }) => box.height < 44 || box.width < 44)
      .map(({ target, box }) => `${target.className} "${target.textContent}" ${box.width}×${box.height}`),
  );
  expect(small).toEqual([]);
});
