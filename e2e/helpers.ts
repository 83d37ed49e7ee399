import type { Page } from "@playwright/test";

export const at = (port: number) => `http://127.0.0.1:${port}/`;

/** A chat message with a fenced Python block, which the scripted model runs as written. */
export const python = (code: string) => `Run this please:\n\`\`\`python\n${code}\n\`\`\``;

export async function send(page: Page, text: string) {
  await page.getByRole("textbox", { name: "Message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}
