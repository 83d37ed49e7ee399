// The demo on Jupyter kernels, a kernel per chat: the card's programs do
// what they do on the kit's own sandbox, and a chat's variables are there
// in its next run and nowhere else.
import { expect, test } from "@playwright/test";
import { EXECUTE_CODE_CARD, executeCodeCard, executeCodePart } from "../src/testing";
import { at, python, send } from "./helpers";
import { PORTS } from "./playwright.config";

test.describe("the demo on Jupyter kernels, a kernel per chat", () => {
  test("a second message uses a variable the first defined, and a new chat does not see it", async ({ page }) => {
    await page.goto(at(PORTS.jupyter));
    await send(page, python('x = 6 * 7\nprint("x is", x)'));
    const first = executeCodeCard(page, 0);
    expect(await first.waitForEnd(), await first.root.innerText()).toBe("succeeded");
    expect(await first.text("stdout")).toBe("x is 42\n");

    await send(page, python("print(x + 1)"));
    const second = executeCodeCard(page, 1);
    expect(await second.waitForEnd(), await second.root.innerText()).toBe("succeeded");
    expect(await second.text("stdout")).toBe("43\n");
    // The card says which run started from the chat's earlier ones.
    const continued = executeCodePart("continued");
    await expect(second.root.locator(continued)).toHaveText("Continues from earlier runs in this chat");
    await expect(first.root.locator(continued)).toHaveCount(0);

    await page.getByRole("button", { name: "New chat" }).click();
    await expect(page.locator(EXECUTE_CODE_CARD)).toHaveCount(0);
    await send(page, python("print(x)"));
    const fresh = executeCodeCard(page, 0);
    await fresh.waitForPhase("failed");
    await expect(fresh.error).toHaveText("NameError: name 'x' is not defined");
    await expect(fresh.code.locator("[data-error]")).toHaveAttribute("data-line", "1");
  });

  test("Restart Python: the next run starts without the chat's variables, and the card and the reply say so", async ({
    page,
  }) => {
    await page.goto(at(PORTS.jupyter));
    await send(page, python("total = 10\nprint(total)"));
    const first = executeCodeCard(page, 0);
    expect(await first.waitForEnd(), await first.root.innerText()).toBe("succeeded");

    await send(page, `Restart Python, then:\n${python('print("total" in globals())')}`);
    const restarted = executeCodeCard(page, 1);
    expect(await restarted.waitForEnd(), await restarted.root.innerText()).toBe("succeeded");
    expect(await restarted.text("stdout")).toBe("False\n");
    await expect(restarted.root.locator(executeCodePart("restarted"))).toHaveText(
      "Python was restarted: earlier runs' variables are gone",
    );
    await expect(restarted.root.locator(executeCodePart("continued"))).toHaveCount(0);
    await expect(page.getByText("I restarted Python first.")).toBeVisible();

    // The fresh session is the chat's from then on.
    await send(page, python("total = 5\nprint(total * 2)"));
    const after = executeCodeCard(page, 2);
    expect(await after.waitForEnd(), await after.root.innerText()).toBe("succeeded");
    expect(await after.text("stdout")).toBe("10\n");
    await expect(after.root.locator(executeCodePart("continued"))).toHaveCount(1);
  });

  test("print, a traceback that names the program's line, and exit codes", async ({ page }) => {
    await page.goto(at(PORTS.jupyter));
    await page.getByRole("button", { name: "Show me a real traceback" }).click();
    const card = executeCodeCard(page);
    await card.waitForPhase("failed");
    expect(await card.exitCode()).toBe(1);
    await expect(card.error).toHaveText("ZeroDivisionError: division by zero");
    await expect(card.code.locator("[data-error]")).toHaveAttribute("data-line", "2");
    expect(await card.text("stdout")).toBe("scores: []\n");
    const stderr = await card.text("stderr");
    expect(stderr).toContain("ZeroDivisionError: division by zero");
    expect(stderr).not.toContain("ipykernel");
    await expect(page.getByText("The error was: ZeroDivisionError: division by zero")).toBeVisible();

    // The example prompts show in an empty chat only: the next one is typed.
    await send(page, "Exit with code 3");
    const exited = executeCodeCard(page, 1);
    await exited.waitForPhase("failed");
    expect(await exited.exitCode()).toBe(3);
    expect(await exited.text("stdout")).toBe("leaving early\n");
  });

  test("a plot shows in the card as a figure with alt text from its title", async ({ page }) => {
    await page.goto(at(PORTS.jupyter));
    await page.getByRole("button", { name: "Plot the squares and save them as a CSV" }).click();
    const card = executeCodeCard(page);
    expect(await card.waitForEnd(), await card.root.innerText()).toBe("succeeded");
    const figure = card.root.locator(`${executeCodePart("figures")} img`);
    await expect(figure).toHaveAttribute("alt", "Squares, x: n, y: n squared");
    await expect
      .poll(() => figure.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
      .toBeGreaterThan(0);
  });

  test("input() is explained rather than waited for", async ({ page }) => {
    await page.goto(at(PORTS.jupyter));
    await send(page, python('name = input("Name? ")\nprint("Hello", name)'));
    const card = executeCodeCard(page);
    await card.waitForPhase("failed");
    expect(await card.text("stderr")).toMatch(/StdinNotImplementedError: .*\n$/);
    await expect(card.root.locator(executeCodePart("explanation"))).toContainText(
      "No one can type into the program here, so input() gets nothing.",
    );
  });

  test("a program past the time limit times out, and the chat's next run works", async ({ page }) => {
    await page.goto(at(PORTS.jupyter));
    await send(page, python('print("before the loop", flush=True)\nwhile True:\n    pass'));
    const card = executeCodeCard(page, 0);
    await card.waitForPhase("timed-out");
    await expect(card.message).toContainText("Stopped after 4 s");
    expect(await card.text("stdout")).toBe("before the loop\n");

    await send(page, python("print(6 * 7)"));
    const next = executeCodeCard(page, 1);
    expect(await next.waitForEnd(), await next.root.innerText()).toBe("succeeded");
    expect(await next.text("stdout")).toBe("42\n");
  });

  test("a student's CSV goes into the chat's kernel; a figure and the table it wrote come out, and the next run reads that table", async ({
    page,
  }) => {
    await page.goto(at(PORTS.jupyter));
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: "Attach files" }).click();
    await (await chooser).setFiles([
      {
        name: "scores.csv",
        mimeType: "text/csv",
        buffer: Buffer.from("student,score\nada,90\nada,70\nbob,60\nbob,80\ncy,75\n"),
      },
    ]);
    await expect(page.locator(executeCodePart("attachment"))).toHaveAttribute("data-state", "ready");
    await send(page, "Plot the mean score per student");
    const card = executeCodeCard(page, 0);
    expect(await card.waitForEnd(), await card.root.innerText()).toBe("succeeded");
    expect(await card.text("stdout")).toMatch(/ada\s+80\.0\nbob\s+70\.0\ncy\s+75\.0/);
    await expect(card.root.getByRole("img", { name: /^Mean per student/ })).toBeVisible();
    const table = card.root.getByRole("region", { name: "First rows of means.csv" });
    await expect(table.locator("tbody tr")).toHaveCount(3);

    // The table the first run wrote is still in the chat's working directory.
    await send(page, python('import csv\nrows = list(csv.reader(open("means.csv")))\nprint(len(rows), rows[1])'));
    const second = executeCodeCard(page, 1);
    expect(await second.waitForEnd(), await second.root.innerText()).toBe("succeeded");
    expect(await second.text("stdout")).toBe("4 ['ada', '80.0']\n");
  });
});
