import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { executeCodeClientTool } from "../src/client-executor/tool-spec.ts";
import { executeCodeCard, executeCodeCards } from "../src/testing/index.ts";
import { freePort } from "../scripts/free-port.ts";
import { makeApp, run, serve, type AppTemplate, type RunningApp } from "./app-runner.ts";
import { startPostgres, type PostgresCluster } from "../tests/node/chat/postgres-cluster.ts";
import { startCompletionsServer, type CompletionsServer } from "../tests/node/fixtures/completions-server.ts";
import {
  GEIST,
  generateNextApp,
  generateNextGuideApp,
  generateNextPilotApp,
  generateViteApp,
  generateViteGuideApp,
} from "./generators.ts";
import { serveRegistry } from "./registry-server.ts";

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

interface Consumer extends AppTemplate {
  start: [string, ...string[]];
  /** A step between the app's `npm install` and its build. */
  afterInstall?: (dir: string) => Promise<void>;
}

/** One app: a plain `npm install` of the packed kit, its own build, its own server. */
function consumer(name: string, options: Consumer) {
  let dir = "";
  let app: RunningApp | undefined;
  test.beforeAll(async () => {
    test.setTimeout(15 * 60_000);
    dir = makeApp(name, options);
    await run("npm", ["install", "--no-audit", "--no-fund"], dir);
    await options.afterInstall?.(dir);
    await run("npm", ["run", "build"], dir);
    const [command, ...args] = options.start;
    app = await serve(command, args, dir, await freePort());
  });
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a hook wants from this pattern.
  test.afterEach(async ({}, testInfo) => {
    // What the app's server printed, to read beside a failure.
    if (app && testInfo.status !== testInfo.expectedStatus)
      await testInfo.attach("server output", { body: app.output() });
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

  test("stored chats: the open chat comes back after a reload, an earlier one opens from the list, no one else's is listed", async ({
    page,
    browser,
  }) => {
    const url = `${app.url()}/?stored`;
    const chats = page.getByLabel("Chats");
    await runProgramInChat(page, url);

    await page.reload();
    await executeCodeCard(page).waitForPhase("succeeded");
    expect(await executeCodeCard(page).text("stdout")).toBe("5050\n");
    // The server named the chat after its first message.
    await expect(chats.getByRole("button", { name: PROGRAM })).toBeVisible();

    await chats.getByRole("button", { name: "New chat" }).first().click();
    await expect(executeCodeCards(page)).toHaveCount(0);
    await page.getByRole("textbox", { name: "Message" }).fill("```python\nprint(6 * 7)\n```");
    await page.getByRole("button", { name: "Send" }).click();
    await executeCodeCard(page).waitForPhase("succeeded", { timeout: 90_000 });
    expect(await executeCodeCard(page).text("stdout")).toBe("42\n");

    await chats.getByRole("button", { name: PROGRAM }).click();
    await expect(executeCodeCards(page)).toHaveCount(1);
    await executeCodeCard(page).waitForPhase("succeeded");
    expect(await executeCodeCard(page).text("stdout")).toBe("5050\n");

    // Another browser is another student: an empty list.
    const other = await browser.newContext();
    const stranger = await other.newPage();
    await stranger.goto(url);
    await expect(stranger.getByLabel("Chats").getByRole("button", { name: "New chat" })).toBeVisible();
    await expect(stranger.getByLabel("Chats").getByRole("button", { name: PROGRAM })).toHaveCount(0);
    await other.close();
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

test.describe("(c) Next.js 16 App Router, default template with cacheComponents, the guides' route handlers", () => {
  const app = consumer("next-app", {
    vite: false,
    // The README's toolkit snippet, as in (a).
    borrow: { "app/tutor-chat.tsx": "vite-assistant-ui/src/TutorChat.tsx" },
    start: ["npm", "start", "--", "-H", "127.0.0.1", "-p", "$PORT"],
  });

  test("a fenced program runs through the route handler and its card shows the output", async ({ page }) => {
    await runProgramInChat(page, app.url());
  });

  test("the app's own tests load execute-code-ui/testing, though the app is CommonJS", async () => {
    // create-next-app writes no "type": "module", so Playwright loads the app's specs as CommonJS and requires the kit.
    const manifest = JSON.parse(readFileSync(path.join(app.dir(), "package.json"), "utf8")) as { type?: string };
    expect(manifest.type).toBeUndefined();
    const required = "const t = require('execute-code-ui/testing'); console.log('loaded:' + typeof t.executeCodeCard)";
    expect(await run(process.execPath, ["-e", required], app.dir())).toContain("loaded:function");
  });

  test("a route handler keeps chats on the server, in SQLite, and runs the model's program", async ({ request }) => {
    const created = await request.post(`${app.url()}/api/chats`, { data: {} });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const answered = await request.post(`${app.url()}/api/chats/${id}/messages`, {
      data: { text: "```python\nprint(6 * 7)\n```" },
      headers: { accept: "application/json" },
    });
    expect(answered.status()).toBe(200);
    const chat = (await (await request.get(`${app.url()}/api/chats/${id}`)).json()) as {
      status: string;
      messages: Array<{ role: string; parts: Array<{ type: string; output?: unknown }> }>;
    };
    expect(chat.status).toBe("idle");
    const call = chat.messages.flatMap((message) => message.parts).find((part) => part.type === "tool-execute_code");
    expect(call?.output).toMatchObject({ status: "completed", stdout: "42\n", exitCode: 0 });
    // Archive, as the thread list sends it: a PATCH the route takes.
    expect((await request.patch(`${app.url()}/api/chats/${id}`, { data: { archived: true } })).status()).toBe(204);
    const listed = (await (await request.get(`${app.url()}/api/chats`)).json()) as {
      chats: Array<{ id: string; archived: boolean }>;
    };
    expect(listed.chats.find((entry) => entry.id === id)?.archived).toBe(true);
  });

  test("the docs' client-tool flow: a chat whose execute_code the browser runs waits for its result", async ({
    request,
  }) => {
    const created = await request.post(`${app.url()}/api/chats`, { data: { tools: [executeCodeClientTool] } });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const asked = await request.post(`${app.url()}/api/chats/${id}/messages`, {
      data: { text: "```python\nprint(6 * 7)\n```" },
      headers: { accept: "application/json" },
    });
    const waiting = (await asked.json()) as {
      status: string;
      required_action: { tool_calls: Array<{ tool_call_id: string; input: unknown }> };
    };
    expect(waiting.status).toBe("requires_action");
    const [call] = waiting.required_action.tool_calls;
    expect(call!.input).toEqual({ code: "print(6 * 7)" });
    const answered = await request.post(`${app.url()}/api/chats/${id}/tool-results`, {
      data: {
        results: [
          {
            tool_call_id: call!.tool_call_id,
            output: {
              status: "completed",
              stdout: "42\n",
              stderr: "",
              exitCode: 0,
              signal: null,
              wallTimeMs: 3,
              truncated: { stdout: 0, stderr: 0 },
            },
          },
        ],
      },
      headers: { accept: "application/json" },
    });
    expect(answered.status()).toBe(200);
    expect(((await answered.json()) as { status: string }).status).toBe("idle");
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

/**
 * What decides how each element of the cards looks, element by element, in
 * document order, lengths in px: a host's root font size (the Vite
 * template's 18 px) must not change them. Horizontal margins are compared
 * only where both pages give the cards the same width (`ml-auto` resolves to
 * the space left).
 */
async function cardStyles(page: Page, { sameWidth }: { sameWidth: boolean }) {
  // Let the highlighter finish, so every page has the same elements: it colours a long program a block at a time,
  // and on a busy machine the first block can be coloured well before the last.
  await expect(page.locator('[data-slot="execute-code-source"]:has([style*="--shiki-light"])')).toHaveCount(2);
  await expect
    .poll(() =>
      page
        .locator('[data-slot="execute-code-source"] .ecu-code-line')
        .evaluateAll(
          (lines) => lines.filter((line) => line.textContent!.trim() && !line.querySelector(".ecu-token")).length,
        ),
    )
    .toBe(0);
  // …and every block of lines is revealed: a block not yet revealed is plain text, with no line of its own.
  await expect
    .poll(() =>
      page
        .locator('[data-slot="execute-code-source"] .ecu-code-block')
        .evaluateAll((blocks) => blocks.filter((block) => !block.querySelector(".ecu-code-line")).length),
    )
    .toBe(0);
  return page.locator('[data-slot="execute-code"]').evaluateAll(
    (cards, sameWidth) =>
      cards.flatMap((card) =>
        [card, ...card.querySelectorAll("*")].map((element) => {
          const style = getComputedStyle(element);
          return {
            slot: element.getAttribute("data-slot") ?? element.getAttribute("class") ?? element.tagName,
            display: style.display,
            padding: style.padding,
            margin: sameWidth ? style.margin : `${style.marginTop} ${style.marginBottom}`,
            border: style.borderWidth,
            boxSizing: style.boxSizing,
            gap: style.gap,
            font: [style.fontSize, style.lineHeight, style.fontWeight, style.fontStyle].join(" "),
            text: [
              style.textAlign,
              style.textIndent,
              style.textTransform,
              style.letterSpacing,
              style.wordSpacing,
              style.whiteSpace,
            ].join(" "),
            verticalAlign: style.verticalAlign,
            color: style.color,
            background: style.backgroundColor,
          };
        }),
      ),
    sameWidth,
  );
}

/** What a person sees: colours of the code, the two cards' tones, the surface, and each line number beside its line. */
async function lookOf(page: Page) {
  return page.locator('[data-slot="execute-code"]').evaluateAll((cards) =>
    cards.map((card) => {
      const tokens = new Set(
        [...card.querySelectorAll<HTMLElement>('[data-slot="execute-code-source"] [style*="--shiki-light"]')].map(
          (token) => getComputedStyle(token).color,
        ),
      );
      const gutter = card.querySelector('[data-slot="execute-code-gutter"]')!;
      const range = document.createRange();
      range.selectNodeContents(gutter);
      const numberTops = [
        ...new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top))),
      ];
      const lineTops = [...card.querySelectorAll(".ecu-code-line")].map((line) =>
        Math.round(line.getBoundingClientRect().top),
      );
      return {
        tokenColours: [...tokens],
        tone: getComputedStyle(card.querySelector('[data-slot="execute-code-status"]')!).color,
        text: getComputedStyle(card).color,
        surface: getComputedStyle(card).backgroundColor,
        numberTops,
        lineTops,
      };
    }),
  );
}

/**
 * The card as hosts style it: under a hostile stylesheet, and in the apps
 * today's generators make (their CSS untouched), built for production. Each
 * is compared, element by element, with the same cards on a page that has
 * only the kit's CSS, in light and dark, at 1280 and 375 px.
 */
test.describe("(d) the card in any host: a hostile stylesheet, create-vite and create-next-app as generated", () => {
  const apps: Record<string, RunningApp> = {};
  test.beforeAll(async () => {
    test.setTimeout(25 * 60_000);
    const reference = makeApp("host-reset", { vite: true });
    await run("npm", ["install", "--no-audit", "--no-fund"], reference);
    await run("npm", ["run", "build"], reference);
    apps.reference = await serve("npm", ["start", "--", "--port", "$PORT"], reference, await freePort());

    const vite = await generateViteApp("generated-vite", "host-reset/src/Card.tsx");
    await run("npm", ["run", "build"], vite);
    apps.vite = await serve(
      "npm",
      ["run", "preview", "--", "--host", "127.0.0.1", "--port", "$PORT", "--strictPort"],
      vite,
      await freePort(),
    );

    const next = await generateNextApp("generated-next", "host-reset/src/Card.tsx");
    const fonts = await next.buildEnv();
    try {
      await run("npm", ["run", "build"], next.dir, fonts.env);
    } finally {
      await fonts.close();
    }
    apps.next = await serve("npm", ["start", "--", "-H", "127.0.0.1", "-p", "$PORT"], next.dir, await freePort());
  });
  test.afterAll(async () => {
    await Promise.all(Object.values(apps).map((app) => app.stop()));
  });

  const hosts = {
    // The same 720 px wide cards as the bare page.
    "a hostile stylesheet (reset, element rules, inherited text properties)": {
      url: () => `${apps.reference!.url}/`,
      sameWidth: true,
    },
    "create-vite's react-ts template": { url: () => `${apps.vite!.url}/`, sameWidth: false },
    "create-next-app's default template": { url: () => `${apps.next!.url}/`, sameWidth: false },
  };
  for (const [host, { url, sameWidth }] of Object.entries(hosts)) {
    test(`${host}: every element of the card as on a bare page, light and dark, 1280 and 375 px`, async ({
      page,
    }, testInfo) => {
      const errors: Error[] = [];
      page.on("pageerror", (error) => errors.push(error));
      const surfaces: string[] = [];
      for (const colorScheme of ["light", "dark"] as const) {
        for (const width of [1280, 375]) {
          await page.setViewportSize({ width, height: 900 });
          await page.emulateMedia({ colorScheme });
          await page.goto(`${apps.reference!.url}/plain.html`);
          const bare = await cardStyles(page, { sameWidth });
          await page.goto(url());
          const hosted = await cardStyles(page, { sameWidth });
          expect(hosted.length).toBeGreaterThan(20);
          expect(hosted, `${colorScheme}, ${width} px`).toEqual(bare);

          const [succeeded, failed] = await lookOf(page);
          expect(succeeded!.tokenColours.length, "colours in the highlighted code").toBeGreaterThanOrEqual(3);
          expect(succeeded!.tone).not.toBe(failed!.tone);
          expect([succeeded!.tone, failed!.tone]).not.toContain(succeeded!.text);
          for (const card of [succeeded!, failed!]) {
            expect(card.numberTops.length).toBe(card.lineTops.length);
            for (const [line, top] of card.numberTops.entries()) {
              expect(Math.abs(top - card.lineTops[line]!)).toBeLessThanOrEqual(1);
            }
          }
          surfaces.push(succeeded!.surface);
          await testInfo.attach(`${colorScheme}-${width}.png`, {
            body: await page.screenshot({ fullPage: true }),
            contentType: "image/png",
          });
        }
      }
      // The card follows the scheme: its surface in dark is not its surface in light.
      expect(surfaces[0]).toBe(surfaces[1]);
      expect(surfaces[2]).not.toBe(surfaces[0]);
      expect(errors).toEqual([]);
    });
  }
});

// The template holds what create-next-app and `shadcn init` (new-york, neutral,
// CSS variables) write; init itself cannot run here, as it asks ui.shadcn.com
// for the project's base (`/init?base=…`).
test.describe("(e) a shadcn app (Next.js 16 App Router, Tailwind v4) with the tool UI from `npx shadcn add`", () => {
  const app = consumer("shadcn-next-app", {
    vite: false,
    // create-next-app's files as in (c), and the harness guide's route handler.
    borrow: {
      "tsconfig.json": "next-app/tsconfig.json",
      "postcss.config.mjs": "next-app/postcss.config.mjs",
      "app/layout.tsx": "next-app/app/layout.tsx",
      "app/api/chat/route.ts": "next-app/app/api/chat/route.ts",
    },
    start: ["npm", "start", "--", "-H", "127.0.0.1", "-p", "$PORT"],
    // The app's own shadcn CLI adds the item from the registry this commit builds.
    afterInstall: async (dir) => {
      const registry = await serveRegistry(path.join(path.dirname(dir), "execute-code-ui.tgz"));
      try {
        await run("npx", ["shadcn", "add", `${registry.url}/execute-code.json`, "--yes"], dir, {
          REGISTRY_URL: registry.url,
        });
      } finally {
        await registry.close();
      }
    },
  });

  test("shadcn add wrote a tool UI that takes the card from the execute-code-ui package, and installed it", () => {
    const toolUI = readFileSync(path.join(app.dir(), "components", "assistant-ui", "execute-code.tsx"), "utf8");
    expect(toolUI).toContain('from "execute-code-ui/assistant-ui"');
    expect(toolUI).toContain('import "execute-code-ui/styles.css"');
    expect(toolUI).not.toContain("data-slot"); // the card's markup stays in the package
    const { dependencies } = JSON.parse(readFileSync(path.join(app.dir(), "package.json"), "utf8"));
    expect(Object.keys(dependencies)).toEqual(expect.arrayContaining(["execute-code-ui", "@assistant-ui/react"]));
    expect(existsSync(path.join(app.dir(), "node_modules", "execute-code-ui", "dist", "styles.css"))).toBe(true);
  });

  test("a fenced program runs through the route handler and the added tool UI shows the output", async ({ page }) => {
    await runProgramInChat(page, app.url());
  });

  test("the card wears the app's shadcn theme, light and dark", async ({ page }) => {
    await runProgramInChat(page, app.url());
    const card = executeCodeCard(page).root;
    /** The card's colours beside what the app's own tokens resolve to at the card's place. */
    const read = () =>
      card.evaluate((element) => {
        const probe = document.createElement("span");
        probe.style.color = "var(--card)";
        probe.style.borderTopLeftRadius = "var(--radius)";
        element.parentElement!.append(probe);
        const token = getComputedStyle(probe);
        const own = getComputedStyle(element);
        const result = {
          background: own.backgroundColor,
          cardToken: token.color,
          radius: own.borderTopLeftRadius,
          radiusToken: token.borderTopLeftRadius,
        };
        probe.remove();
        return result;
      });
    const light = await read();
    expect(light.background).toBe(light.cardToken);
    expect(light.radius).toBe(light.radiusToken);
    await page.evaluate(() => document.documentElement.classList.add("dark"));
    const dark = await read();
    expect(dark.background).toBe(dark.cardToken);
    expect(dark.background).not.toBe(light.background);
  });
});

/** The guides' packages beside the kit, as their install lines name them. */
const GUIDE_PACKAGES = [
  "@assistant-ui/react",
  "@assistant-ui/react-ai-sdk",
  "@assistant-ui/react-markdown",
  "ai",
  "pyodide",
];

/**
 * A student in a guide's app: a message, the card with the real output, a
 * figure and a CSV download; the chat's title in the list before and after a
 * reload; the message's program as a code block; Archive takes it off the list.
 */
async function studentFollowsGuide(page: Page, url: string, scheme: "light" | "dark") {
  const errors: Error[] = [];
  page.on("pageerror", (error) => errors.push(error));
  await page.emulateMedia({ colorScheme: scheme });
  await page.goto(`${url}/`);
  await page.getByRole("textbox", { name: "Message" }).fill("Plot the squares and save them as a CSV");
  await page.getByRole("button", { name: "Send" }).click();
  const card = executeCodeCard(page);
  await card.waitForPhase("succeeded", { timeout: 90_000 });
  expect(await card.text("stdout")).toBe("sum of squares: 385\n");
  const figure = card.root.getByRole("img", { name: "Squares, x: n, y: n squared" });
  await expect(figure).toBeVisible();
  await expect.poll(() => figure.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  const csv = card.root.locator('a[data-slot="execute-code-file"]', { hasText: "squares.csv" });
  const download = await page.request.get(await csv.evaluate((link: HTMLAnchorElement) => link.href));
  expect(download.status()).toBe(200);
  expect(download.headers()["content-disposition"]).toMatch(/^attachment; filename="squares.csv"/);
  expect(await download.text()).toMatch(/^1,1\r?\n2,4/);
  expect(await card.root.evaluate((root) => getComputedStyle(root).colorScheme)).toBe(scheme);

  // The open chat takes the title the server gave it once its first run is over, without a reload.
  const chats = page.getByLabel("Chats");
  const title = chats.getByRole("button", { name: "Plot the squares and save them as a CSV" });
  await expect(title).toBeVisible();

  // A fenced program in the student's message is a code block, not backticks.
  await page
    .getByRole("textbox", { name: "Message" })
    .fill("## Cubes\n```python\nprint(sum(n ** 3 for n in range(4)))\n```");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(executeCodeCards(page)).toHaveCount(2);
  await executeCodeCard(page, 1).waitForPhase("succeeded", { timeout: 90_000 });
  expect(await executeCodeCard(page, 1).text("stdout")).toBe("36\n");
  const sent = page.locator("pre", { hasText: "print(sum(n ** 3 for n in range(4)))" }).first();
  await expect(sent).toBeVisible();
  await expect(page.getByRole("heading", { name: "Cubes" })).toBeVisible();
  await expect(page.getByText("```python")).toHaveCount(0);

  // After a reload the same chat is open, in the list under the same title.
  await page.reload();
  await expect(executeCodeCards(page)).toHaveCount(2);
  await executeCodeCard(page, 0).waitForPhase("succeeded");
  expect(await executeCodeCard(page, 0).text("stdout")).toBe("sum of squares: 385\n");
  await expect(title).toBeVisible();

  // Archive takes it off the list.
  await chats.getByRole("button", { name: "Archive" }).first().click();
  await expect(title).toHaveCount(0);
  expect(errors).toEqual([]);
}

/**
 * A guide's app on a phone (375 px, touch): the page's own title, the
 * welcome's request sends itself, and then nothing scrolls sideways, the
 * message box stays on screen across the page's width, and each button is a
 * thumb's 44 px.
 */
async function guideOnAPhone(browser: Browser, url: string) {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  try {
    await page.goto(`${url}/`);
    await expect(page).toHaveTitle("Python tutor");
    await page.getByRole("button", { name: "Show me a real traceback" }).click();
    await executeCodeCard(page).waitForPhase("failed", { timeout: 90_000 });
    await expect(page.getByText("ZeroDivisionError", { exact: false }).first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expect(page.getByRole("textbox", { name: "Message" })).toBeInViewport();
    const messageBox = await page.getByRole("textbox", { name: "Message" }).boundingBox();
    expect(messageBox?.height).toBeGreaterThanOrEqual(44);
    // A row of its own, the buttons under it: a pasted program is not wrapped into a third of the screen.
    expect(messageBox?.width).toBeGreaterThan(375 * 0.75);
    const send = await page.getByRole("button", { name: "Send", exact: true }).boundingBox();
    expect(send!.y).toBeGreaterThanOrEqual(messageBox!.y + messageBox!.height);
    for (const name of ["New chat", "Chats", "Attach files", "Send"]) {
      const box = await page.getByRole("button", { name, exact: true }).boundingBox();
      expect(box?.height, name).toBeGreaterThanOrEqual(44);
    }
    // The chat list opens from its button, and the chat is in it under its title.
    await page.getByRole("button", { name: "Chats", exact: true }).click();
    await expect(page.getByLabel("Chats").getByRole("button", { name: "Show me a real traceback" })).toBeVisible();
  } finally {
    await context.close();
  }
}

/**
 * docs/nextjs.md followed in a fresh create-next-app app: its route, page and
 * client component, and the packages it installs, used by a student in light
 * and dark.
 */
test.describe("(f) the Next.js guide in a fresh create-next-app app", () => {
  let app: RunningApp | undefined;
  let dir = "";
  test.beforeAll(async () => {
    test.setTimeout(15 * 60_000);
    // The guide's layout loads Geist from npm: the build has no stand-in for Google's fonts, and needs none.
    dir = await generateNextGuideApp("next-guide", [...GUIDE_PACKAGES, GEIST]);
    await run("npm", ["run", "build"], dir);
    app = await serve("npm", ["start", "--", "-H", "127.0.0.1", "-p", "$PORT"], dir, await freePort());
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  for (const scheme of ["light", "dark"] as const) {
    test(`a student's chat, ${scheme}: output, a figure and a CSV, its title, a reload, Archive`, async ({ page }) => {
      await studentFollowsGuide(page, app!.url, scheme);
    });
  }

  test("on a phone: its title, a welcome request, no sideways scroll, 44 px buttons", async ({ browser }) => {
    await guideOnAPhone(browser, app!.url);
  });

  test("on the sandbox the guide deploys: keygen, serve, and the app signs its runs with the key", async ({ page }) => {
    test.setTimeout(5 * 60_000);
    await app?.stop();
    await run("npx", ["execute-code-ui-sandbox", "keygen", "--keys", "sandbox-keys"], dir);
    const sandbox = await serve(
      "npx",
      ["execute-code-ui-sandbox", "serve", "--keys", "sandbox-keys", "--port", "$PORT"],
      dir,
      await freePort(),
    );
    try {
      app = await serve("npm", ["start", "--", "-H", "127.0.0.1", "-p", "$PORT"], dir, await freePort(), {
        SANDBOX_URL: sandbox.url,
        SANDBOX_KEYS_DIR: "sandbox-keys",
      });
      await studentFollowsGuide(page, app.url, "light");
      expect(app.output()).toContain(`Programs run in the sandbox at ${sandbox.url}.`);
    } finally {
      await sandbox.stop();
    }
  });
});

/**
 * docs/vite.md followed in a fresh create-vite app: its config (Tailwind and
 * the server side as a Vite plugin), page and client component, and the
 * packages it installs; built, and served by `vite preview`.
 */
test.describe("(g) the Vite guide in a fresh create-vite app", () => {
  let app: RunningApp | undefined;
  test.beforeAll(async () => {
    test.setTimeout(15 * 60_000);
    const dir = await generateViteGuideApp("vite-guide", [...GUIDE_PACKAGES, "tailwindcss", "@tailwindcss/vite"]);
    await run("npm", ["run", "build"], dir);
    app = await serve(
      "npm",
      ["run", "preview", "--", "--host", "127.0.0.1", "--port", "$PORT", "--strictPort"],
      dir,
      await freePort(),
    );
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  for (const scheme of ["light", "dark"] as const) {
    test(`a student's chat, ${scheme}: output, a figure and a CSV, its title, a reload, Archive`, async ({ page }) => {
      await studentFollowsGuide(page, app!.url, scheme);
    });
  }

  test("on a phone: its title, a welcome request, no sideways scroll, 44 px buttons", async ({ browser }) => {
    await guideOnAPhone(browser, app!.url);
  });
});

/** The sign-in the pilot guide uses: NextAuth, as a course installs it. */
const NEXT_AUTH = "next-auth@4.24.15";

/** Opens `start` (the sign-in form, or a page that sends there) and gives the form a student id and a code. */
async function submitCode(page: Page, start: string, student: string, code: string) {
  await page.goto(start);
  await page.getByLabel("Student ID").fill(student);
  await page.getByLabel("Code").fill(code);
  await page.getByRole("button", { name: /Sign in/ }).click();
  await page.waitForLoadState();
}

/** A student signs in with the class list's code, in a browser context of their own. */
async function signIn(browser: Browser, url: string, student: string, code: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await submitCode(page, `${url}/`, student, code);
  await expect(page.getByRole("heading", { name: "Python tutor" })).toBeVisible();
  return page;
}

/**
 * docs/pilot.md followed on the Next.js guide's app: students sign in from a
 * class list, a real model at an OpenAI-compatible endpoint (a local server
 * the test starts) gets the course's prompt, programs run in the sandbox
 * service with its generated keys, and chats are kept in PostgreSQL.
 */
test.describe("(i) the pilot guide: sign-in, a real model, the sandbox service, PostgreSQL", () => {
  let app: RunningApp | undefined;
  let sandbox: RunningApp | undefined;
  let database: PostgresCluster | undefined;
  let model: CompletionsServer | undefined;
  let dir = "";
  let buildLog = "";
  test.beforeAll(async () => {
    test.setTimeout(15 * 60_000);
    [database, model] = await Promise.all([startPostgres(), startCompletionsServer("print(6 * 7)")]);
    dir = await generateNextPilotApp("next-pilot", [
      ...GUIDE_PACKAGES,
      GEIST,
      NEXT_AUTH,
      "pg",
      "@ai-sdk/openai-compatible",
    ]);
    // As a spreadsheet writes it: a header, and a name with a comma in quotes.
    writeFileSync(
      path.join(dir, "class-list.csv"),
      'id,code,name\nada,apple-7,Ada Lovelace\nalan,pear-9,"Turing, Alan"\ngrace,plum-3,Grace Hopper\n',
    );
    buildLog = await run("npm", ["run", "build"], dir);
    await run("npx", ["execute-code-ui-sandbox", "keygen", "--keys", "sandbox-keys"], dir);
    sandbox = await serve(
      "npx",
      ["execute-code-ui-sandbox", "serve", "--keys", "sandbox-keys", "--port", "$PORT"],
      dir,
      await freePort(),
    );
    const port = await freePort();
    app = await serve("npm", ["start", "--", "-H", "127.0.0.1", "-p", "$PORT"], dir, port, {
      NEXTAUTH_URL: `http://127.0.0.1:${port}`,
      NEXTAUTH_SECRET: "a-secret-of-the-tests-own-at-least-32-characters",
      DATABASE_URL: database.url,
      OPENAI_BASE_URL: model.url,
      OPENAI_MODEL: "course-model",
      SANDBOX_URL: sandbox.url,
      SANDBOX_KEYS_DIR: "sandbox-keys",
    });
  });
  test.afterAll(async () => {
    await app?.stop();
    await sandbox?.stop();
    await model?.close();
    await database?.stop();
  });

  test("two signed-in students: each sees only their own chats, answered by the real model", async ({ browser }) => {
    // No one signed in: the page sends them to sign in, the API answers 401.
    expect((await fetch(`${app!.url}/api/chats`)).status).toBe(401);
    const stranger = await browser.newPage();
    await stranger.goto(`${app!.url}/`);
    await expect(stranger.getByLabel("Student ID")).toBeVisible();
    await stranger.close();

    const ada = await signIn(browser, app!.url, "ada", "apple-7");
    await expect(ada.getByText("Ada Lovelace")).toBeVisible();
    await ada.getByRole("textbox", { name: "Message" }).fill("What is six times seven?");
    await ada.getByRole("button", { name: "Send", exact: true }).click();
    await executeCodeCard(ada).waitForPhase("succeeded", { timeout: 90_000 });
    expect(await executeCodeCard(ada).text("stdout")).toBe("42\n");
    await expect(ada.getByText("The sandbox said: 42.")).toBeVisible();
    await expect(ada.getByLabel("Chats").getByRole("button", { name: "What is six times seven?" })).toBeVisible();

    // The model was asked with the course's prompt after the kit's, under the model name the environment gave.
    const system = model!.requests[0]!.body.messages[0]!;
    expect(system.role).toBe("system");
    expect(String(system.content)).toContain("introductory course in Python and data analysis");
    expect(model!.requests[0]!.body.model).toBe("course-model");
    expect(app!.output()).toContain("The tutor is course-model at 127.0.0.1");
    expect(app!.output()).toContain(`Programs run in the sandbox at ${sandbox!.url}.`);
    expect(app!.output()).toContain("Chats are kept in PostgreSQL.");
    // Nothing for the teacher to puzzle over: no whole-project tracing in the build, no prerender error in the log.
    expect(buildLog).not.toContain("Dynamic filesystem access");
    expect(app!.output()).not.toMatch(/Error:/);

    // Another student: none of Ada's chats, in the list or through the API; a chat of their own.
    const alan = await signIn(browser, app!.url, "alan", "pear-9");
    await expect(alan.getByText("Turing, Alan")).toBeVisible();
    await expect(alan.getByRole("heading", { name: /Ask, and the tutor runs Python/ })).toBeVisible();
    await expect(alan.getByText("What is six times seven?")).toHaveCount(0);
    const adasChats = (await (await ada.request.get(`${app!.url}/api/chats`)).json()) as { chats: { id: string }[] };
    expect(adasChats.chats.length).toBe(1);
    const adasChat = adasChats.chats[0]!.id;
    expect((await alan.request.get(`${app!.url}/api/chats/${adasChat}`)).status()).toBe(404);
    await alan.getByRole("textbox", { name: "Message" }).fill("```python\nprint('Alan')\n```");
    await alan.getByRole("button", { name: "Send", exact: true }).click();
    await executeCodeCard(alan).waitForPhase("succeeded", { timeout: 90_000 });

    // The chats are PostgreSQL's: one each, under the two students' ids.
    const { Client } = (await import("pg")).default;
    const client = new Client({ connectionString: database!.url });
    await client.connect();
    const owners = await client.query(
      "select owner, count(*)::int as chats from ecu_chats group by owner order by owner",
    );
    await client.end();
    expect(owners.rows).toEqual([
      { owner: "class:ada", chats: 1 },
      { owner: "class:alan", chats: 1 },
    ]);
  });

  test("a wrong code does not sign in; five lock that id in that browser, a hundred in an hour everywhere", async ({
    browser,
  }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const attempt = (student: string, code: string) => submitCode(page, `${app!.url}/api/auth/signin`, student, code);
    // A sign-in is a few hundred bytes: a body of a megabyte is refused before NextAuth reads it.
    const huge = await page.request.post(`${app!.url}/api/auth/callback/class-list`, {
      form: { student: "x".repeat(1 << 20), code: "y" },
      maxRedirects: 0,
    });
    expect(huge.status()).toBe(413);
    // The list's header is not a student.
    await attempt("id", "code");
    await expect(page.getByLabel("Student ID")).toBeVisible();
    for (let i = 0; i < 5; i++) {
      await attempt("alan", `guess-${i}`);
      await expect(page.getByLabel("Student ID")).toBeVisible();
    }
    // Now even the right code is refused in this browser, for this id only…
    await attempt("alan", "pear-9");
    await expect(page.getByLabel("Student ID")).toBeVisible();
    expect((await page.request.get(`${app!.url}/api/chats`)).status()).toBe(401);
    await context.close();
    await (await signIn(browser, app!.url, "ada", "apple-7")).context().close();
    // …and a classmate's guesses do not keep Alan out of his own browser.
    await (await signIn(browser, app!.url, "alan", "pear-9")).context().close();

    // Guesses from ever new browsers (a fresh sign-in cookie each) stop at a hundred an id an hour.
    const guess = async (i: number) => {
      const guesser = await browser.newContext();
      const { csrfToken } = (await (await guesser.request.get(`${app!.url}/api/auth/csrf`)).json()) as {
        csrfToken: string;
      };
      const answer = await guesser.request.post(`${app!.url}/api/auth/callback/class-list`, {
        form: { csrfToken, student: "grace", code: `guess-${i}` },
        maxRedirects: 0,
      });
      expect(answer.headers().location ?? "").toContain("error=CredentialsSignin");
      await guesser.close();
    };
    for (let i = 0; i < 99; i++) await guess(i);
    // Ninety-nine: Grace still signs in, and her right code is not counted as a guess…
    await (await signIn(browser, app!.url, "grace", "plum-3")).context().close();
    // …so the hundredth guess is the one that locks her id.
    await guess(99);
    const grace = await (await browser.newContext()).newPage();
    await submitCode(grace, `${app!.url}/api/auth/signin`, "grace", "plum-3");
    await expect(grace.getByLabel("Student ID")).toBeVisible();
    await grace.context().close();
  });

  test("the class list decides: off it, no tutor; without its header, no sign-in; a message's length", async ({
    browser,
  }) => {
    const list = path.join(dir, "class-list.csv");
    const original = readFileSync(list, "utf8");
    const ada = await signIn(browser, app!.url, "ada", "apple-7");
    try {
      // A message longer than the guide's 20,000 characters is refused, in words, before the model is asked.
      const asked = model!.requests.length;
      await ada.request.post(`${app!.url}/api/chats`, { data: { id: "long" } });
      const long = await ada.request.post(`${app!.url}/api/chats/long/messages`, {
        data: { text: "x".repeat(20_001) },
      });
      expect(long.status()).toBe(400);
      expect(await long.text()).toContain("longer than 20000 characters");
      expect(model!.requests.length).toBe(asked);
      // Taken off the list: signed in or not, the tutor no longer answers them.
      writeFileSync(list, "id,code,name\nalan,pear-9,Alan Turing\n");
      expect((await ada.request.get(`${app!.url}/api/chats`)).status()).toBe(401);
      // A list without its header (an old format, a spreadsheet's own) lets no one in, and the log says why.
      writeFileSync(list, "ada,apple-7,Ada Lovelace\n");
      const page = await browser.newPage();
      await submitCode(page, `${app!.url}/api/auth/signin`, "ada", "apple-7");
      await expect(page.getByLabel("Student ID")).toBeVisible();
      expect(app!.output()).toContain("must start with the header id,code,name");
      await page.close();
    } finally {
      writeFileSync(list, original);
      await ada.context().close();
    }
  });
});

test.describe("(h) LibreChat's own client against the sandbox the packed kit deploys", () => {
  let dir = "";
  let sandbox: RunningApp | undefined;
  test.beforeAll(async () => {
    test.setTimeout(15 * 60_000);
    // LibreChat's side and the sandbox's are installs of their own, as on two machines.
    dir = makeApp("librechat", { vite: false });
    // Its lockfile pins the whole tree LibreChat's client pulls (LangChain, OpenTelemetry): about 550 MB.
    await run("npm", ["ci", "--no-audit", "--no-fund"], dir);
    const service = path.join(dir, "sandbox");
    mkdirSync(service);
    writeFileSync(path.join(service, "package.json"), '{ "name": "sandbox", "private": true }\n');
    const kit = path.join(process.env.ECU_CONSUMERS_DIR!, "execute-code-ui.tgz");
    await run("npm", ["install", "--no-audit", "--no-fund", kit], service);
    // As docs/sandbox.md deploys it: keygen, then serve.
    await run("node_modules/.bin/execute-code-ui-sandbox", ["keygen", "--keys", "keys"], service);
    sandbox = await serve(
      "node_modules/.bin/execute-code-ui-sandbox",
      ["serve", "--keys", "keys", "--port", "$PORT"],
      service,
      await freePort(),
    );
  });
  test.afterAll(async () => {
    await sandbox?.stop();
  });

  test("runs programs, shows a traceback, hands back a figure and files from /mnt/data, in codeapi's ids", async () => {
    const output = await run("node", ["client.mjs"], dir, {
      LIBRECHAT_CODE_BASEURL: `${sandbox!.url}/v1`,
      LIBRECHAT_CODE_API_KEY: readFileSync(path.join(dir, "sandbox", "keys", "api-key"), "utf8").trim(),
    });
    const seen = JSON.parse(output.trim().split("\n").at(-1)!);
    const id = /^[A-Za-z0-9_-]{21}$/;
    expect(seen.hello.content).toBe("stdout:\n42");
    expect(seen.hello.artifact.session_id).toMatch(id);
    expect(seen.traceback.content).toContain("ZeroDivisionError: division by zero");
    expect(seen.traceback.content).toContain('File "<program>", line 2, in f');
    // A figure saved under /mnt/data comes back as a file, and LibreChat's server downloads it.
    const squares = seen.figure.artifact.files.find((file: { name: string }) => file.name === "squares.png");
    expect(squares.id).toMatch(id);
    expect(seen.download).toEqual({ status: 200, type: "image/png", png: "PNG" });
    // An upload is read from /mnt/data by the next call, and what that call wrote is there for a later one.
    expect(seen.upload.status).toBe(201);
    expect(seen.upload.body.session_id).toMatch(id);
    expect(seen.csv.content).toContain("stdout:\n80.0");
    expect(seen.later.content).toContain("['scores.csv', 'summary.csv']");
    // Another language is refused as codeapi refuses it: a 400 the client turns into its own message.
    expect(seen.otherLanguage.error).toContain("rejected");
  });
});
