import { chromium } from "playwright";
const [,, url, file, width = "800", selector = "", theme = ""] = process.argv;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox","--disable-gpu","--disable-background-networking","--disable-component-update","--disable-sync","--no-first-run"] });
const page = await browser.newPage({ viewport: { width: Number(width), height: 900 }, deviceScaleFactor: 1, colorScheme: theme === "dark" ? "dark" : "light" });
await page.goto(url, { waitUntil: "networkidle" });
await page.waitForTimeout(1500);
if (selector) await page.locator(selector).first().screenshot({ path: file });
else await page.screenshot({ path: file, fullPage: true });
await browser.close();
