// The browser every test and benchmark drives: the system Chromium (no
// browser can be downloaded on these machines), headless, without the
// background services that would try to reach the network.
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
