import { existsSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { executeCodeCard } from "../src/testing/index.ts";
import { freePort, makeApp, run, serve, type AppTemplate, type RunningApp } from "./app-runner.ts";

const PROGRAM = "print(sum(range(101)))";

/** Types a fenced program into the chat and follows its card to the output. */
async function runProgramInChat(page: Page, url: string) {
  const errors: Error[] = [];
  page.on("pageerror", (error) => errors.push(error));
  await page.goto(url);
  await page.getByRole("textbox", { name: "Message" }).fill(`\`\`\`python\n${PROGRAM}\n\`\`\``);
  await page.getByRole("button", { name: "Send" }).click();
  const card = executeCodeCard(page);
  await card.waitForPhase("succeeded", { timeout: 90_000 });
  await expect(card.code).toHaveText(PROGRAM);
  expect(await card.text("stdout")).toBe("5050\n");
  expect(await card.exitCode()).toBe(0);
  await expect(card.status).toHaveRole("status");
  expect(errors).toEqual([]);
}

/** One app: a plain `npm install` of the packed kit, its own build, its own server. */
function consumer(name: string, options: AppTemplate & { start: [string, ...string[]] }) {
  let dir = "";
  let app: RunningApp | undefined;
  test.beforeAll(async () => {
    test.setTimeout(15 * 60_000);
    dir = makeApp(name, options);
    await run("npm", ["install", "--no-audit", "--no-fund"], dir);
    await run("npm", ["run", "build"], dir);
    const [command, ...args] = options.start;
    app = await serve(command, args, dir, await freePort());
  });
  test.afterEach(async ({}, testInfo) => {
    // What the app's server printed, to read beside a failure.
    if (app && testInfo.status !== testInfo.expectedStatus) await testInfo.attach("server output", { body: app.output() });
  });
  test.afterAll(async () => {
    await app?.stop();
  });
  return {
    dir: () => dir,
    url: () => {
      if (!app) throw new Error(`${name} is not running`);
      return app.url;
    },
  };
}

test.describe("(a) Vite + React, assistant-ui 0.15 with the README's toolkit snippet", () => {
  const app = consumer("vite-assistant-ui", { vite: true, start: ["npm", "start"] });

  test("a fenced program runs and its card shows the output", async ({ page }) => {
    await runProgramInChat(page, app.url());
  });
});

test.describe("(b) Vite + React on plain useChat, no assistant-ui installed", () => {
  const app = consumer("vite-use-chat", { vite: true, start: ["npm", "start"] });

  test("assistant-ui is not installed", () => {
    expect(existsSync(path.join(app.dir(), "node_modules", "@assistant-ui", "react"))).toBe(false);
  });

  test("a fenced program runs and its card shows the output", async ({ page }) => {
    await runProgramInChat(page, app.url());
  });
});

test.describe("(c) Next.js 16 App Router, default template with cacheComponents, the README's route handler", () => {
  const app = consumer("next-app", {
    vite: false,
    // The README's toolkit snippet, as in (a).
    borrow: { "app/tutor-chat.tsx": "vite-assistant-ui/src/TutorChat.tsx" },
    start: ["npm", "start", "--", "-H", "127.0.0.1", "-p", "$PORT"],
  });

  test("a fenced program runs through the route handler and its card shows the output", async ({ page }) => {
    await runProgramInChat(page, app.url());
  });

  test("a Server Component prerenders a finished card with the pure helpers", async ({ page, request }) => {
    const html = await (await request.get(`${app.url()}/finished`)).text();
    expect(html).toContain('data-testid="server-phase">succeeded<');
    expect(html).toMatch(/data-slot="execute-code"[^>]*data-phase="succeeded"/);
    expect(html).toContain("5050");

    const errors: Error[] = [];
    page.on("pageerror", (error) => errors.push(error));
    await page.goto(`${app.url()}/finished`);
    const card = executeCodeCard(page);
    await card.waitForPhase("succeeded");
    expect(await card.text("stdout")).toBe("5050\n");
    expect(errors).toEqual([]);
  });
});

test.describe("(d) a host stylesheet with an unlayered * { margin: 0; padding: 0; box-sizing: border-box }", () => {
  const app = consumer("host-reset", { vite: true, start: ["npm", "start", "--", "--port", "$PORT"] });

  /** The box of every element of the card, in document order. */
  async function boxes(page: Page, url: string) {
    const errors: Error[] = [];
    page.on("pageerror", (error) => errors.push(error));
    await page.goto(url);
    await executeCodeCard(page).waitForPhase("failed");
    // Let the highlighter finish, so both pages have the same elements.
    await expect(page.locator('[data-slot="execute-code-source"] [style*="--shiki-light"]').first()).toBeVisible();
    expect(errors).toEqual([]);
    return page.locator('[data-slot="execute-code"]').evaluate((card) =>
      [card, ...card.querySelectorAll("*")].map((element) => {
        const style = getComputedStyle(element);
        return {
          slot: element.getAttribute("data-slot") ?? element.className.toString(),
          padding: style.padding,
          margin: style.margin,
          border: style.borderWidth,
          boxSizing: style.boxSizing,
          gap: style.gap,
        };
      }),
    );
  }

  test("the card keeps its padding, badges and gutter", async ({ page }) => {
    const withReset = await boxes(page, `${app.url()}/`);
    const without = await boxes(page, `${app.url()}/plain.html`);
    expect(withReset[0]!.padding).not.toBe("0px");
    expect(withReset.length).toBeGreaterThan(10);
    expect(withReset).toEqual(without);
  });
});
