import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { executeCodeCard } from "../src/testing/index.ts";
import { freePort } from "../scripts/free-port.ts";
import { makeApp, run, serve, type AppTemplate, type RunningApp } from "./app-runner.ts";
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

test.describe("(c) Next.js 16 App Router, default template with cacheComponents, the README's route handlers", () => {
  const app = consumer("next-app", {
    vite: false,
    // The README's toolkit snippet, as in (a).
    borrow: { "app/tutor-chat.tsx": "vite-assistant-ui/src/TutorChat.tsx" },
    start: ["npm", "start", "--", "-H", "127.0.0.1", "-p", "$PORT"],
  });

  test("a fenced program runs through the route handler and its card shows the output", async ({ page }) => {
    await runProgramInChat(page, app.url());
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

// The template holds what create-next-app and `shadcn init` (new-york, neutral,
// CSS variables) write; init itself cannot run here, as it asks ui.shadcn.com
// for the project's base (`/init?base=…`).
test.describe("(e) a shadcn app (Next.js 16 App Router, Tailwind v4) with the tool UI from `npx shadcn add`", () => {
  const app = consumer("shadcn-next-app", {
    vite: false,
    // create-next-app's files as in (c), and the README's route handler.
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
