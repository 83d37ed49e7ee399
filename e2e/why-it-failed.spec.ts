import { expect, test } from "@playwright/test";
import { executeCodeCard, executeCodePart } from "../src/testing";
import { at, python, send } from "./helpers";
import { PORTS } from "./playwright.config";

// Why a program failed, in the demo on the kit's CPython sandbox: what the student sees under the exception and
// at the line, and what the tutor was told.

test.describe("why a run failed", () => {
  test("mean([]) shows values = [] beside its failing line, and the tutor was told the values", async ({ page }) => {
    await page.goto(at(PORTS.main));
    await send(page, python("def mean(values):\n    return sum(values) / len(values)\n\nprint(mean([]))"));
    const card = executeCodeCard(page);
    await card.waitForPhase("failed");
    const explanation = card.root.locator(executeCodePart("explanation"));
    await expect(explanation).toContainText("The program divided by len(values), which is 0.");
    await expect(card.root.locator(executeCodePart("values"))).toHaveText("At line 2, in mean():values = []");
    // Beside the marked line in the code, as generated content that is never copied with the program.
    const line = card.root.locator('[data-line="2"]');
    await expect(line).toHaveAttribute("data-error", "true");
    // One mark per token it covers, once the code is coloured: together, what the carets point at.
    await expect
      .poll(async () => (await line.locator(executeCodePart("error-span")).allTextContents()).join(""))
      .toBe("sum(values) / len(values)");
    await expect(line.locator(".ecu-line-values")).toHaveAttribute("data-values", "values = []");
    expect(await card.code.innerText()).not.toContain("values = []");
    await expect(page.getByText("At that line, values = [] (list, length 0).")).toBeVisible();
  });

  test("a misspelt name is marked exactly, and the name meant is offered", async ({ page }) => {
    await page.goto(at(PORTS.main));
    await send(page, python("total = 0\nfor n in range(5):\n    total += n\nprint('sum:', totl)"));
    const card = executeCodeCard(page);
    await card.waitForPhase("failed");
    await expect(card.root.locator(executeCodePart("error-span"))).toHaveText("totl");
    await expect(card.root.locator(executeCodePart("explanation"))).toContainText("Did you mean total?");
  });

  test("a json.loads error leads with the student's two frames and folds json's behind one line", async ({ page }) => {
    await page.goto(at(PORTS.main));
    await send(page, python("import json\n\ndef load(text):\n    return json.loads(text)\n\nload('{\"a\": 1,}')"));
    const card = executeCodeCard(page);
    await card.waitForPhase("failed");
    const stderr = card.root.locator(executeCodePart("stderr"));
    const folded = stderr.locator(executeCodePart("library-frames"));
    await expect(folded).toHaveText(/^\d+ steps inside json$/);
    await expect(folded).toHaveAttribute("aria-expanded", "false");
    // The student's frames are links to their lines; none of json's shows until the fold opens.
    await expect(stderr.getByRole("button", { name: "line 6" })).toBeVisible();
    await expect(stderr.getByRole("button", { name: "line 4" })).toBeVisible();
    await expect(stderr.getByText(/decoder\.py/).first()).toBeHidden();
    // Folded, not gone: the stream's text is as Python printed it.
    expect(await card.text("stderr")).toMatch(/json[\\/]decoder\.py", line \d+, in raw_decode\n/);
    expect(await card.text("stderr")).not.toContain("steps inside");
    await folded.click();
    await expect(stderr.getByText(/decoder\.py/).first()).toBeVisible();
  });

  test("a network call says that the sandbox has no internet", async ({ page }) => {
    await page.goto(at(PORTS.main));
    await send(page, python("import urllib.request\nurllib.request.urlopen('https://example.com/data.csv')"));
    const card = executeCodeCard(page);
    await card.waitForPhase("failed");
    await expect(card.root.locator(executeCodePart("explanation"))).toContainText("The sandbox has no internet");
  });
});
