import { expect, test, type Page } from "@playwright/test";
import { executeCodeCard, executeCodePart } from "../src/testing";
import { at, send } from "./helpers";
import { PORTS } from "./playwright.config";

const SCORES = "student,score\nada,90\nada,70\nbob,60\nbob,80\ncy,75\n";

/** Chooses files with the composer's Attach button, as a student does. */
async function attach(page: Page, files: Array<{ name: string; mimeType: string; buffer: Buffer }>) {
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Attach files" }).click();
  await (await chooser).setFiles(files);
}

/** Every address the page fetches a file of the chat from: figures, downloads and the chips' links. */
const fileUrls = (page: Page) =>
  page.evaluate(
    ({ figures, files }) =>
      [
        ...document.querySelectorAll<HTMLImageElement>(figures),
        ...document.querySelectorAll<HTMLAnchorElement>(files),
      ].map((element) => ("src" in element && element.src ? element.src : (element as HTMLAnchorElement).href)),
    {
      figures: `${executeCodePart("figures")} img`,
      files: `a${executeCodePart("file")}, ${executeCodePart("attachment")} a`,
    },
  );

test.describe("a student's files", () => {
  test("a CSV goes in, a figure and a table come out, the next question reads what the run wrote, and a reload shows the same", async ({
    page,
    browser,
  }) => {
    await page.goto(at(PORTS.main));
    await attach(page, [{ name: "scores.csv", mimeType: "text/csv", buffer: Buffer.from(SCORES) }]);
    const chip = page.locator(executeCodePart("attachment"));
    await expect(chip).toHaveText(/scores\.csv\s*48 B/);
    await expect(chip).toHaveAttribute("data-state", "ready");
    await send(page, "Plot the mean score per student");

    const card = executeCodeCard(page);
    expect(await card.waitForEnd()).toBe("succeeded");
    expect(await card.text("stdout")).toMatch(/ada\s+80\.0\nbob\s+70\.0\ncy\s+75\.0/);
    await expect(card.root.locator(executeCodePart("files-used"))).toHaveText("Used: scores.csv");
    await expect(card.root.getByRole("img", { name: /^Mean per student/ })).toBeVisible();
    const table = card.root.getByRole("region", { name: "First rows of means.csv" });
    await expect(table.locator("th")).toHaveText(["student", "score"]);
    await expect(table.locator("tbody tr")).toHaveCount(3);
    // The message shows the file it carried, as a chip that downloads it.
    await expect(page.locator(`.demo-message[data-role=user] ${executeCodePart("attachment")}`)).toHaveText(
      /scores\.csv/,
    );

    await send(page, "Who has the highest mean?");
    const second = executeCodeCard(page, 1);
    expect(await second.waitForEnd()).toBe("succeeded");
    expect(await second.text("stdout")).toBe("ada has the highest score: 80\n");
    await expect(second.root.locator(executeCodePart("files-used"))).toHaveText("Used: means.csv");

    const before = await fileUrls(page);
    expect(before.length).toBe(4);
    await page.reload();
    const again = executeCodeCard(page, 0);
    expect(await again.waitForEnd()).toBe("succeeded");
    await expect(again.root.locator(executeCodePart("files-used"))).toHaveText("Used: scores.csv");
    await expect(again.root.getByRole("region", { name: "First rows of means.csv" }).locator("th")).toHaveText([
      "student",
      "score",
    ]);
    await expect(page.locator(`.demo-message[data-role=user] ${executeCodePart("attachment")}`)).toHaveText(
      /scores\.csv/,
    );
    expect(await fileUrls(page)).toEqual(before);

    // This browser gets every file; another browser (another student) gets 404 for each.
    for (const url of before) expect((await page.request.get(url)).status()).toBe(200);
    const other = await browser.newContext();
    try {
      const stranger = await other.newPage();
      await stranger.goto(at(PORTS.main));
      for (const url of before) expect((await stranger.request.get(url)).status()).toBe(404);
    } finally {
      await other.close();
    }
  });

  test("a file over the cap says why on its chip and nothing is sent", async ({ page }) => {
    await page.goto(at(PORTS.main));
    await attach(page, [{ name: "big.csv", mimeType: "text/csv", buffer: Buffer.alloc(10 * 1024 * 1024 + 1, 65) }]);
    const chip = page.locator(executeCodePart("attachment"));
    await expect(chip).toHaveAttribute("data-state", "error");
    await expect(chip.getByRole("alert")).toHaveText("big.csv is 10 MB; a file may be at most 10 MB.");
    await page.getByRole("textbox", { name: "Message" }).fill("Plot the mean score per student");
    await expect(page.getByRole("button", { name: "Send" })).toBeDisabled();
    await chip.getByRole("button", { name: "Remove big.csv" }).click();
    await expect(chip).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Send" })).toBeEnabled();
  });
});
