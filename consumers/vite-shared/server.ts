// The harness from `execute-code-ui/harness` as this app's backend: it serves
// the built page and answers POST /api/chat with the scripted model, the real
// server tool and the sandbox (Pyodide).
import { fileURLToPath } from "node:url";
import { startHarness } from "execute-code-ui/harness";

const harness = await startHarness({
  port: Number(process.env.PORT ?? 0),
  demoDir: fileURLToPath(new URL("./dist/", import.meta.url)),
});
console.log(`listening on ${harness.url}`);
