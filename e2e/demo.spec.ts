import { expect, test, type Locator, type Page } from "@playwright/test";
import { EXECUTE_CODE_CARD, executeCodeCard, executeCodePart } from "../src/testing";
import { at, openSettings, python, send } from "./helpers";
import { PORTS } from "./playwright.config";

// The demo page as a student sees it: its scheme, its header and composer, and how the thread follows a run.

const DARK_PAGE = "rgb(1, 4, 9)";
const LIGHT_PAGE = "rgb(255, 255, 255)";
const DARK_CARD = "rgb(13, 17, 23)";
const LIGHT_CARD = "rgb(255, 255, 255)";

const backgroundOf = (locator: Locator) => locator.evaluate((el) => getComputedStyle(el).backgroundColor);
const pageBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const heightOf = async (locator: Locator) => (await locator.boundingBox())!.height;

/** A program of 6 lines that fails in a function, with a traceback of two frames. */
const MEAN_OF_NOTHING = [
  "def mean(values):",
  "    return sum(values) / len(values)",
  "",
  "scores = []",
  'print("scores:", scores)',
  "print(mean(scores))",
].join("\n");

/** A program of 12 lines that prints 120 lines as it goes: more than the thread shows. */
const LONG_PRINTER = [
  "import time",
  "total = 0",
  "for n in range(120):",
  "    total += n",
  '    print("line", n, "total", total, flush=True)',
  "    if n % 20 == 0:",
  "        time.sleep(0.05)",
  'print("done")',
  'print("sum", total)',
  'print("mean", total / 120)',
  'print("last", n)',
  'print("end")',
].join("\n");

test.describe("the demo page", () => {
  test("follows the system's dark scheme, page and card, until the student picks one; the pick stays", async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(at(PORTS.main));
    await page.getByRole("button", { name: "Add up the numbers from 1 to 100" }).click();
    const card = executeCodeCard(page);
    await card.waitForPhase("succeeded");
    expect(await pageBackground(page)).toBe(DARK_PAGE);
    expect(await backgroundOf(card.root)).toBe(DARK_CARD);
    await expect((await openSettings(page)).getByRole("combobox", { name: "Colour scheme" })).toHaveValue("system");

    // The student picks light: it wins over the system's dark, after a reload too.
    await (await openSettings(page)).getByRole("combobox", { name: "Colour scheme" }).selectOption("Light");
    expect(await pageBackground(page)).toBe(LIGHT_PAGE);
    expect(await backgroundOf(card.root)).toBe(LIGHT_CARD);
    await page.reload();
    await executeCodeCard(page).waitForPhase("succeeded");
    expect(await pageBackground(page)).toBe(LIGHT_PAGE);
    expect(await backgroundOf(executeCodeCard(page).root)).toBe(LIGHT_CARD);

    // Back to the system's: dark again, and it follows the system as it changes.
    await (await openSettings(page)).getByRole("combobox", { name: "Colour scheme" }).selectOption("As the system");
    expect(await backgroundOf(executeCodeCard(page).root)).toBe(DARK_CARD);
    await page.emulateMedia({ colorScheme: "light" });
    expect(await pageBackground(page)).toBe(LIGHT_PAGE);
    expect(await backgroundOf(executeCodeCard(page).root)).toBe(LIGHT_CARD);
  });

  test("Jump to latest sits beside the message box, covering nothing of the thread, light and dark", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(at(PORTS.main));
    for (let i = 0; i < 2; i++) {
      await send(page, python(`for n in range(40):\n    print("run ${i}", n)`));
      expect(await executeCodeCard(page, i).waitForEnd()).toBe("succeeded");
    }
    const thread = page.getByRole("region", { name: "Conversation" });
    await thread.evaluate((log) => log.scrollTo({ top: 0 }));
    const jump = page.getByRole("button", { name: "Jump to latest" });
    await expect(jump).toBeVisible();
    // A thumb's target in the composer's row: below the thread, over none of it.
    const box = (await jump.boundingBox())!;
    const threadBox = (await thread.boundingBox())!;
    const message = (await page.getByRole("textbox", { name: "Message" }).boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(44);
    expect(box.width).toBeLessThan(56);
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.y).toBeGreaterThanOrEqual(threadBox.y + threadBox.height);
    expect(box.x + box.width).toBeLessThanOrEqual(message.x);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const [background, color] = await jump.evaluate((el) => {
        const style = getComputedStyle(el);
        return [style.backgroundColor, style.color];
      });
      // rgb(), not rgba(): solid in either scheme.
      expect(background, scheme).toMatch(/^rgb\(/);
      expect(background, scheme).not.toBe(color);
      expect(background, scheme).toBe(scheme === "dark" ? "rgb(21, 27, 35)" : "rgb(255, 255, 255)");
    }
    await jump.click();
    await expect(jump).toBeHidden();
    await expect(executeCodeCard(page, 1).root).toBeInViewport();
  });

  test("the example prompts show in an empty chat only", async ({ page }) => {
    await page.goto(at(PORTS.main));
    const examples = page.getByRole("list", { name: "Example prompts" });
    await expect(examples).toBeVisible();
    await page.getByRole("button", { name: "Add up the numbers from 1 to 100" }).click();
    await expect(examples).toHaveCount(0);
    await executeCodeCard(page).waitForPhase("succeeded");
    await expect(examples).toHaveCount(0);
    await page.reload();
    await executeCodeCard(page).waitForPhase("succeeded");
    await expect(examples).toHaveCount(0);
    await page.getByRole("button", { name: "New chat" }).click();
    await expect(examples).toBeVisible();
  });

  test("the desktop composer is one line, grows with the message up to a cap, and keeps its height over a send", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(at(PORTS.main));
    const box = page.getByRole("textbox", { name: "Message" });
    const composer = page.locator(".demo-composer");
    const lineHeight = await box.evaluate((el) => Number.parseFloat(getComputedStyle(el).lineHeight));
    expect(await heightOf(box)).toBeLessThan(lineHeight * 2);
    const oneLine = await heightOf(composer);

    // It grows with a long message, up to a cap that leaves the thread most of the screen.
    await box.fill(python(Array.from({ length: 30 }, (_, i) => `print(${i})`).join("\n")));
    expect(await heightOf(box)).toBeGreaterThan(lineHeight * 4);
    expect(await heightOf(box)).toBeLessThan(800 / 2.5);
    await box.fill("");
    expect(Math.abs((await heightOf(composer)) - oneLine)).toBeLessThan(1);

    // A one-line message: the composer's height stays the same as it is typed, sent and answered.
    await page.evaluate(() => {
      const heights: number[] = [];
      (window as unknown as { composerHeights: number[] }).composerHeights = heights;
      const composer = document.querySelector(".demo-composer")!;
      new ResizeObserver(() => heights.push(composer.getBoundingClientRect().height)).observe(composer);
    });
    await send(page, "Add up the numbers from 1 to 100");
    await executeCodeCard(page).waitForPhase("succeeded");
    await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
    expect(Math.abs((await heightOf(composer)) - oneLine)).toBeLessThan(1);
    const heights = await page.evaluate(() => (window as unknown as { composerHeights: number[] }).composerHeights);
    expect(heights.length).toBeGreaterThan(0);
    for (const height of heights) expect(Math.abs(height - oneLine)).toBeLessThan(1);
  });

  test("on a phone the composer's hints are one short line, and a screen reader still hears them whole", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 700 });
    await page.goto(at(PORTS.main));
    const hints = page.locator(".demo-composer .demo-composer-hint");
    await expect(hints).toHaveCount(1);
    const fontSize = await hints.evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));
    expect(await heightOf(hints)).toBeLessThan(fontSize * 2);
    await expect(page.getByRole("textbox", { name: "Message" })).toHaveAccessibleDescription(
      "Enter sends · Shift+Enter adds a line",
    );
    await expect(page.getByRole("button", { name: "Attach files" })).toHaveAccessibleDescription(
      /^Attach .* files \(or drop them here\): up to 10 MB each, 5 a message, 20 MB a chat\.$/,
    );
  });

  test("no typing dot sits under a card while it runs: the card shows its own progress", async ({ page }) => {
    await page.goto(at(PORTS.main));
    // Every moment a message holds a card that is being written or runs and, after it, the runtime's typing dot.
    // (The dot at the end of the model's streaming reply, once the program ended, is the reply's own.)
    await page.evaluate((cardSelector) => {
      const seen: string[] = [];
      (window as unknown as { dots: string[] }).dots = seen;
      new MutationObserver(() => {
        for (const message of document.querySelectorAll(".demo-message")) {
          const card = message.querySelector(cardSelector);
          const phase = card?.getAttribute("data-phase");
          if (phase !== "writing" && phase !== "running") continue;
          let after = card?.nextElementSibling ?? null;
          while (after) {
            if (after.textContent?.includes("●")) seen.push(phase);
            after = after.nextElementSibling;
          }
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    }, EXECUTE_CODE_CARD);
    // The demo's tick program, with shorter pauses: this instance stops runs after 3 s.
    await send(page, python('import time\nfor i in range(3):\n    print("tick", i, flush=True)\n    time.sleep(0.5)'));
    const card = executeCodeCard(page);
    await card.waitForOutput("stdout", "tick 1");
    expect(await card.root.getAttribute("data-phase")).toBe("running");
    await card.waitForPhase("succeeded");
    expect(await page.evaluate(() => (window as unknown as { dots: string[] }).dots)).toEqual([]);
  });

  test("the header is one line at any width, and the settings open from it", async ({ page }) => {
    await page.goto(at(PORTS.main));
    const header = page.locator(".demo-header");
    // One line: every part of the header shown shares one band of height.
    const oneLine = () =>
      header.evaluate((el) => {
        const parts = [...el.children].map((child) => child.getBoundingClientRect()).filter((box) => box.height > 0);
        return Math.max(...parts.map((box) => box.top)) < Math.min(...parts.map((box) => box.bottom));
      });
    for (const width of [1280, 900, 640, 375, 320]) {
      await page.setViewportSize({ width, height: 720 });
      expect(await oneLine(), `the header at ${width} px`).toBe(true);
    }
    await page.setViewportSize({ width: 1280, height: 720 });
    expect(await heightOf(header)).toBeLessThan(60);
    const settings = await openSettings(page);
    await expect(settings.getByRole("checkbox", { name: "Ask before running code" })).toBeVisible();
    await expect(settings.getByRole("radio", { name: "on the server sandbox" })).toBeChecked();
    await page.keyboard.press("Escape");
    await expect(settings).toBeHidden();
  });

  test("at 1280 × 720, following a long run keeps the newest card's header below the demo's header", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(at(PORTS.main));

    // Each frame: how far the newest card's top is below the header's bottom (negative: under it).
    await page.evaluate((cardSelector) => {
      const gaps: number[] = [];
      (window as unknown as { gaps: number[] }).gaps = gaps;
      const header = document.querySelector(".demo-header")!;
      const sample = () => {
        const cards = document.querySelectorAll(cardSelector);
        const card = cards[cards.length - 1];
        if (card) gaps.push(card.getBoundingClientRect().top - header.getBoundingClientRect().bottom);
        requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    }, EXECUTE_CODE_CARD);
    await send(page, python(LONG_PRINTER));
    const card = executeCodeCard(page);
    await card.waitForOutput("stdout", "line 60");
    expect(await card.waitForEnd()).toBe("succeeded");
    await expect(page.getByText("The program ran without errors.")).toBeAttached();
    const gaps = await page.evaluate(() => (window as unknown as { gaps: number[] }).gaps);
    expect(gaps.length).toBeGreaterThan(10);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(0);
    // The thread did follow: the card is as high as it may go, its title, phase and exit in view.
    expect(gaps.at(-1)).toBeLessThan(40);
    await expect(card.title).toBeInViewport();
    await expect(card.status).toBeInViewport();
    // The output goes on below the window: Jump to latest shows the rest, and the header still stays clear.
    const jump = page.getByRole("button", { name: "Jump to latest" });
    await expect(jump).toBeVisible();
    await jump.click();
    await expect(jump).toBeHidden();
  });

  test("at 1280 × 800, after a traceback the card's why and the tutor's reply are both in view", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(at(PORTS.main));
    await send(page, python(MEAN_OF_NOTHING));
    const card = executeCodeCard(page);
    expect(await card.waitForEnd()).toBe("failed");
    const reply = page.getByText("The program stopped with an error.", { exact: false });
    await expect(reply).toBeVisible();
    // The thread went on past the card's title as far as the words that say why, so the reply starts in view.
    await expect(card.root.locator(executeCodePart("explanation"))).toBeInViewport({ ratio: 1 });
    await expect(reply).toBeInViewport();
  });
});

test.describe("the demo page, running code in this browser", () => {
  // Pyodide starts in the page's own worker: its first load takes minutes on a crowded machine.
  test.setTimeout(240_000);

  test("the composer shows Stop while a program runs in the page, and Stop ends it", async ({ page }) => {
    await page.goto(at(PORTS.main));
    await (await openSettings(page)).getByRole("radio", { name: "in this browser" }).check();
    await expect(page.locator('.demo-thread[data-run-where="browser"]')).toBeVisible();
    // The browser's Python has no matplotlib: the plot example is the server's alone.
    const examples = page.getByRole("list", { name: "Example prompts" });
    await expect(examples.getByRole("button", { name: "Loop forever" })).toBeVisible();
    await expect(examples.getByRole("button", { name: /^Plot the squares/ })).toHaveCount(0);
    await send(page, python('print("before the loop", flush=True)\nwhile True:\n    pass'));
    const card = executeCodeCard(page);
    await expect(card.stdout).toContainText("before the loop", { timeout: 200_000 });
    const composer = page.locator(".demo-composer");
    const stop = composer.getByRole("button", { name: "Stop", exact: true });
    await expect(stop).toBeVisible();
    await expect(composer.getByRole("button", { name: "Send" })).toHaveCount(0);
    await stop.click();
    await card.waitForPhase("cancelled");
    await expect(card.root.locator(`button${executeCodePart("stop")}`)).toHaveCount(0);
    await expect(composer.getByRole("button", { name: "Send" })).toBeVisible();
    await send(page, python("print(6 * 7)"));
    const next = executeCodeCard(page, 1);
    expect(await next.waitForEnd({ timeout: 200_000 })).toBe("succeeded");
    expect(await next.text("stdout")).toBe("42\n");
  });
});
