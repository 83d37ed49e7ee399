import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { EXECUTE_CODE_CARD, executeCodeCard, executeCodeCards, executeCodePart } from "../src/testing";
import { at, openSettings, python, recordPhases, send } from "./helpers";
import { PORTS } from "./playwright.config";

test.describe("the harness demo, as a person uses it", () => {
  test("a fenced Python block runs for real and its output appears in the card", async ({ page }) => {
    await page.goto(at(PORTS.main));
    const code = "import math\nfor n in range(1, 6):\n    print(n, math.factorial(n))";
    await send(page, python(code));
    const card = executeCodeCard(page);
    await card.waitForPhase("succeeded");
    expect(await card.text("stdout")).toBe("1 1\n2 2\n3 6\n4 24\n5 120\n");
    expect(await card.text("stderr")).toBe("");
    expect(await card.exitCode()).toBe(0);
    await expect(card.status).toHaveText(/^Finished\s*exit 0$/);
    await expect(card.code).toHaveText(`${code}\n`, { useInnerText: true });
    // Neither a title nor a comment: the card is "Python", not "import math".
    await expect(card.title).toHaveText("Python");
    await expect(page.getByText("The program ran without errors. Its first line of output is: 1 1")).toBeVisible();
    // A screen reader hears that the tutor replied once its turn ends; the thread is no live log that would read the
    // card's whole program, and no live region holds the program.
    await expect(page.locator('p[aria-live="polite"]')).toHaveText("The tutor has replied.");
    await expect(page.getByRole("log")).toHaveCount(0);
    for (const region of await page.locator('[aria-live]:not([aria-live="off"])').all())
      await expect(region).not.toContainText("math.factorial");
  });

  test("Enter sends, and Shift+Enter adds a line, as in the chat apps students use", async ({ page }) => {
    await page.goto(at(PORTS.main));
    await expect(page.getByRole("textbox", { name: "Message" })).toHaveAccessibleDescription(
      "Enter sends · Shift+Enter adds a line",
    );
    const box = page.getByRole("textbox", { name: "Message" });
    await box.click();
    for (const [i, line] of ["```python", "print(6 * 7)", "```"].entries()) {
      if (i > 0) await page.keyboard.press("Shift+Enter");
      await page.keyboard.type(line);
    }
    await expect(box).toHaveValue("```python\nprint(6 * 7)\n```");
    await page.keyboard.press("Enter");
    const card = executeCodeCard(page);
    expect(await card.waitForEnd()).toBe("succeeded");
    expect(await card.text("stdout")).toBe("42\n");
  });

  test("the newest card stays in view as the thread grows; scrolled up, Jump to latest brings it back", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(at(PORTS.main));
    for (let i = 0; i < 3; i++) {
      await send(page, python(`for n in range(25):\n    print("run ${i}", n)`));
      const card = executeCodeCard(page, i);
      expect(await card.waitForEnd()).toBe("succeeded");
      await expect(card.root).toBeInViewport();
    }
    const jump = page.getByRole("button", { name: "Jump to latest" });
    await expect(jump).toBeHidden();
    await page.getByRole("region", { name: "Conversation" }).evaluate((log) => log.scrollTo({ top: 0 }));
    await expect(jump).toBeVisible();
    await expect(executeCodeCard(page, 2).root).not.toBeInViewport();
    await jump.click();
    await expect(executeCodeCard(page, 2).root).toBeInViewport();
    await expect(jump).toBeHidden();
    // The button is gone: the focus went on to the message box, not back to the start of the page.
    await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused();
  });

  test("the card shows the writing phase while the model streams the program, then runs it", async ({ page }) => {
    await page.goto(at(PORTS.main));
    const phases = await recordPhases(page);
    await send(page, python(`print("${"streamed ".repeat(60)}")`));
    await executeCodeCard(page).waitForPhase("succeeded");
    expect(await phases()).toEqual(["writing", "running", "succeeded"]);
  });

  test("a program that prints as it goes shows each line while it still runs", async ({ page }) => {
    await page.goto(at(PORTS.main));
    // Record what the card shows at each change: its phase and its stdout so far.
    await page.evaluate(
      ({ cardSelector, stdoutSelector }) => {
        const seen: Array<{ phase: string | null; stdout: string }> = [];
        (window as unknown as { seen: typeof seen }).seen = seen;
        new MutationObserver(() => {
          const card = document.querySelector(cardSelector);
          if (!card) return;
          const state = {
            phase: card.getAttribute("data-phase"),
            stdout: card.querySelector(`${stdoutSelector} pre`)?.textContent ?? "",
          };
          const last = seen.at(-1);
          if (last?.phase !== state.phase || last.stdout !== state.stdout) seen.push(state);
        }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      },
      { cardSelector: EXECUTE_CODE_CARD, stdoutSelector: executeCodePart("stdout") },
    );
    // The demo's tick program, with shorter pauses: this instance stops runs after 3 s.
    await send(page, python('import time\nfor i in range(3):\n    print("tick", i, flush=True)\n    time.sleep(0.5)'));
    const card = executeCodeCard(page);
    await card.waitForOutput("stdout", "tick 0");
    await card.waitForPhase("succeeded");
    const seen = await page.evaluate(
      () => (window as unknown as { seen: Array<{ phase: string; stdout: string }> }).seen,
    );
    // In order: "tick 0" alone while running, then more, then the finished card.
    const firstTick = seen.findIndex((s) => s.phase === "running" && s.stdout === "tick 0\n");
    const succeeded = seen.findIndex((s) => s.phase === "succeeded");
    expect(firstTick).toBeGreaterThanOrEqual(0);
    expect(succeeded).toBeGreaterThan(firstTick);
    expect(seen.slice(firstTick, succeeded).some((s) => s.stdout === "tick 0\ntick 1\n")).toBe(true);
    // The finished card is what a run without streaming shows.
    expect(await card.text("stdout")).toBe("tick 0\ntick 1\ntick 2\n");
    expect(await card.exitCode()).toBe(0);
  });

  test("a traceback shows on stderr with exit 1, the error leads in the header, and its frames point at the code", async ({
    page,
  }) => {
    await page.goto(at(PORTS.main));
    await page.getByRole("button", { name: "Show me a real traceback" }).click();
    const card = executeCodeCard(page);
    await card.waitForPhase("failed");
    expect(await card.exitCode()).toBe(1);
    await expect(card.error).toHaveText("ZeroDivisionError: division by zero");
    await expect(card.root.locator(`${executeCodePart("header")} ${executeCodePart("error")}`)).toBeVisible();
    // The line it raised on is marked before any click.
    await expect(card.code.locator("[data-error]")).toHaveAttribute("data-line", "2");
    expect(await card.text("stdout")).toBe("scores: []\n");
    const stderr = await card.text("stderr");
    expect(stderr).toContain('File "<program>", line 6, in <module>\n    print(mean(scores))\n');
    expect(stderr).toContain("ZeroDivisionError: division by zero");
    await card.stderr.getByRole("button", { name: "line 2" }).click();
    await expect(card.code.locator('[data-line="2"]')).toHaveAttribute("data-focused", "true");
    await expect(page.getByText("The error was: ZeroDivisionError: division by zero")).toBeVisible();
  });

  test("sys.exit(3) ends with exit code 3", async ({ page }) => {
    await page.goto(at(PORTS.main));
    await page.getByRole("button", { name: "Exit with code 3" }).click();
    const card = executeCodeCard(page);
    await card.waitForPhase("failed");
    // The model's title for the program heads its card.
    await expect(card.title).toHaveText("Leave with exit code 3");
    expect(await card.exitCode()).toBe(3);
    await expect(card.exit).toHaveText("exit 3");
    expect(await card.text("stdout")).toBe("leaving early\n");
  });

  test("an endless loop hits the time limit and says so", async ({ page }) => {
    await page.goto(at(PORTS.main));
    await send(page, python('print("before the loop")\nwhile True:\n    pass'));
    const card = executeCodeCard(page);
    await card.waitForPhase("running");
    await card.waitForPhase("timed-out");
    await expect(card.message).toHaveText(
      "Stopped after 3 s: the program ran too long. What it printed until then is below.",
    );
    expect(await card.text("stdout")).toBe("before the loop\n");
  });

  test("terminal colours are rendered, never shown as escape codes", async ({ page }) => {
    await page.goto(at(PORTS.main));
    await page.getByRole("button", { name: "Print a colourful report" }).click();
    const card = executeCodeCard(page);
    await card.waitForPhase("succeeded");
    const stdout = await card.text("stdout");
    expect(stdout).toBe("Report\npassed: 3\nfailed: 1\n");
    await expect(card.stdout.getByText("passed: 3")).toHaveAttribute("style", /--ecu-ansi-green/);
  });

  test("a program over 20,000 characters is refused with a clear error", async ({ page }) => {
    await page.goto(at(PORTS.main));
    await send(page, python(`x = "${"a".repeat(20_100)}"`));
    const card = executeCodeCard(page);
    await card.waitForPhase("error");
    await expect(card.message).toContainText("20,000 characters");
  });

  test("Stop in the card ends a server loop at once, the card keeps what it printed and says how long it ran, and the next run works", async ({
    page,
  }) => {
    await page.goto(at(PORTS.main));
    await send(page, python('print("before the loop", flush=True)\nwhile True:\n    pass'));
    const card = executeCodeCard(page);
    await expect(card.stdout).toContainText("before the loop");
    await expect(card.root.locator(executeCodePart("timing"))).toHaveText(/^\d+ s \/ 3 s$/);
    await card.root.locator(`button${executeCodePart("stop")}`).click();
    await card.waitForPhase("cancelled");
    expect(await card.text("stdout")).toBe("before the loop\n");
    // It says how long the program ran, without a reload: the page reads the chat the server settled.
    await expect(card.root.getByRole("timer", { name: /^Ran for / })).toHaveText(/^[\d.]+ (ms|s)$/);
    await send(page, python("print(6 * 7)"));
    const next = executeCodeCard(page, 1);
    await next.waitForPhase("succeeded");
    expect(await next.text("stdout")).toBe("42\n");
  });

  test("a reload during a run follows it: the card goes on to show the run finish with all its output", async ({
    page,
  }) => {
    await page.goto(at(PORTS.main));
    await send(page, python('import time\nfor i in range(15):\n    print("tick", i, flush=True)\n    time.sleep(0.1)'));
    await expect(executeCodeCard(page).stdout).toContainText("tick 1");
    await page.reload();
    const card = executeCodeCard(page);
    // Still running after the reload, then finished: the run went on without the page.
    await expect(card.root).toHaveAttribute("data-phase", /running|succeeded/);
    expect(await card.waitForEnd()).toBe("succeeded");
    expect(await card.text("stdout")).toBe(Array.from({ length: 15 }, (_, i) => `tick ${i}\n`).join(""));
    await expect(page.getByText("The program ran without errors. Its first line of output is: tick 0")).toBeVisible();
    // Nothing left spinning, and the chat goes on.
    await expect(card.root.locator(`button${executeCodePart("stop")}`)).toHaveCount(0);
    await send(page, python("print(6 * 7)"));
    const next = executeCodeCard(page, 1);
    expect(await next.waitForEnd()).toBe("succeeded");
    expect(await next.text("stdout")).toBe("42\n");
  });

  test("after a reload, Stop in the card still ends the server run it follows", async ({ page }) => {
    await page.goto(at(PORTS.main));
    await send(page, python('print("before the loop", flush=True)\nwhile True:\n    pass'));
    await expect(executeCodeCard(page).stdout).toContainText("before the loop");
    await page.reload();
    const card = executeCodeCard(page);
    await expect(card.stdout).toContainText("before the loop");
    await card.root.locator(`button${executeCodePart("stop")}`).click();
    expect(await card.waitForEnd()).toBe("cancelled");
    await send(page, python("print(6 * 7)"));
    const next = executeCodeCard(page, 1);
    expect(await next.waitForEnd()).toBe("succeeded");
    expect(await next.text("stdout")).toBe("42\n");
  });

  test("pressing stop while code runs cancels the call, and the next run works", async ({ page }) => {
    await page.goto(at(PORTS.main));
    await page.getByRole("button", { name: "Loop forever" }).click();
    const card = executeCodeCard(page);
    await card.waitForPhase("running");
    await page.getByRole("button", { name: "Stop", exact: true }).click();
    await card.waitForPhase("cancelled");
    await expect(card.message).toContainText(/cancelled|ended before/);
    await send(page, python("print(6 * 7)"));
    const next = executeCodeCard(page, 1);
    await next.waitForPhase("succeeded");
    expect(await next.text("stdout")).toBe("42\n");
  });

  test("a reload reopens the same chat, and an earlier chat opens from the list; another browser sees none of them", async ({
    page,
    browser,
  }) => {
    await page.goto(at(PORTS.main));
    await send(page, 'Primes\n```python\nprint("first chat")\n```');
    await executeCodeCard(page).waitForPhase("succeeded");
    await page.reload();
    await executeCodeCard(page).waitForPhase("succeeded");
    expect(await executeCodeCard(page).text("stdout")).toBe("first chat\n");

    await page.getByRole("button", { name: "New chat" }).click();
    await expect(executeCodeCards(page)).toHaveCount(0);
    await send(page, 'Squares\n```python\nprint("second chat")\n```');
    await executeCodeCard(page).waitForPhase("succeeded");

    await page.getByText(/^Your chats \(2\)$/).click();
    const chats = page.getByRole("navigation", { name: "Chats" });
    await expect(chats.getByRole("button", { name: "Squares" })).toHaveAttribute("aria-current", "true");
    // Held on its way, the chat being opened is marked busy and the one it replaces dims.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/chats\/[^/?]+$/, async (route) => {
      await held;
      await route.continue();
    });
    await chats.getByRole("button", { name: "Primes" }).click();
    await expect(chats.getByRole("button", { name: "Primes" })).toHaveAttribute("aria-busy", "true");
    await expect(page.getByRole("status").filter({ hasText: "Opening the chat…" })).toHaveCount(1);
    await expect(page.locator(".demo-thread")).toHaveAttribute("aria-busy", "true");
    await expect(page.locator(".demo-viewport")).toHaveCSS("opacity", "0.45");
    // Nothing typed now can go to the chat being replaced: the message box takes no input until the chosen one shows.
    const focusable = () =>
      page.locator(".demo-composer textarea").evaluate((box: HTMLTextAreaElement) => {
        box.focus();
        return document.activeElement === box;
      });
    expect(await focusable()).toBe(false);
    release();
    await expect(chats.getByRole("button", { name: "Primes" })).toHaveAttribute("aria-current", "true");
    await expect(chats.getByRole("button", { name: "Primes" })).not.toHaveAttribute("aria-busy");
    await expect(page.locator(".demo-thread")).not.toHaveAttribute("aria-busy");
    expect(await focusable()).toBe(true);
    await page.unroute(/\/api\/chats\/[^/?]+$/);
    await expect.poll(() => executeCodeCard(page).text("stdout")).toBe("first chat\n");
    await expect(executeCodeCards(page)).toHaveCount(1);
    await executeCodeCard(page).waitForPhase("succeeded");

    const other = await browser.newContext();
    const stranger = await other.newPage();
    await stranger.goto(at(PORTS.main));
    await expect(stranger.getByRole("textbox", { name: "Message" })).toBeVisible();
    await expect(stranger.getByText(/^Your chats/)).toHaveCount(0);
    await other.close();
  });

  test("a plot shows in the card with alt text from its title, after a reload too; its CSV downloads for its owner alone", async ({
    page,
    browser,
  }) => {
    await page.goto(at(PORTS.main));
    await page.getByRole("button", { name: "Plot the squares and save them as a CSV" }).click();
    const card = executeCodeCard(page);
    expect(await card.waitForEnd(), await card.root.innerText()).toBe("succeeded");
    const figure = card.root.locator(`${executeCodePart("figures")} img`);
    await expect(figure).toHaveAttribute("alt", "Squares, x: n, y: n squared");
    await expect
      .poll(() => figure.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
      .toBeGreaterThan(0);
    await expect(page.getByText("It drew one figure, Squares. It wrote squares.csv")).toBeVisible();
    // The room kept before it loaded was the figure's own size, from the sandbox.
    await expect(figure).toHaveAttribute("width", "640");
    await expect(figure).toHaveAttribute("height", "480");
    // It opens large, and Escape closes it.
    await card.root.getByRole("button", { name: "Enlarge the figure: Squares, x: n, y: n squared" }).click();
    const dialog = page.getByRole("dialog", { name: "Squares, x: n, y: n squared" });
    await expect
      .poll(() => dialog.getByRole("img").evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
      .toBeGreaterThan(0);
    // It fits the screen whole: nothing to pan, and nothing says there is.
    await expect(dialog.getByText("Drag to see the whole figure", { exact: false })).toHaveCount(0);
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);

    const csv = card.root.locator(`a${executeCodePart("file")}`, { hasText: "squares.csv" });
    const download = page.waitForEvent("download");
    await csv.click();
    const saved = await (await download).path();
    expect(readFileSync(saved, "utf8")).toBe(
      "1,1\r\n2,4\r\n3,9\r\n4,16\r\n5,25\r\n6,36\r\n7,49\r\n8,64\r\n9,81\r\n10,100\r\n",
    );

    // The stored chat holds the references, not the bytes.
    const chatId = await page.locator(".demo-thread").getAttribute("data-chat-id");
    const stored = await page.evaluate(async (id) => (await fetch(`/api/chats/${id}`)).text(), chatId);
    expect(stored).toContain("figure-1.png");
    expect(stored).not.toContain("iVBOR");

    await page.reload();
    await expect
      .poll(() =>
        executeCodeCard(page)
          .root.locator("img")
          .evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth),
      )
      .toBeGreaterThan(0);

    const href = await csv.getAttribute("href");
    const other = await browser.newContext();
    const stranger = await other.newPage();
    await stranger.goto(at(PORTS.main));
    const status = await stranger.evaluate(async (url) => (await fetch(url!)).status, href);
    expect(status).toBe(404);
    await other.close();
  });

  test("the dark scheme, picked in the settings, darkens the cards", async ({ page }) => {
    await page.goto(at(PORTS.main));
    await page.getByRole("button", { name: "Add up the numbers from 1 to 100" }).click();
    const card = executeCodeCard(page);
    await card.waitForPhase("succeeded");
    const background = () => card.root.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await background()).toBe("rgb(255, 255, 255)");
    await (await openSettings(page)).getByRole("combobox", { name: "Colour scheme" }).selectOption("Dark");
    expect(await background()).toBe("rgb(13, 17, 23)");
  });

  test("on a phone the composer is a line or two and grows with the message, up to a cap", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 700 });
    await page.goto(at(PORTS.main));
    const box = page.getByRole("textbox", { name: "Message" });
    const lineHeight = await box.evaluate((el) => Number.parseFloat(getComputedStyle(el).lineHeight));
    const height = async () => (await box.boundingBox())!.height;
    expect(await height()).toBeLessThan(lineHeight * 3.5);
    await box.fill(python(Array.from({ length: 20 }, (_, i) => `print(${i})`).join("\n")));
    // A long program grows the field, but the thread keeps most of the screen.
    expect(await height()).toBeGreaterThan(lineHeight * 3.5);
    expect(await height()).toBeLessThan(700 / 3);
  });
});

test("when the rate limit is reached, the card says the sandbox is busy and when to retry", async ({ page }) => {
  await page.goto(at(PORTS.limited));
  for (let i = 1; i <= 2; i++) {
    await send(page, python(`print(${i})`));
    await executeCodeCard(page, i - 1).waitForPhase("succeeded");
  }
  await send(page, python("print(3)"));
  const third = executeCodeCard(page, 2);
  await third.waitForPhase("busy");
  await expect(third.message).toContainText(/Try again in \d+ s/);
  await expect(third.status).toHaveText("Sandbox busy");
  await expect(page.getByText("The code did not give a result: The code runner is busy")).toBeVisible();
  // Try again asks the model once more, so the program is sent again.
  const again = page.waitForRequest(
    (request) => request.url().endsWith("/api/chat") && request.postData()?.includes("regenerate-message") === true,
  );
  await third.root.getByRole("button", { name: "Try again" }).click();
  await again;
});

test("when the sandbox is down, the card says so in words a student can read", async ({ page }) => {
  await page.goto(at(PORTS.down));
  await send(page, python("print(1)"));
  const card = executeCodeCard(page);
  await card.waitForPhase("error");
  await expect(card.message).toContainText("The code runner cannot be reached right now");
  await expect(executeCodeCards(page)).toHaveCount(1);
});
