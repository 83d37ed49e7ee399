import { expect, test } from "@playwright/test";
import { executeCodeCard } from "execute-code-ui/testing";
import { PORTS } from "./playwright.config";

test("the tutor runs a student's program and shows its output", async ({ page }) => {
  await page.goto(`http://127.0.0.1:${PORTS.main}/`); // your chat page; here the harness demo
  const program = 'import time\nprint("tick 0", flush=True)\ntime.sleep(1)\nprint(sum(range(1, 101)))';
  await page.getByRole("textbox", { name: "Message" }).fill(`\`\`\`python\n${program}\n\`\`\``);
  await page.getByRole("button", { name: "Send" }).click();

  const card = executeCodeCard(page); // the latest execute_code call
  await card.waitForOutput("stdout", "tick 0"); // live output, while it still runs
  expect(await card.waitForEnd()).toBe("succeeded"); // a failure names the phase it ended in
  expect(await card.text("stdout")).toBe("tick 0\n5050\n");
  expect(await card.exitCode()).toBe(0);
});
