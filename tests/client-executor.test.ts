// The browser executor's limits, with a stand-in worker: how long Pyodide
// takes to load never counts against the program's own time limit.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createPyodideWorkerExecutor } from "../src/client-executor";
import type { WorkerMessage } from "../src/client-executor/protocol";

/** A worker that answers only when the test says so. */
class StandInWorker {
  onmessage: ((event: MessageEvent<WorkerMessage>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  received: { type: string }[] = [];
  terminated = false;
  postMessage(message: { type: string }) {
    this.received.push(message);
  }
  terminate() {
    this.terminated = true;
  }
  say(message: WorkerMessage) {
    this.onmessage?.({ data: message } as MessageEvent<WorkerMessage>);
  }
}

function executor(options: { timeoutMs: number; startTimeoutMs: number }) {
  const workers: StandInWorker[] = [];
  const run = createPyodideWorkerExecutor({
    ...options,
    createWorker: () => {
      const worker = new StandInWorker();
      workers.push(worker);
      return worker as unknown as Worker;
    },
  });
  return { run: run.run.bind(run), preload: run.preload.bind(run), workers, close: () => run.close() };
}

describe("Python in the browser: its limits", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("a slow first load does not use up the program's time: the limit counts from the start of the program", async () => {
    const { run, workers, close } = executor({ timeoutMs: 1_000, startTimeoutMs: 30_000 });
    const result = run('print("hi")');
    const worker = workers[0]!;
    expect(worker.received.at(-1)).toMatchObject({ type: "run", code: 'print("hi")' });

    await vi.advanceTimersByTimeAsync(20_000); // Pyodide still loading, far past the run's 1 s
    worker.say({ type: "started" });
    await vi.advanceTimersByTimeAsync(500);
    worker.say({ type: "output", stream: "stdout", text: "hi\n" });
    worker.say({ type: "done", exitCode: 0, wallTimeMs: 500 });

    await expect(result).resolves.toMatchObject({ status: "completed", exitCode: 0, stdout: "hi\n" });
    expect(worker.terminated).toBe(true);
    close();
  });

  it("a program that runs past the limit once started is a timeout that keeps its output", async () => {
    const { run, workers, close } = executor({ timeoutMs: 1_000, startTimeoutMs: 30_000 });
    const result = run("while True: print('x')");
    await vi.advanceTimersByTimeAsync(5_000);
    workers[0]!.say({ type: "started" });
    workers[0]!.say({ type: "output", stream: "stdout", text: "x\n" });
    await vi.advanceTimersByTimeAsync(1_000);

    await expect(result).resolves.toMatchObject({ status: "timeout", timeoutMs: 1_000, stdout: "x\n" });
    expect(workers[0]!.terminated).toBe(true);
    close();
  });

  it("Pyodide that never loads ends the run with a readable error, and the next run gets a new worker", async () => {
    const { run, workers, close } = executor({ timeoutMs: 1_000, startTimeoutMs: 30_000 });
    const result = run("print(1)");
    await vi.advanceTimersByTimeAsync(30_000);

    await expect(result).resolves.toEqual({
      status: "error",
      code: "client_unavailable",
      message: "Python could not start in this browser: it did not load within 30 s.",
    });
    expect(workers[0]!.terminated).toBe(true);
    expect(workers).toHaveLength(2); // the spare for the next run is already loading
    expect(workers[1]!.received).toEqual([{ type: "warm", indexURL: expect.stringMatching(/\/pyodide\/$/) }]);
    close();
    expect(workers[1]!.terminated).toBe(true);
  });
});

describe("Python in the browser: preload", () => {
  it("preload starts one interpreter loading, and the first run goes to it", async () => {
    const { run, preload, workers, close } = executor({ timeoutMs: 1_000, startTimeoutMs: 30_000 });
    expect(workers).toHaveLength(0); // nothing loads until asked
    preload();
    preload();
    expect(workers).toHaveLength(1);
    expect(workers[0]!.received).toEqual([{ type: "warm", indexURL: expect.stringMatching(/\/pyodide\/$/) }]);

    const result = run("print(2)");
    expect(workers).toHaveLength(1);
    expect(workers[0]!.received.at(-1)).toMatchObject({ type: "run", code: "print(2)" });
    workers[0]!.say({ type: "started" });
    workers[0]!.say({ type: "done", exitCode: 0, wallTimeMs: 1 });
    await expect(result).resolves.toMatchObject({ status: "completed", exitCode: 0 });
    close();
  });
});

describe("Python in the browser: a server render", () => {
  it("can make the executor where there is no document; it reads the page's URL only once a worker starts", () => {
    vi.stubGlobal("document", undefined);
    try {
      expect(() => createPyodideWorkerExecutor().close()).not.toThrow();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
