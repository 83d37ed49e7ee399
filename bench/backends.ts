// The two sandbox backends side by side, through the server tool as an app
// calls it: the harness's codeapi sandbox (CPython engine, over loopback
// HTTP) and Jupyter kernels on a local Jupyter server, a kernel per run and
// a kernel per chat. For bench/run.ts, or on its own:
// `npm exec -- tsx bench/backends.ts`.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { generateKeyPair } from "jose";
import { createCpythonExecutor, createSandbox, probeCpython } from "../src/sandbox";
import { codeapiSandbox, createExecuteCodeTool, createJupyterSandbox, type Sandbox } from "../src/server";
import { startJupyter } from "../tests/node/jupyter-server.ts";
import { median } from "./median.ts";

const PLOT = "import matplotlib.pyplot as plt\nplt.plot([1, 4, 9])\nplt.title('squares')\nplt.show()";

export interface BackendFigures {
  print: number;
  plot: number;
  /** One-line runs a second, 4 at a time, each in a chat of its own. */
  perSecond: number;
}

/** Median times of `print(1)` and a small plot in one chat, then 16 one-line runs 4 at a time. */
async function figuresOf(sandbox: Sandbox): Promise<BackendFigures> {
  const run = async (code: string, chatId: string) => {
    const tool = createExecuteCodeTool({ sandbox, participantId: `p-${chatId}`, tenantId: "bench", chatId });
    let last: { status?: string } | undefined;
    for await (const output of tool.execute!(
      { code },
      { toolCallId: "c", messages: [], context: {} },
    ) as AsyncIterable<{ status?: string }>)
      last = output;
    if (last?.status !== "completed") throw new Error(`The run did not complete: ${JSON.stringify(last)}`);
  };
  const timed = async (code: string, times: number) => {
    const values: number[] = [];
    for (let i = 0; i < times; i++) {
      const start = performance.now();
      await run(code, "one");
      values.push(performance.now() - start);
    }
    return median(values);
  };
  await run("print(0)", "one");
  const print = await timed("print(1)", 7);
  const plot = await timed(PLOT, 5);
  const queue = Array.from({ length: 16 }, (_, n) => n);
  const start = performance.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let n = queue.shift(); n !== undefined; n = queue.shift()) await run(`print(${n})`, `chat-${n}`);
    }),
  );
  return { print, plot, perSecond: 16 / ((performance.now() - start) / 1000) };
}

/** codeapi (the harness's CPython sandbox) and Jupyter per run and per chat; null for one this machine cannot run. */
export async function backendFigures() {
  let codeapi: BackendFigures | null = null;
  if (probeCpython().available) {
    const { privateKey, publicKey } = await generateKeyPair("EdDSA");
    const service = createSandbox({
      publicKey,
      algorithms: ["EdDSA"],
      issuer: "bench",
      audience: "sandbox",
      executor: createCpythonExecutor(),
      rateLimit: { max: 1_000_000, windowMs: 1000 },
    });
    const server = createServer((req, res) => void service.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      codeapi = await figuresOf(
        codeapiSandbox({
          url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          signing: { privateKey, algorithm: "EdDSA", issuer: "bench", audience: "sandbox" },
        }),
      );
    } finally {
      server.close();
      await service.close();
    }
  }
  const jupyter = await startJupyter().catch(() => null);
  if (!jupyter) return { codeapi, perRun: null, perChat: null };
  try {
    const perRun = createJupyterSandbox({ url: jupyter.url, token: jupyter.token });
    const perChat = createJupyterSandbox({ url: jupyter.url, token: jupyter.token, kernels: "per-chat" });
    const figures = { codeapi, perRun: await figuresOf(perRun), perChat: await figuresOf(perChat) };
    await Promise.all([perRun.close(), perChat.close()]);
    return figures;
  } finally {
    await jupyter.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await backendFigures();
  const ms = (n: number | undefined) => (n === undefined ? "—" : `${n.toFixed(0)} ms`);
  console.log("| backend | `print(1)` | small plot | one-line runs a second, 4 at a time, a chat each |");
  console.log("|---|---|---|---|");
  for (const [name, f] of Object.entries({
    "codeapi (harness, CPython)": figures.codeapi,
    "Jupyter, a kernel per run": figures.perRun,
    "Jupyter, a kernel per chat": figures.perChat,
  }))
    console.log(`| ${name} | ${ms(f?.print)} | ${ms(f?.plot)} | ${f ? f.perSecond.toFixed(1) : "—"} |`);
}
