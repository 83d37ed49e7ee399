import { spawn } from "node:child_process";
import { expect, test, type Page } from "@playwright/test";
import { executeCodeCard, executeCodeCards } from "../src/testing";
import { at, openSettings, python, send } from "./helpers";
import { PORTS } from "./playwright.config";

async function askFor(page: Page, port: number, code: string) {
  await page.goto(at(port));
  await (await openSettings(page)).getByRole("checkbox", { name: "Ask before running code" }).check();
  await send(page, python(code));
  const card = executeCodeCard(page);
  await card.waitForPhase("awaiting-approval");
  return card;
}

test.describe("ask before running code", () => {
  test("nothing runs until Run is clicked; then the code runs and shows its output", async ({ page }) => {
    const card = await askFor(page, PORTS.main, 'print("approved run")');
    await expect(card.message).toContainText("Run this Python program in the sandbox?");
    await expect(card.code).toHaveText('print("approved run")\n', { useInnerText: true });
    // Give a run that was not asked for every chance to show up.
    await page.waitForTimeout(1500);
    expect(await card.phase()).toBe("awaiting-approval");
    await expect(card.stdout).toHaveCount(0);

    await card.root.getByRole("button", { name: "Run" }).click();
    await card.waitForPhase("succeeded");
    expect(await card.text("stdout")).toBe("approved run\n");
    await expect(
      page.getByText("The program ran without errors. Its first line of output is: approved run"),
    ).toBeVisible();
  });

  test("Deny shows the denied phase, and the model says the code did not run", async ({ page }) => {
    const card = await askFor(page, PORTS.main, 'print("should never print")');
    await card.root.getByRole("button", { name: "Add a reason" }).click();
    await card.root.getByRole("textbox", { name: "Why not run it? (optional)" }).fill("I will try it myself");
    await card.root.getByRole("button", { name: "Deny" }).click();
    await card.waitForPhase("denied");
    await expect(card.message).toHaveText("This code was not run. Reason: I will try it myself");
    await expect(page.getByText("You chose not to run the code, so it did not run")).toBeVisible();
    await expect(card.stdout).toHaveCount(0);
  });

  test("a double click on Run answers once", async ({ page }) => {
    const card = await askFor(page, PORTS.main, "print(sum(range(10)))");
    let chatRequests = 0;
    page.on("request", (request) => {
      if (request.url().endsWith("/api/chat")) chatRequests++;
    });
    await card.root.getByRole("button", { name: "Run" }).dblclick();
    await card.waitForPhase("succeeded");
    expect(await card.text("stdout")).toBe("45\n");
    await expect(page.getByText("Its first line of output is: 45")).toBeVisible();
    expect(chatRequests).toBe(1);
    await expect(executeCodeCards(page)).toHaveCount(1);
  });

  test("a reload while waiting still shows the prompt, and Run then runs the code", async ({ page }) => {
    await askFor(page, PORTS.main, 'print("after reload")');
    await page.reload();
    const card = executeCodeCard(page);
    await card.waitForPhase("awaiting-approval");
    await expect(card.root.getByRole("button", { name: "Run" })).toBeVisible();
    await card.root.getByRole("button", { name: "Run" }).click();
    await card.waitForPhase("succeeded");
    expect(await card.text("stdout")).toBe("after reload\n");
  });

  test("an approval given after it expired is denied, and the code never runs", async ({ page }) => {
    const card = await askFor(page, PORTS.shortApproval, 'print("too late")');
    await page.waitForTimeout(2500);
    await card.root.getByRole("button", { name: "Run" }).click();
    await card.waitForPhase("denied");
    await expect(card.message).toHaveText("The approval request expired, so this code was not run.");
    await expect(page.getByText("The approval request expired, so the code did not run")).toBeVisible();
    await expect(card.stdout).toHaveCount(0);
  });

  test("40 approvals in a row, each in a new browser while two busy loops hold the cores, all run their program", async ({
    browser,
  }) => {
    test.setTimeout(15 * 60_000);
    // The answer races the stored end of the run that asked; a busy machine widens the race.
    const busy = [0, 1].map(() => spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }));
    const ended: string[] = [];
    try {
      for (let attempt = 0; attempt < 40; attempt++) {
        const context = await browser.newContext();
        try {
          const card = await askFor(await context.newPage(), PORTS.main, "print(6 * 7)");
          await card.root.getByRole("button", { name: "Run" }).click();
          const phase = await card.waitForEnd({ timeout: 60_000 });
          ended.push(phase === "succeeded" ? `${phase} ${await card.text("stdout")}` : phase);
        } finally {
          await context.close();
        }
      }
    } finally {
      for (const loop of busy) loop.kill();
    }
    expect(ended).toEqual(Array.from({ length: 40 }, () => "succeeded 42\n"));
  });

  test("a path that cannot show the prompt refuses the gate with a 400 naming the option", async ({ request }) => {
    const refused = await request.post(`${at(PORTS.main)}api/generate`, {
      data: { prompt: python("print(1)"), confirmCodeExecution: true },
    });
    expect(refused.status()).toBe(400);
    expect((await refused.json()).message).toMatch(/^confirmCodeExecution cannot be honoured on \/api\/generate/);

    const plain = await request.post(`${at(PORTS.main)}api/generate`, { data: { prompt: python("print(6 * 7)") } });
    expect(plain.status()).toBe(200);
    expect((await plain.json()).text).toBe("The program ran without errors. Its first line of output is: 42.");
  });
});
