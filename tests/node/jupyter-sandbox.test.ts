// The Jupyter sandbox against a real Jupyter server (Debian's jupyter-server
// and ipykernel): what a program prints, its exit and traceback, input(),
// live output, Stop, the time limit, and a server that refuses or dies.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExecuteCodeRunFile } from "../../src/contract";
import {
  createExecuteCodeTool,
  createUploadRoute,
  createJupyterSandbox,
  createRunFileRoute,
  type ExecuteCodeResult,
  type SandboxEvent,
  type SandboxRunRequest,
} from "../../src/server";
import { startHarness } from "../../src/harness";
import { startJupyter, type JupyterServer } from "./jupyter-server";
import { finalOutput } from "./tool-runs";

let jupyter: JupyterServer;
beforeAll(async () => {
  jupyter = await startJupyter();
}, 120_000);
afterAll(async () => {
  await jupyter?.stop();
});

const request = (code: string, signal = new AbortController().signal): SandboxRunRequest => ({
  code,
  files: [],
  participantId: "ada",
  tenantId: "course-7",
  timeoutMs: 30_000,
  limits: { stdout: 8000, stderr: 4000 },
  signal,
});

async function events(code: string, options: { url?: string; token?: string; signal?: AbortSignal } = {}) {
  const sandbox = createJupyterSandbox({ url: options.url ?? jupyter.url, token: options.token ?? jupyter.token });
  const seen: SandboxEvent[] = [];
  for await (const event of sandbox.run(request(code, options.signal))) seen.push(event);
  return seen;
}

const resultOf = (seen: SandboxEvent[]): ExecuteCodeResult => {
  const last = seen.at(-1);
  if (last?.kind !== "done") throw new Error(`no result: ${JSON.stringify(seen)}`);
  return last.outcome.result;
};

/** Until the server has no kernel left: each run's kernel goes with it. */
const noKernelsLeft = async () => {
  for (let tries = 0; tries < 100 && (await jupyter.kernels()).length > 0; tries++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  return jupyter.kernels();
};

describe("the Jupyter sandbox", () => {
  it("returns what the program printed on each stream and its exit code, and shuts its kernel down", async () => {
    const result = resultOf(await events('import sys\nprint("hi")\nprint("careful", file=sys.stderr)\nsys.exit(3)'));
    expect(result).toMatchObject({ status: "completed", stdout: "hi\n", stderr: "careful\n", exitCode: 3 });
    expect(await noKernelsLeft()).toEqual([]);
  });

  it("names the program's own line in a traceback, as the kit's own sandbox does, and nothing of the runner", async () => {
    const result = resultOf(await events("x = 1\ny = 0\nprint(x / y)"));
    expect(result).toMatchObject({ status: "completed", exitCode: 1, stdout: "" });
    const { stderr } = result as { stderr: string };
    expect(stderr).toMatch(
      /^Traceback \(most recent call last\):\n {2}File "<program>", line 3, in <module>\n {4}print\(x \/ y\)\n/,
    );
    expect(stderr).toMatch(/ZeroDivisionError: division by zero\n$/);
    expect(stderr).not.toMatch(/execute-code-ui|Cell In|\x1b/);
    const syntax = resultOf(await events("print(1\n"));
    expect(syntax).toMatchObject({ exitCode: 1 });
    expect((syntax as { stderr: string }).stderr).toMatch(/File "<program>", line 1[\s\S]*SyntaxError/);
  });

  it("hands over a figure with what it shows, to its owner alone, whether the program showed it or not", async () => {
    const sandbox = createJupyterSandbox({ url: jupyter.url, token: jupyter.token });
    const seen: SandboxEvent[] = [];
    const program = [
      "import matplotlib.pyplot as plt",
      "plt.plot([1, 2, 3], [1, 4, 9])",
      'plt.title("Squares")',
      'plt.xlabel("n")',
      "plt.show()",
      "plt.figure()",
      'plt.bar(["a", "b"], [2, 3])',
      'plt.title("Bars")',
    ].join("\n");
    for await (const event of sandbox.run(request(program))) seen.push(event);
    const result = resultOf(seen) as { files?: ExecuteCodeRunFile[] };
    expect(result).toMatchObject({ status: "completed", exitCode: 0 });
    expect(result.files).toEqual([
      // Shown by the kernel's own plt.show() in a kernel that had not loaded pyplot: its PNG's size, the runner's words.
      expect.objectContaining({
        name: "figure-1.png",
        mediaType: "image/png",
        kind: "image",
        alt: "Squares, x: n",
        width: expect.any(Number),
      }),
      expect.objectContaining({ name: "figure-2.png", alt: "Bars", width: 640, height: 480 }),
    ]);
    const route = createRunFileRoute({ sandbox, tenantId: "course-7" });
    const url = (file: ExecuteCodeRunFile) => `http://localhost/api/files/${file.ref.sessionId}/${file.ref.fileId}`;
    const mine = await route.handle(new Request(url(result.files![1]!)), { participantId: "ada" });
    expect(mine.status).toBe(200);
    expect(mine.headers.get("content-type")).toBe("image/png");
    expect(
      Buffer.from(await mine.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
    expect((await route.handle(new Request(url(result.files![1]!)), { participantId: "eve" })).status).toBe(404);
  });

  it("a message the library would refuse ends that run, not the server; a figure too big is counted, not kept", async () => {
    const malformed = [
      "k = get_ipython().kernel",
      "s = k.session",
      "s.send(k.iopub_socket, s.msg('stream', {'name': 'stdout'}, parent=k.get_parent()), ident=b'x')",
      "import time",
      "time.sleep(5)",
    ].join("\n");
    expect(resultOf(await events(malformed))).toMatchObject({ status: "error", code: "sandbox_failed" });
    expect(await noKernelsLeft()).toEqual([]);
    const huge =
      'from IPython.display import publish_display_data\npublish_display_data({"image/png": "A" * 8_000_000})';
    const result = resultOf(await events(huge)) as { files?: unknown[]; filesCut?: number };
    expect(result).toMatchObject({ status: "completed", exitCode: 0, filesCut: 1 });
    expect(result.files).toBeUndefined();
  });

  it("a kernel that sends one message too large, or too much at once, loses its run, not the server", async () => {
    // Kinds of message Jupyter's output rate limit leaves out: the server takes in no more than its caps.
    const send = (bytes: number, times: number) =>
      [
        "k = get_ipython().kernel",
        `for _ in range(${times}):`,
        `    k.session.send(k.iopub_socket, "status", content={"execution_state": "busy", "pad": "x" * ${bytes}}, parent=k.get_parent("shell"))`,
        // Long enough that on a busy machine the flood reaches the server before the run could end by itself.
        "import time",
        "time.sleep(25)",
      ].join("\n");
    // Sixteen: on a busy machine the kernel sends more slowly, and the cap counts ten seconds at a time.
    for (const program of [send(40_000_000, 1), send(12_000_000, 16)]) {
      const result = resultOf(await events(program));
      expect(result).toMatchObject({ status: "error", code: "sandbox_failed" });
      expect((result as { message: string }).message).toMatch(/connection to the Python kernel was lost/);
    }
    expect(await noKernelsLeft()).toEqual([]);
    // A run's files at their caps still come back whole, one message each.
    const files = resultOf(
      await events(
        "import os\nfor n in range(3):\n    open(f'big-{n}.bin', 'wb').write(os.urandom(5_000_000))\nprint('wrote')",
      ),
    ) as { files?: Array<{ name: string; size: number }> };
    expect(files.files?.map((file) => [file.name, file.size])).toEqual([
      ["big-0.bin", 5_000_000],
      ["big-1.bin", 5_000_000],
      ["big-2.bin", 5_000_000],
    ]);
  }, 120_000);

  it("says that input() cannot read typed input, instead of waiting for it", async () => {
    const result = resultOf(await events('name = input("Name? ")\nprint(name)'));
    expect(result).toMatchObject({ status: "completed", exitCode: 1, failure: { explanation: { kind: "no-input" } } });
  });

  it("says why a program failed, with the failing frame's values, as the sandboxes do", async () => {
    const result = resultOf(await events("def mean(values):\n    return sum(values) / len(values)\nprint(mean([]))"));
    expect(result).toMatchObject({
      exitCode: 1,
      failure: {
        type: "ZeroDivisionError",
        function: "mean",
        line: 2,
        column: 11,
        endColumn: 36,
        values: [{ name: "values", value: "[]" }],
        explanation: { kind: "zero-division", text: "len(values)" },
      },
    });
  });

  it("streams output while the program runs", async () => {
    const seen = await events('import time\nprint("first", flush=True)\ntime.sleep(1.5)\nprint("second")');
    const firstOutput = seen.findIndex((event) => event.kind === "output");
    expect(seen.map((event) => event.kind)).toEqual(expect.arrayContaining(["queued", "started", "output", "done"]));
    expect(seen[firstOutput]).toMatchObject({ progress: { stdout: "first\n" } });
    expect(resultOf(seen)).toMatchObject({ stdout: "first\nsecond\n", exitCode: 0 });
  });

  it("ends the run and its kernel on Stop", async () => {
    const stop = new AbortController();
    const sandbox = createJupyterSandbox({ url: jupyter.url, token: jupyter.token });
    const run = (async () => {
      for await (const event of sandbox.run(
        request('import time\nprint("going", flush=True)\ntime.sleep(60)', stop.signal),
      ))
        if (event.kind === "output") stop.abort(new Error("stopped"));
    })();
    await expect(run).rejects.toThrow("stopped");
    expect(await noKernelsLeft()).toEqual([]);
  });

  it("many students of one client do not take every kernel: past the client's share, theirs is busy, another's goes", async () => {
    const sandbox = createJupyterSandbox({ url: jupyter.url, token: jupyter.token, maxKernelsPerClient: 2 });
    const stop = new AbortController();
    const from = (participantId: string, clientId: string, code: string) => ({
      ...request(code, stop.signal),
      participantId,
      clientId,
    });
    try {
      // Two cookies of one address, each holding a kernel with a sleeping program.
      const holding = ["m1", "m2"].map((student) => {
        let going!: () => void;
        const started = new Promise<void>((resolve) => (going = resolve));
        const run = (async () => {
          const code = "import time\nprint('going', flush=True)\ntime.sleep(30)";
          for await (const event of sandbox.run(from(student, "203.0.113.7", code)))
            if (event.kind === "output") going();
        })().catch(() => undefined);
        return { started, run };
      });
      await Promise.all(holding.map(({ started }) => started));
      const third: SandboxEvent[] = [];
      for await (const event of sandbox.run(from("m3", "203.0.113.7", "print(3)"))) third.push(event);
      expect(third.at(-1)).toMatchObject({
        kind: "done",
        outcome: { ok: false, result: { status: "busy", message: expect.stringMatching(/from your network/) } },
      });
      const elsewhere: SandboxEvent[] = [];
      for await (const event of sandbox.run({ ...from("ann", "198.51.100.2", "print(4)") })) elsewhere.push(event);
      expect(resultOf(elsewhere)).toMatchObject({ status: "completed", stdout: "4\n" });
      stop.abort(new Error("done"));
      await Promise.all(holding.map(({ run }) => run));
      const after: SandboxEvent[] = [];
      for await (const event of sandbox.run({ ...request("print(5)"), participantId: "m3", clientId: "203.0.113.7" }))
        after.push(event);
      expect(resultOf(after)).toMatchObject({ status: "completed", stdout: "5\n" });
    } finally {
      stop.abort(new Error("done"));
      await sandbox.close();
    }
    expect(await noKernelsLeft()).toEqual([]);
  });

  it("one student's runs do not take every kernel: past their share, their next run is busy, another's goes", async () => {
    const sandbox = createJupyterSandbox({ url: jupyter.url, token: jupyter.token, maxRunsPerStudent: 1 });
    const stop = new AbortController();
    try {
      let going!: () => void;
      const started = new Promise<void>((resolve) => (going = resolve));
      const long = (async () => {
        const run = sandbox.run(request("import time\nprint('going', flush=True)\ntime.sleep(30)", stop.signal));
        for await (const event of run) if (event.kind === "output") going();
      })().catch(() => undefined);
      await started;
      const again: SandboxEvent[] = [];
      for await (const event of sandbox.run(request("print(2)"))) again.push(event);
      expect(again.at(-1)).toMatchObject({
        kind: "done",
        outcome: {
          ok: false,
          result: {
            status: "busy",
            message: "Your programs already running use every Python kernel one student may have; wait for one to end.",
          },
        },
      });
      const other: SandboxEvent[] = [];
      for await (const event of sandbox.run({ ...request("print(3)"), participantId: "bob" })) other.push(event);
      expect(resultOf(other)).toMatchObject({ status: "completed", stdout: "3\n" });
      stop.abort(new Error("done"));
      await long;
      // Once it ended, the student's next run goes.
      const after: SandboxEvent[] = [];
      for await (const event of sandbox.run(request("print(4)"))) after.push(event);
      expect(resultOf(after)).toMatchObject({ status: "completed", stdout: "4\n" });
    } finally {
      stop.abort(new Error("done"));
      await sandbox.close();
    }
  });

  it("through the tool: a program past the time limit is a timeout that keeps its output, and its kernel goes", async () => {
    const tool = createExecuteCodeTool({
      sandbox: createJupyterSandbox({ url: jupyter.url, token: jupyter.token }),
      participantId: "ada",
      tenantId: "course-7",
      timeoutMs: 3000,
    });
    const result = await finalOutput(tool, 'print("started", flush=True)\nwhile True:\n    pass');
    expect(result).toMatchObject({ status: "timeout", stdout: "started\n" });
    expect(await noKernelsLeft()).toEqual([]);
  });

  it("gives a run the student's uploads, through the upload route, to their owner alone", async () => {
    const sandbox = createJupyterSandbox({ url: jupyter.url, token: jupyter.token, kernels: "per-chat" });
    try {
      const route = createUploadRoute({ sandboxFiles: sandbox.studentFiles("course-7") });
      const form = new FormData();
      form.append("file", new Blob(["student,score\nada,4\nbob,5\n"]), "scores.csv");
      // Larger than one cell carries: it goes in pieces.
      form.append("file", new Blob([new Uint8Array(9 * 1024 * 1024).fill(65)]), "big.txt");
      const uploaded = await route.handle(new Request("http://app.test/api/uploads", { method: "POST", body: form }), {
        participantId: "ada",
      });
      expect(uploaded.status).toBe(201);
      const { files } = (await uploaded.json()) as { files: Array<{ storedName: string; url: string; size: number }> };
      const refOf = (url: string) => {
        const [sessionId, fileId] = url.split("/").slice(-2) as [string, string];
        return { sessionId, fileId };
      };
      const chatFile = (file: (typeof files)[number]) => ({
        name: file.storedName,
        mediaType: "text/plain",
        size: file.size,
        ref: refOf(file.url),
        from: "student" as const,
      });
      const tool = (participantId: string, chatId: string) =>
        createExecuteCodeTool({
          sandbox,
          participantId,
          tenantId: "course-7",
          chatId,
          files: files.map(chatFile),
        });
      expect(tool("ada", "c1").description).toMatch(
        /holds the files the student attached \(open them by name\):\n- scores\.csv \(text\/plain, 26 B/,
      );
      const read = "import os\nprint(open('scores.csv').read().count('\\n'), os.path.getsize('big.txt'))";
      expect(await finalOutput(tool("ada", "c1"), `${read}\nopen('scores.csv', 'a').write('cy,3\\n')`)).toMatchObject({
        status: "completed",
        stdout: "3 9437184\n",
      });
      // The chat's kernel keeps what its program did to them: they are not written over.
      expect(await finalOutput(tool("ada", "c1"), read)).toMatchObject({ stdout: "4 9437184\n", continued: true });
      // Another student with the same references gets nothing of them.
      const eve = (await finalOutput(tool("eve", "e1"), "import os\nprint(sorted(os.listdir('.')))")) as {
        stdout: string;
        filesGone?: string[];
      };
      expect(eve.stdout).toBe("[]\n");
      expect(eve.filesGone).toEqual(["scores.csv", "big.txt"]);
    } finally {
      await sandbox.close();
    }
    expect(await noKernelsLeft()).toEqual([]);
  });

  it("a wrong token is a set-up error, an unreachable server says it cannot be reached", async () => {
    expect(resultOf(await events("print(1)", { token: "wrong" }))).toMatchObject({
      status: "error",
      code: "sandbox_unauthorized",
    });
    expect(resultOf(await events("print(1)", { url: "http://127.0.0.1:9/" }))).toMatchObject({
      status: "error",
      code: "sandbox_unavailable",
    });
  });
});

describe("a kernel per chat", () => {
  const inChat =
    (chatId: string, participantId = "ada") =>
    (code: string) => ({ ...request(code), chatId, participantId });
  const runIn = async (sandbox: ReturnType<typeof createJupyterSandbox>, run: SandboxRunRequest) => {
    const seen: SandboxEvent[] = [];
    for await (const event of sandbox.run(run)) seen.push(event);
    return resultOf(seen) as ExecuteCodeResult & { stdout: string; stderr: string; exitCode: number };
  };

  it("keeps a chat's variables for its next run, and no other chat or student sees them", async () => {
    const sandbox = createJupyterSandbox({ url: jupyter.url, token: jupyter.token, kernels: "per-chat" });
    try {
      const first = await runIn(sandbox, inChat("c1")("scores = [3, 4, 5]\nprint(len(scores))"));
      expect(first).toMatchObject({ stdout: "3\n", exitCode: 0 });
      // The card says which runs started from the chat's earlier ones.
      expect(first).not.toHaveProperty("continued");
      expect(await runIn(sandbox, inChat("c1")("print(sum(scores))"))).toMatchObject({
        stdout: "12\n",
        exitCode: 0,
        continued: true,
      });
      // An error in a run keeps the chat's kernel and what it held.
      expect(await runIn(sandbox, inChat("c1")("1 / 0"))).toMatchObject({ exitCode: 1 });
      expect(await runIn(sandbox, inChat("c1")("print(max(scores))"))).toMatchObject({ stdout: "5\n" });
      for (const other of [inChat("c2"), inChat("c1", "eve")]) {
        const result = await runIn(sandbox, other("print(scores)"));
        expect(result.exitCode).toBe(1);
        expect(result.stderr).toMatch(/NameError: name 'scores' is not defined\n$/);
        expect(result).not.toHaveProperty("continued");
      }
    } finally {
      await sandbox.close();
    }
    expect(await noKernelsLeft()).toEqual([]);
  });

  it("restarts a chat's Python when the model asks, and tells the model and the card that it did", async () => {
    const sandbox = createJupyterSandbox({ url: jupyter.url, token: jupyter.token, kernels: "per-chat" });
    const tool = createExecuteCodeTool({ sandbox, participantId: "ada", tenantId: "course-7", chatId: "c1" });
    try {
      expect(tool.description).toMatch(/To restart Python .* call with `restart: true`/);
      expect(await finalOutput(tool, "scores = [3, 4, 5]")).toMatchObject({ status: "completed", exitCode: 0 });
      const kernelsBefore = (await jupyter.kernels()).map((kernel) => kernel.id);
      const restarted = await finalOutput(tool, { code: 'print("scores" in globals())', restart: true });
      expect(restarted).toMatchObject({ status: "completed", stdout: "False\n", restarted: true });
      expect(restarted).not.toHaveProperty("continued");
      const toModel = tool.toModelOutput!({ toolCallId: "call-1", input: { code: "" }, output: restarted as never });
      expect(JSON.stringify(toModel)).toMatch(/python session: restarted as asked/);
      // The chat's old kernel is gone, not left beside the new one.
      const kernelsAfter = (await jupyter.kernels()).map((kernel) => kernel.id);
      expect(kernelsAfter).toHaveLength(1);
      expect(kernelsBefore).not.toContain(kernelsAfter[0]);
      // The fresh session is the chat's from then on.
      expect(await finalOutput(tool, "x = 2\nprint(x)")).toMatchObject({ stdout: "2\n", continued: true });
      expect(await finalOutput(tool, "print(x + 1)")).toMatchObject({ stdout: "3\n", continued: true });
    } finally {
      await sandbox.close();
    }
    expect(await noKernelsLeft()).toEqual([]);
  });

  it("hands over the files a run wrote in its kernel's own directory, within the caps, to their owner", async () => {
    const sandbox = createJupyterSandbox({ url: jupyter.url, token: jupyter.token, kernels: "per-chat" });
    try {
      const program = [
        "import os",
        'open("means.csv", "w").write("student,mean\\nada,4.5\\n")',
        'os.makedirs("out", exist_ok=True)',
        'open("out/notes.txt", "w").write("hello")',
        'open("big.bin", "wb").write(b"x" * (11 * 1024 * 1024))',
        'os.symlink("/etc/passwd", "passwd")',
        "print(os.getcwd() != os.path.expanduser('~'))",
      ].join("\n");
      const first = await runIn(sandbox, inChat("files")(program));
      expect(first).toMatchObject({ status: "completed", exitCode: 0, stdout: "True\n", filesCut: 1 });
      const files = (first as { files?: ExecuteCodeRunFile[] }).files!;
      expect(files.map((file) => [file.name, file.mediaType, file.kind, file.size])).toEqual([
        ["means.csv", "text/csv", "file", 21],
        ["out/notes.txt", "text/plain", "file", 5],
      ]);
      const route = createRunFileRoute({ sandbox, tenantId: "course-7" });
      const url = `http://localhost/api/files/${files[0]!.ref.sessionId}/${files[0]!.ref.fileId}`;
      expect(await (await route.handle(new Request(url), { participantId: "ada" })).text()).toBe(
        "student,mean\nada,4.5\n",
      );
      expect((await route.handle(new Request(url), { participantId: "eve" })).status).toBe(404);
      // The chat's next run finds them where it left them, and hands over only what it changed.
      const next = await runIn(
        sandbox,
        inChat("files")('print(open("means.csv").read().count("\\n"))\nopen("out/notes.txt", "a").write("!")'),
      );
      expect(next).toMatchObject({ stdout: "2\n", continued: true });
      expect((next as { files?: ExecuteCodeRunFile[] }).files!.map((file) => [file.name, file.size])).toEqual([
        ["out/notes.txt", 6],
      ]);
      // Another chat's kernel has a directory of its own.
      expect(await runIn(sandbox, inChat("other")('import os\nprint(sorted(os.listdir(".")))'))).toMatchObject({
        stdout: "[]\n",
      });
    } finally {
      await sandbox.close();
    }
  });

  it("tells the model that a chat's runs share one Python session, and only where they do", async () => {
    const shared = createJupyterSandbox({ url: jupyter.url, token: jupyter.token, kernels: "per-chat" });
    const fresh = createJupyterSandbox({ url: jupyter.url, token: jupyter.token });
    const description = (sandbox: typeof shared, chatId?: string) =>
      createExecuteCodeTool({ sandbox, participantId: "ada", tenantId: "course-7", ...(chatId ? { chatId } : {}) })
        .description as string;
    expect(description(shared, "c1")).toMatch(
      /share one Python session: variables, functions, imports and the files in the working directory/,
    );
    // The packages its kernels have, once one has started; until then, no list it cannot vouch for.
    expect(description(fresh)).toMatch(/whatever else the Python kernel has installed/);
    const probe = createExecuteCodeTool({ sandbox: fresh, participantId: "ada", tenantId: "course-7" });
    expect(await finalOutput(probe, "print(1)")).toMatchObject({ stdout: "1\n" });
    const installed = ["numpy", "pandas", "matplotlib"].filter((name) => description(fresh).includes(name));
    expect(installed).toEqual(["numpy", "pandas", "matplotlib"]);
    expect(description(fresh)).toMatch(/^Run a Python 3 program [^;]* are available, nothing else;/);
    expect(description(fresh, "c1")).toMatch(/nothing is kept between runs/);
    expect(description(shared)).toMatch(/nothing is kept between runs/);
    // A figure an earlier run of the chat made is not handed to the next run, which would be refused for it.
    const figure = {
      name: "figure-1.png",
      mediaType: "image/png",
      size: 10,
      kind: "image" as const,
      ref: { sessionId: "s", fileId: "f" },
      from: "run" as const,
    };
    const after = createExecuteCodeTool({
      sandbox: fresh,
      participantId: "ada",
      tenantId: "course-7",
      files: [figure],
    });
    expect(await finalOutput(after, "print(1)")).toMatchObject({ status: "completed", stdout: "1\n" });
    // It takes none of the chat's files: the model is not told of a working directory that holds them.
    const withFiles = createExecuteCodeTool({
      sandbox: shared,
      participantId: "ada",
      tenantId: "course-7",
      chatId: "c1",
      files: [],
    });
    expect(withFiles.description).not.toMatch(/holds the files the student attached/);
  });

  it("a student's chat kernels are bounded: the one idle the longest goes, never another student's; a full sandbox is busy", async () => {
    const sandbox = createJupyterSandbox({
      url: jupyter.url,
      token: jupyter.token,
      kernels: "per-chat",
      maxChatKernelsPerStudent: 2,
      maxKernels: 3,
    });
    try {
      await runIn(sandbox, inChat("e1", "eve")("mine = 1"));
      for (const chatId of ["a1", "a2", "a3"]) await runIn(sandbox, inChat(chatId)(`mine = "${chatId}"`));
      const still = async (chatId: string, participantId = "ada") =>
        (await runIn(sandbox, inChat(chatId, participantId)("print('mine' in globals())"))).stdout;
      expect(await still("e1", "eve")).toBe("True\n");
      expect(await still("a3")).toBe("True\n");
      expect(await still("a2")).toBe("True\n");
      // a1's kernel went for a3's: it starts again empty (and a2, idle the longest now, goes for it).
      expect(await still("a1")).toBe("False\n");
      // Three kernels held, all busy or not, and a fourth student's run while every one is taken is busy.
      const stop = new AbortController();
      // Runs that go on (read to their end in the background) until stopped; each says when it is going.
      const running: Promise<void>[] = [];
      const long = (chatId: string, participantId: string) =>
        new Promise<void>((going) => {
          const run = sandbox.run({
            ...inChat(chatId, participantId)("import time\nprint('going', flush=True)\ntime.sleep(30)"),
            signal: stop.signal,
          });
          running.push(
            (async () => {
              for await (const event of run) if (event.kind === "output") going();
            })().catch(() => undefined),
          );
        });
      await Promise.all([long("e1", "eve"), long("a1", "ada"), long("a3", "ada")]);
      expect(await runIn(sandbox, inChat("z1", "zoe")("print(1)"))).toMatchObject({ status: "busy" });
      stop.abort(new Error("done"));
      await Promise.all(running);
    } finally {
      await sandbox.close();
    }
  }, 120_000);

  it("a chat kernel lost while it waits is shut down, and one left running threads is ended with the run", async () => {
    const sandbox = createJupyterSandbox({ url: jupyter.url, token: jupyter.token, kernels: "per-chat" });
    try {
      await runIn(sandbox, inChat("w1")("kept = 1"));
      const [held] = await jupyter.kernels();
      await fetch(`${jupyter.url}api/kernels/${held!.id}`, {
        method: "DELETE",
        headers: { authorization: `token ${jupyter.token}` },
      });
      expect(await noKernelsLeft()).toEqual([]);
      expect(await runIn(sandbox, inChat("w1")("print('kept' in globals())"))).toMatchObject({ stdout: "False\n" });

      const threads = await runIn(
        sandbox,
        inChat("w2")("import threading, time\nthreading.Thread(target=time.sleep, args=(30,)).start()\nkept = 2"),
      );
      expect(threads).toMatchObject({ status: "completed", exitCode: 0 });
      expect(threads.stderr).toMatch(/left threads or processes running, so this chat's Python session was ended/);
      expect(await runIn(sandbox, inChat("w2")("print('kept' in globals())"))).toMatchObject({ stdout: "False\n" });

      // Work started past the threading module is found too: a raw thread, a child process, an asyncio task.
      for (const [chat, program] of [
        ["w4", "import _thread, time\ndef wait():\n    time.sleep(30)\n_thread.start_new_thread(wait, ())\nkept = 4"],
        ["w5", "import subprocess\nsubprocess.Popen(['sleep', '30'])\nkept = 5"],
        ["w6", "import asyncio\nasyncio.get_event_loop().create_task(asyncio.sleep(30))\nkept = 6"],
      ] as const) {
        const result = await runIn(sandbox, inChat(chat)(program));
        expect(result.stderr, program).toMatch(/left threads or processes running/);
        expect(await runIn(sandbox, inChat(chat)("print('kept' in globals())"))).toMatchObject({ stdout: "False\n" });
      }

      // A program that says itself that it left nothing running is not believed over the runner.
      const forged = [
        "import threading, time",
        "from IPython.display import publish_display_data",
        "def forge():",
        "    for _ in range(2000):",
        '        publish_display_data({"application/vnd.execute-code-ui.exit+json": {"code": 0, "left": 0}})',
        "        time.sleep(0.001)",
        "    time.sleep(30)",
        "threading.Thread(target=forge).start()",
        "kept = 3",
      ].join("\n");
      expect(await runIn(sandbox, inChat("w3")(forged))).toMatchObject({ status: "completed", exitCode: 0 });
      expect(await runIn(sandbox, inChat("w3")("print('kept' in globals())"))).toMatchObject({ stdout: "False\n" });
    } finally {
      await sandbox.close();
    }
    expect(await noKernelsLeft()).toEqual([]);
  });

  it("a chat's stopped run is interrupted: the chat keeps its variables if the program ended there, else starts afresh", async () => {
    const sandbox = createJupyterSandbox({ url: jupyter.url, token: jupyter.token, kernels: "per-chat", idleMs: 500 });
    /** Runs `code` in chat c3 and stops it once it has printed. */
    const stopAfterOutput = async (code: string) => {
      const stop = new AbortController();
      const stopped = (async () => {
        for await (const event of sandbox.run({ ...inChat("c3")(code), signal: stop.signal }))
          if (event.kind === "output") stop.abort(new Error("stopped"));
      })();
      await expect(stopped).rejects.toThrow("stopped");
    };
    const kept = async () => (await runIn(sandbox, inChat("c3")("print('kept' in globals())"))).stdout;
    try {
      await runIn(sandbox, inChat("c3")("kept = 1"));
      await stopAfterOutput('print("going", flush=True)\nimport time\ntime.sleep(60)');
      expect(await kept()).toBe("True\n");
      // A program that catches the interrupt and goes on: its kernel is shut down, the chat starts empty.
      await stopAfterOutput(
        'import time\nprint("going", flush=True)\nwhile True:\n    try:\n        time.sleep(60)\n    except KeyboardInterrupt:\n        pass',
      );
      expect(await kept()).toBe("False\n");
      // Idle past idleMs, the chat's kernel is shut down.
      expect(await noKernelsLeft()).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });
});

describe("the harness on Jupyter kernels, a kernel per chat", () => {
  it("a second message in a chat uses a variable the first defined, and a new chat does not see it", async () => {
    const harness = await startHarness({
      port: 0,
      database: ":memory:",
      chunkDelayMs: 0,
      sandbox: createJupyterSandbox({ url: jupyter.url, token: jupyter.token, kernels: "per-chat" }),
    });
    try {
      // One browser: the participant cookie the first answer sets goes with every later request.
      let cookie = "";
      const say = async (chatId: string, messageId: string, program: string) => {
        const response = await fetch(`${harness.url}/api/chat`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: harness.url, cookie },
          body: JSON.stringify({
            id: chatId,
            messages: [
              { id: messageId, role: "user", parts: [{ type: "text", text: `\`\`\`python\n${program}\n\`\`\`` }] },
            ],
          }),
        });
        cookie ||= response.headers.getSetCookie()[0]?.split(";")[0] ?? "";
        const chunks = (await response.text())
          .split("\n")
          .filter((line) => line.startsWith("data: {"))
          .map((line) => JSON.parse(line.slice(6)) as { type: string; output?: unknown; preliminary?: boolean });
        return chunks.findLast((chunk) => chunk.type === "tool-output-available" && !chunk.preliminary)?.output;
      };
      expect(await (await fetch(`${harness.url}/v1/health`)).json()).toEqual({
        status: "ok",
        sandbox: "jupyter",
        keepsVariables: true,
      });
      expect(await say("chat-a", "m1", "total = 6 * 7")).toMatchObject({ status: "completed", exitCode: 0 });
      expect(await say("chat-a", "m2", "print(total)")).toMatchObject({ stdout: "42\n", exitCode: 0 });
      const other = (await say("chat-b", "m1", "print(total)")) as { exitCode: number; stderr: string };
      expect(other.exitCode).toBe(1);
      expect(other.stderr).toMatch(/NameError: name 'total' is not defined/);
    } finally {
      await harness.close();
    }
    expect(await noKernelsLeft()).toEqual([]);
  });
});

describe("a Jupyter server that dies in the middle of a run", () => {
  it("ends the run with an error the model can explain, not a wait", async () => {
    const own = await startJupyter();
    try {
      const sandbox = createJupyterSandbox({ url: own.url, token: own.token });
      const seen: SandboxEvent[] = [];
      for await (const event of sandbox.run(request('import time\nprint("going", flush=True)\ntime.sleep(60)'))) {
        seen.push(event);
        if (event.kind === "output") own.kill();
      }
      expect(resultOf(seen)).toMatchObject({ status: "error", code: "sandbox_failed" });
    } finally {
      await own.stop();
    }
  });
});
