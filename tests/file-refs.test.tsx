import { render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ExecuteCodeCard } from "../src";
import { resultFromAnswer } from "../src/server/codeapi/sandbox-client";
import { call, completed, squaresCsv } from "../stories/fixtures";

// A file's `ref` is two segments of the app's file route. `..` (or `.`, or
// nothing) would take the download link, and the card's own fetch of a
// table's first rows, to another address of the app.
describe("a file reference that would leave the file route", () => {
  it("gets no link and no fetch from the card, which still shows the output", async () => {
    const fetched: string[] = [];
    const originalFetch = globalThis.fetch;
    globalThis.fetch = ((url: string) => {
      fetched.push(String(url));
      return Promise.reject(new Error("no network in this test"));
    }) as typeof fetch;
    try {
      const { container } = render(
        <ExecuteCodeCard
          {...call("x", {
            result: completed({
              stdout: "saved\n",
              files: [{ ...squaresCsv, name: "account.csv", ref: { sessionId: "..", fileId: "logout" } }],
            }),
          })}
        />,
      );
      // Read as the plain shape, without the file: the output shows, and nothing points elsewhere.
      expect(await screen.findByRole("group", { name: "Output" })).toHaveTextContent("saved");
      expect(container.querySelectorAll("a")).toHaveLength(0);
      // The program's colours (the main thread's highlighter, as jsdom has no worker) load before the test ends.
      await waitFor(() => expect(container.querySelector(".ecu-token")).not.toBeNull(), { timeout: 30_000 });
      expect(fetched).toEqual([]);
    } finally {
      globalThis.fetch = originalFetch;
    }
  });

  it("is left out of a sandbox's answer, the rest of the run kept", () => {
    const outcome = resultFromAnswer(
      {
        stdout: "done\n",
        stderr: "",
        code: 0,
        session_id: "run-1",
        files: [
          { id: "..", name: "evil.csv", content_type: "text/csv", size: 3 },
          { id: ".", name: "dot.csv" },
          { id: "", name: "empty.csv" },
          { id: "csv-1", name: "squares.csv", content_type: "text/csv", size: 61 },
        ],
      },
      "",
      { stdout: 1000, stderr: 1000 },
    );
    expect(outcome).toMatchObject({
      ok: true,
      result: {
        status: "completed",
        stdout: "done\n",
        files: [{ name: "squares.csv", ref: { sessionId: "run-1", fileId: "csv-1" } }],
      },
    });
    expect(outcome.ok && outcome.result.status === "completed" && outcome.result.files).toHaveLength(1);
    const noSession = resultFromAnswer(
      { stdout: "", stderr: "", code: 0, session_id: "..", files: [{ id: "f", name: "a.csv" }] },
      "",
      { stdout: 1000, stderr: 1000 },
    );
    expect(noSession.ok && noSession.result.status === "completed" && noSession.result.files).toBeFalsy();
  });
});
