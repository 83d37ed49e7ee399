import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, fn, userEvent, waitFor, within } from "storybook/test";
import { ExecuteCodeCard } from "../src";
import { largeProgram, primesCode, running, titled } from "./fixtures";
import {
  card,
  slot,
  highlighted,
  atPhoneWidth,
  StreamingDemo,
  StreamGate,
  tickCode,
  ticksUpTo,
  runningWith,
  LiveOutputDemo,
  areaGalleryStory,
  slowWait,
  frames,
} from "./story-helpers";

/** The program streaming in as the model writes it, and its output while it runs. */
const meta = {
  title: "ExecuteCodeCard/Live output",
  component: ExecuteCodeCard,
} satisfies Meta<typeof ExecuteCodeCard>;

export default meta;
type Story = StoryObj<typeof meta>;

export const StreamingCode: Story = {
  args: { status: running },
  render: () => <StreamingDemo code={primesCode} steps={24} intervalMs={40} />,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "writing");
    await waitFor(() => expect(root).toHaveAttribute("data-phase", "running"), slowWait);
    await expect(slot(root, "source")?.querySelector("code")?.textContent?.replace(/\n$/, "")).toBe(primesCode);
    await highlighted(root);
    await expect(within(root).getByRole("status")).toHaveTextContent("Running");
  },
};

/** The long program's stream, opened step by step by the play function below. */
const longCodeGate = new StreamGate();

/** A long program streams in: the code follows its end, unless the reader scrolls up to read. */
export const StreamingLongCode: Story = {
  args: { status: running },
  render: () => <StreamingDemo code={largeProgram(16_000)} steps={48} intervalMs={30} gate={longCodeGate} />,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const body = () => slot(root, "source")!.querySelector("pre")!;
    const lineCount = () => body().querySelectorAll(".ecu-code-line").length;
    const atEnd = () => body().scrollTop + body().clientHeight >= body().scrollHeight - 4;
    // The stream goes only as far as each check needs: on a busy machine it cannot end before a check.
    // Each step re-renders the card, and a step waits for the one before: a few large steps, not
    // many small ones, keep the wait for the end short when the machine is busy.
    longCodeGate.restart(15);
    await waitFor(() => expect(lineCount()).toBeGreaterThan(40), slowWait);
    await waitFor(() => expect(atEnd()).toBe(true), slowWait);
    // The reader scrolls up: the code stays where they put it while it grows.
    body().scrollTop = 0;
    body().dispatchEvent(new Event("scroll"));
    const before = lineCount();
    longCodeGate.open(27);
    await waitFor(() => expect(lineCount()).toBeGreaterThan(before + 10), slowWait);
    // The card follows in the frame after a commit: the check comes after that frame.
    await frames(2);
    await expect(body().scrollTop).toBe(0);
    // Back at the end, it follows again.
    body().scrollTop = body().scrollHeight;
    body().dispatchEvent(new Event("scroll"));
    const later = lineCount();
    longCodeGate.open(Number.POSITIVE_INFINITY);
    await waitFor(() => expect(lineCount()).toBeGreaterThan(later + 10), slowWait);
    await waitFor(() => expect(atEnd()).toBe(true), slowWait);
    // Complete: every line was rendered as it came, so the whole program is lines, not plain text waiting for a second pass.
    await waitFor(() => expect(root).toHaveAttribute("data-phase", "running"), slowWait);
    const program = largeProgram(16_000).replace(/\n$/, "");
    // On a busy machine the last lines may still be on their way to the screen.
    await waitFor(() => expect(lineCount()).toBe(program.split("\n").length), slowWait);
    // Complete, the program reads from its first line again: the reader was following its end.
    await waitFor(() => expect(body().scrollTop).toBe(0), slowWait);
    // What a person selects and copies is the program, blank lines at the blocks' edges included.
    await expect(body().querySelector("code")!.innerText.replace(/\n$/, "")).toBe(program);
    const selection = getSelection()!;
    selection.selectAllChildren(body().querySelector("code")!);
    await expect(selection.toString().replace(/\n$/, "")).toBe(program);
    selection.removeAllRanges();
    // Every line beside its number: blocks of lines that end in a blank line keep that line.
    const [code, gutter] = [body().querySelector("code")!, slot(root, "gutter")!];
    await expect(Math.abs(code.getBoundingClientRect().height - gutter.getBoundingClientRect().height)).toBeLessThan(1);
    const last = body().querySelector(`[data-line="${lineCount()}"]`)!.getBoundingClientRect();
    const lastNumberMiddle =
      gutter.getBoundingClientRect().bottom - Number.parseFloat(getComputedStyle(gutter).lineHeight) / 2;
    await expect(Math.abs((last.top + last.bottom) / 2 - lastNumberMiddle)).toBeLessThan(1);
    await waitFor(
      () => expect(body().querySelectorAll(".ecu-code-line:not(:has(.ecu-token)):not(:empty)")).toHaveLength(0),
      slowWait,
    );
  },
};

export const RunningWithOutput: Story = {
  args: runningWith(ticksUpTo(3)),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "running");
    await expect(within(root).getByRole("status")).toHaveTextContent("Running…");
    await expect(slot(root, "timing")).toHaveTextContent(/^\d+ s$/);
    await expect(slot(root, "stdout")).toHaveTextContent("tick 2");
    // Still running: nothing is said yet of the empty stderr.
    await expect(slot(root, "no-output")).toBeNull();
  },
};

export const RunningWithStopAndLimit: Story = {
  args: {
    ...titled("Count to 40, a tick a second", tickCode, {
      result: {
        status: "running",
        stdout: ticksUpTo(3),
        stderr: "",
        truncated: { stdout: 0, stderr: 0 },
        timeoutMs: 10_000,
      },
    }),
    onStop: fn(),
  },
  play: async ({ canvasElement, args }) => {
    const root = card(canvasElement);
    // The clock beside the run's limit, on one line, and Stop where the student looks.
    const timing = slot(root, "timing")!;
    await expect(timing).toHaveTextContent(/^\d+ s \/ 10 s$/);
    await expect(timing.getBoundingClientRect().height).toBeLessThan(24);
    await userEvent.click(within(root).getByRole("button", { name: "Stop the program" }));
    await expect(args.onStop).toHaveBeenCalledTimes(1);
  },
};

export const RunningWithStopOnAPhone: Story = {
  ...RunningWithStopAndLimit,
  render: atPhoneWidth,
  // A phone's screen, 414 px wide: the test browser takes this size too.
  globals: { viewport: { value: "mobile2", isRotated: false } },
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const header = slot(root, "header")!.getBoundingClientRect();
    // Status, clock, Stop and the fold stay on the header's one line.
    for (const name of ["status", "timing", "stop", "trigger"] as const) {
      const box = slot(root, name)!.getBoundingClientRect();
      await expect(box.bottom).toBeLessThanOrEqual(header.bottom + 0.5);
      await expect(box.right).toBeLessThanOrEqual(header.right + 0.5);
    }
    await expect(slot(root, "status")).toHaveTextContent("Running…");
    // On a phone, Stop says its word and is a 44 px target.
    await expect(window.innerWidth).toBeLessThan(640);
    const stop = slot(root, "stop")!;
    await expect(stop).toHaveTextContent("Stop");
    await expect(stop.getBoundingClientRect().height).toBeGreaterThanOrEqual(44);
    await expect(stop.getBoundingClientRect().width).toBeGreaterThanOrEqual(44);
  },
};

export const StreamingOutput: Story = {
  args: { status: running },
  render: () => <LiveOutputDemo lines={30} intervalMs={120} />,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await waitFor(() => expect(slot(root, "stdout")).toHaveTextContent("tick 0"));
    await expect(root).toHaveAttribute("data-phase", "running");
    const body = () => slot(root, "stdout")!.querySelector("pre")!;
    const atEnd = () => body().scrollTop + body().clientHeight >= body().scrollHeight - 4;
    // Past the folded height, the pane follows its newest line.
    await waitFor(() => expect(slot(root, "stdout")).toHaveTextContent("tick 16"), slowWait);
    await expect(body().scrollHeight).toBeGreaterThan(body().clientHeight);
    await expect(atEnd()).toBe(true);
    // The reader scrolls up: the pane stays where they put it while output arrives.
    body().scrollTop = 0;
    body().dispatchEvent(new Event("scroll"));
    await waitFor(() => expect(slot(root, "stdout")).toHaveTextContent("tick 20"), slowWait);
    await expect(body().scrollTop).toBe(0);
    // Back at the end, it follows again.
    body().scrollTop = body().scrollHeight;
    body().dispatchEvent(new Event("scroll"));
    await waitFor(() => expect(slot(root, "stdout")).toHaveTextContent("tick 24"), slowWait);
    await expect(atEnd()).toBe(true);
    await waitFor(() => expect(root).toHaveAttribute("data-phase", "succeeded"), slowWait);
    await expect(slot(root, "stdout")).toHaveTextContent("tick 29");
    // Finished, the pane starts at its first line, what is folded below it.
    await waitFor(() => expect(body().scrollTop).toBe(0));
  },
};

export const RunningWithOutputDark: Story = { ...RunningWithOutput, parameters: { theme: "dark" } };

const areaStates = {
  "Running, with output": RunningWithOutput.args,
  "Running, with Stop and its limit": RunningWithStopAndLimit.args,
};

/** Every state of this area, each under its name, in light and in dark side by side. */
export const Gallery: Story = areaGalleryStory(areaStates);

/** The same page, with axe checking the dark copies (contrast, names) instead of the light ones. */
export const GalleryDarkChecked: Story = areaGalleryStory(areaStates, "dark");
