import { render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ExecuteCodeCard } from "../src";
import {
  call,
  completed,
  longOutput,
  squaresCsv,
  squaresFigure,
  tracebackCode,
  tracebackStderr,
} from "../stories/fixtures";

// The own code of a run's output and files (the output's window and notes, traceback links, the figures)
// cannot load, as when the network drops.
vi.mock("../src/ui/run-result-chunk", () => {
  throw new Error("Failed to fetch dynamically imported module");
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe("a card whose output and files code cannot load", () => {
  it("still shows what each stream printed, in its own pane", async () => {
    render(
      <ExecuteCodeCard
        {...call(tracebackCode, {
          result: completed({ stdout: "mean of []\n", stderr: tracebackStderr, exitCode: 1 }),
        })}
      />,
    );
    await settle();
    expect(screen.getByRole("group", { name: "Output" })).toHaveTextContent("mean of []");
    const stderr = screen.getByRole("group", { name: "Error output" });
    expect(stderr.querySelector("pre")?.textContent).toBe(tracebackStderr);
    expect(within(stderr).getByRole("button", { name: "Copy error output" })).toBeEnabled();
  });

  it("shows a long stream's latest lines, and says how much of its start it leaves out", async () => {
    const stdout = longOutput(5000);
    render(<ExecuteCodeCard {...call("x", { result: completed({ stdout }) })} />);
    await settle();
    const pre = screen.getByRole("group", { name: "Output" }).querySelector("pre");
    const shown = pre?.textContent ?? "";
    expect(shown.endsWith(`line 5000: ${"x".repeat(4999 % 40)}`)).toBe(true);
    const hidden = /^([\d,]+) characters hidden\n/.exec(shown);
    expect(hidden).not.toBeNull();
    // What it leaves out and what it shows add up to the whole stream.
    expect(Number(hidden?.[1]?.replaceAll(",", ""))).toBe(stdout.length - (shown.length - (hidden?.[0].length ?? 0)));
    expect(stdout.endsWith(shown.slice(hidden?.[0].length))).toBe(true);
  });

  it("still says what the server cut from a stream, and where", async () => {
    render(
      <ExecuteCodeCard
        {...call("x", {
          result: completed({
            stdout: "start\nend\n",
            truncated: { stdout: 500, stderr: 0, at: { stdout: 6 }, lines: { stdout: 40 } },
          }),
        })}
      />,
    );
    await settle();
    const stdout = screen.getByRole("group", { name: "Output" });
    expect(stdout.querySelector("pre")?.textContent).toBe("start\n⋯ 40 lines not kept ⋯\nend\n");
    expect(
      within(stdout).getByText("The program printed 42 lines of output; the first 1 and the last 1 were kept."),
    ).toHaveAttribute("data-slot", "execute-code-truncated");
  });

  it("keeps every file the run left one click away, and each figure's room", async () => {
    const { container } = render(
      <ExecuteCodeCard
        {...call("x", { result: completed({ stdout: "saved\n", files: [squaresFigure, squaresCsv] }) })}
      />,
    );
    await settle();
    const links = screen.getAllByRole("link");
    expect(links).toHaveLength(2);
    expect(links[0]).toHaveTextContent(/^Download figure-1\.png \(.+\)$/);
    expect(links[0]).toHaveAttribute("href", "/api/files/run-1/figure-1");
    expect(links[0]).toHaveAttribute("download", "figure-1.png");
    expect(links[1]).toHaveTextContent(/^Download squares\.csv \(61 B\)$/);
    expect(links[1]).toHaveAttribute("href", "/api/files/run-1/csv-1");
    // The figure's room is kept at its ratio (matplotlib's default, as the sandbox gave none), so nothing jumps.
    expect(container.querySelector<HTMLElement>(".ecu-figure")?.style.getPropertyValue("--ecu-figure-ratio")).toBe(
      "640 / 480",
    );
  });
});
