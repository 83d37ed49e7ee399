import { expect, test } from "@playwright/test";
import { executeCodeCard, executeCodeCards } from "../src/testing";
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
  // The title has the first line to itself; the phase, the time and the fold control share the next.
  const [title, status, trigger] = await Promise.all(
    ["title", "status", "trigger"].map(
      async (name) => (await card.locator(`[data-slot="execute-code-${name}"]`).boundingBox())!,
    ),
  );
  expect(status!.y).toBeGreaterThanOrEqual(title!.y + title!.height - 1);
  expect(Math.abs(trigger!.y + trigger!.height / 2 - (status!.y + status!.height / 2))).toBeLessThan(8);
});

test("on a touch screen the demo's own controls are 44 px targets too: header, examples, chats, settings, composer", async ({
  page,
}) => {
  await page.goto(at(PORTS.main));
  await expect(page.getByRole("button", { name: "Settings" })).toBeVisible();
  const small = () =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>("button, a[href], summary, select, textarea, label")]
        .filter((target) => !target.closest("[data-slot=execute-code]") && target.getClientRects().length > 0)
        // Not the message box's hidden twin that measures its height.
        .filter((target) => getComputedStyle(target).visibility !== "hidden" && target.ariaHidden !== "true")
        .map((target) => ({ target, box: target.getBoundingClientRect() }))
        .filter(({ box }) => box.height < 44 || box.width < 44)
        .map(({ target, box }) => `${target.tagName} "${target.textContent?.trim()}" ${box.width}×${box.height}`),
    );
  expect(await small()).toEqual([]);
  // An attached file: its chip's remove button in the composer, then its link in the student's message.
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: /^Attach/ }).click();
  await (await chooser).setFiles([{ name: "scores.csv", mimeType: "text/csv", buffer: Buffer.from("a,b\n1,2\n") }]);
  await expect(page.locator('[data-slot="execute-code-attachment"][data-state="ready"]')).toBeVisible();
  expect(await small()).toEqual([]);
  // Two chats make the list of this browser's chats.
  await send(page, python('print("one")'));
  await expect(page.locator('.demo-message[data-role="user"] [data-slot="execute-code-attachment"] a')).toBeVisible();
  expect(await small()).toEqual([]);
  await executeCodeCard(page).waitForPhase("succeeded");
  await page.getByRole("button", { name: "New chat" }).click();
  await expect(executeCodeCards(page)).toHaveCount(0);
  await send(page, python('print("two")'));
  await executeCodeCard(page).waitForPhase("succeeded");
  await page.getByText(/^Your chats \(2\)$/).click();
  await expect(page.getByRole("navigation", { name: "Chats" }).getByRole("button")).toHaveCount(2);
  await page.getByRole("button", { name: "Settings" }).click();
  await expect(page.getByRole("group", { name: "Settings" })).toBeVisible();
  expect(await small()).toEqual([]);
});

test("a traceback's line links on a touch screen keep its lines evenly spaced", async ({ page }) => {
  await page.goto(at(PORTS.main));
  await send(page, python(DRAWS_THEN_FAILS));
  const stderr = executeCodeCard(page, 0).root.locator('[data-slot="execute-code-stderr"] pre');
  await expect(stderr.locator(".ecu-frame-link").first()).toBeVisible({ timeout: 30_000 });
  // A pre of n lines is n line-heights tall (and its padding): the 44 px links took no room of their own.
  const { height, lines, lineHeight, padding } = await stderr.evaluate((pre) => {
    const style = getComputedStyle(pre);
    return {
      height: pre.scrollHeight,
      lines: pre.textContent!.replace(/\n$/, "").split("\n").length,
      lineHeight: Number.parseFloat(style.lineHeight),
      padding: Number.parseFloat(style.paddingTop) + Number.parseFloat(style.paddingBottom),
    };
  });
  expect(height).toBeLessThanOrEqual(lines * lineHeight + padding + 2);
});

test("Enlarge on a phone fills the screen with the figure at its own size, larger than in the card", async ({
  page,
}) => {
  await page.goto(at(PORTS.main));
  await send(page, python(DRAWS_THEN_FAILS));
  const card = executeCodeCard(page, 0).root;
  const figure = card.locator("img");
  await expect(figure).toBeVisible({ timeout: 30_000 });
  const inCard = (await figure.boundingBox())!.width;
  await card.getByRole("button", { name: /Enlarge the figure/ }).click();
  const dialog = page.getByRole("dialog");
  const large = dialog.getByRole("img");
  await expect.poll(() => large.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(640);
  expect(await dialog.boundingBox()).toMatchObject({ x: 0, y: 0, width: 375, height: 740 });
  expect((await large.boundingBox())!.width).toBe(640);
  expect(inCard).toBeLessThan(375);
  // The figure pans sideways inside the dialog; the page itself does not scroll.
  expect(await dialog.locator(".ecu-figure-dialog-body").evaluate((body) => body.scrollWidth > body.clientWidth)).toBe(
    true,
  );
  // It opens at its middle, not its left half: room to pan either way.
  const { left, middle } = await dialog
    .locator(".ecu-figure-dialog-body")
    .evaluate((body) => ({ left: body.scrollLeft, middle: (body.scrollWidth - body.clientWidth) / 2 }));
  expect(Math.abs(left - middle)).toBeLessThanOrEqual(1);
  // A phone shows no scrollbar: the dialog says that the figure goes on past its edges.
  await expect(dialog.getByText("Drag to see the whole figure; pinch to zoom.")).toBeInViewport();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
});

test("on a phone a finished run's plot is in view, not below the fold under 13 lines of code and output", async ({
  page,
}) => {
  await page.goto(at(PORTS.main));
  const program = [
    "# Squares, printed and drawn",
    "import matplotlib.pyplot as plt",
    "squares = [n * n for n in range(1, 11)]",
    ...Array.from({ length: 8 }, (_, n) => `print(${n + 1}, squares[${n}])`),
    "plt.plot(squares)",
    "plt.show()",
  ].join("\n");
  await send(page, python(program));
  const figure = executeCodeCard(page, 0).root.locator("img");
  await expect(figure).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => figure.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(640);
  // The whole plot, without the student scrolling.
  await expect(figure).toBeInViewport({ ratio: 1 });
});
