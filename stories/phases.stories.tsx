import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, fn, userEvent, waitFor, within } from "storybook/test";
import {
  EXECUTE_CODE_PHASES,
  ExecuteCodeCard,
  PHASES,
  type ExecuteCodeCardProps,
  type ExecuteCodeLabels,
  type ExecuteCodePhase,
} from "../src";
import {
  call,
  completed,
  galleryStates,
  longOutput,
  primesCode,
  primesOutput,
  running,
  titled,
  tracebackCode,
  tracebackStderr,
  writingArgsText,
} from "./fixtures";
import {
  card,
  slot,
  highlighted,
  atPhoneWidth,
  tickCode,
  ticksUpTo,
  longFailingProgram,
  PhaseGallery,
  everyPhaseShows,
  areaGalleryStory,
  slowWait,
} from "./story-helpers";
import { slotSelector } from "../src/view/slots";
import { EXECUTE_CODE_CARD } from "../src/testing/selectors";

/** Every phase of a call, from the model writing the program to how it ended, with the galleries of all of them. */
const meta = {
  title: "ExecuteCodeCard/Phases",
  component: ExecuteCodeCard,
} satisfies Meta<typeof ExecuteCodeCard>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A gallery card of `phase`, with the model's title and, when a designer asks, as many printed lines. */
function designedState(phase: ExecuteCodePhase, title: string, outputLines: number | undefined): ExecuteCodeCardProps {
  const state = galleryStates[phase];
  const code = (state.args as { code?: unknown } | undefined)?.code;
  const args = typeof code === "string" ? { ...(title ? { title } : {}), code } : state.args;
  const result = state.result as { status?: string } | undefined;
  const ran = result?.status === "completed" || result?.status === "timeout";
  return {
    ...state,
    args,
    argsText: args === state.args ? state.argsText : JSON.stringify(args),
    // Left empty, the output is what the program prints.
    ...(ran && outputLines !== undefined
      ? { result: { ...result, stdout: outputLines > 0 ? longOutput(outputLines) : "" } }
      : {}),
  };
}

/**
 * Any phase, picked in Controls, with the title, the output's length and the width a designer wants to try; the
 * toolbar's language applies.
 */
export const PickAPhase: StoryObj<{
  phase: ExecuteCodePhase;
  title: string;
  outputLines?: number;
  width: number;
  labels?: ExecuteCodeLabels;
}> = {
  args: {
    phase: "failed",
    title: "The mean of the class's exam scores, with no scores yet",
    width: 720,
  },
  argTypes: {
    phase: {
      control: "select",
      options: EXECUTE_CODE_PHASES,
      description: "The card's phase (src/view/phases.ts)",
    },
    title: {
      control: "text",
      description: "The model's title for the program; empty: the card takes its first comment, else the tool's name",
    },
    outputLines: {
      control: { type: "number", min: 0, max: 50_000 },
      description: "Lines the program printed, for a phase whose program ran; empty: what the program prints",
    },
    width: { control: "inline-radio", options: [375, 720, 1280], description: "The card's width in px" },
  },
  parameters: { wide: true },
  render: ({ phase, title, outputLines, width, labels }) => (
    <figure style={{ margin: 0, display: "grid", gap: 8, width, maxWidth: "100%" }}>
      <ExecuteCodeCard {...designedState(phase, title, outputLines)} labels={labels} />
      <figcaption style={{ font: "13px system-ui, sans-serif", color: "light-dark(#59636e, #9198a1)" }}>
        <strong>{phase}</strong>: {PHASES[phase].summary}
      </figcaption>
    </figure>
  ),
  play: async ({ canvasElement, args }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", args.phase);
    await expect(slot(root, "title")).toHaveTextContent(args.title);
    // The program's own output: it prints the empty list it then divides by.
    await expect(slot(root, "stdout")).toHaveTextContent(/^Output\s*scores: \[\]$/);
    await expect(canvasElement.querySelector("figcaption")).toHaveTextContent(PHASES[args.phase].summary);
  },
};

/** The same with the toolbar's Language set to Deutsch: the card speaks German there too. */
export const PickAPhaseInGerman: typeof PickAPhase = {
  ...PickAPhase,
  globals: { locale: "de" },
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(within(root).getByRole("status")).toHaveTextContent("Fehlgeschlagen");
    await expect(within(root).getByRole("group", { name: "Ausgabe" })).toBeInTheDocument();
  },
};

/**
 * Every phase in a 375 px column and a 720 px one, side by side: where a word or a title wraps. The phone rules
 * (a short title's own line, less padding) follow the screen's width, so they show at a 375 px viewport, not here.
 */
export const EveryPhaseAtTwoWidths: Story = {
  parameters: { wide: true },
  // The toolbar's language reaches the cards as `labels`.
  render: ({ labels }) => (
    <div style={{ display: "grid", gridTemplateColumns: "375px 720px", gap: "16px 24px", alignItems: "start" }}>
      {EXECUTE_CODE_PHASES.map((phase) => (
        <section key={phase} aria-label={phase} style={{ display: "contents" }}>
          <ExecuteCodeCard {...galleryStates[phase]} labels={labels} />
          <ExecuteCodeCard {...galleryStates[phase]} labels={labels} />
        </section>
      ))}
    </div>
  ),
  play: async ({ canvasElement }) => {
    const cards = [...canvasElement.querySelectorAll<HTMLElement>(EXECUTE_CODE_CARD)];
    await expect(cards).toHaveLength(EXECUTE_CODE_PHASES.length * 2);
    // At 375 px no card is wider than its column: its code scrolls inside it, the page does not.
    for (const narrow of cards.filter((_, n) => n % 2 === 0)) {
      await expect(narrow.getBoundingClientRect().width).toBeLessThanOrEqual(375);
      await expect(narrow.scrollWidth).toBeLessThanOrEqual(narrow.clientWidth + 1);
    }
    // Every pane that scrolls is a tab stop once the frame after its colours (and a failing line's values, which
    // widen that line) has measured it: the page axe then checks.
    const failed = EXECUTE_CODE_PHASES.indexOf("failed") * 2;
    for (const each of cards.slice(failed, failed + 2)) await highlighted(each);
    await waitFor(
      () =>
        expect(
          [...canvasElement.querySelectorAll<HTMLElement>(".ecu-scroll")].filter(
            (pane) =>
              (pane.scrollWidth > pane.clientWidth + 1 || pane.scrollHeight > pane.clientHeight + 1) &&
              !pane.hasAttribute("tabindex"),
          ),
        ).toEqual([]),
      slowWait,
    );
  },
};

export const Writing: Story = {
  args: { status: running, args: {}, argsText: writingArgsText },
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "writing");
    await expect(slot(root, "source")).toHaveTextContent("return Fal");
    await expect(within(root).getByRole("status")).toHaveTextContent("Writing code");
    await expect(slot(root, "stdout")).toBeNull();
  },
};

export const Running: Story = {
  args: titled("Primes below 50", primesCode, { status: running }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "running");
    await expect(within(root).getByRole("status")).toHaveTextContent("Running…");
    await expect(slot(root, "timing")).toHaveTextContent(/^\d+ s$/);
    await highlighted(root);
  },
};

export const Succeeded: Story = {
  args: titled("Primes below 50", primesCode, { result: completed({ stdout: primesOutput, wallTimeMs: 42 }) }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "succeeded");
    await expect(slot(root, "stdout")).toHaveTextContent("count: 15");
    // An empty stream takes no room.
    await expect(slot(root, "stderr")).toBeNull();
    await expect(slot(root, "exit")).toHaveAttribute("data-exit-code", "0");
    await expect(slot(root, "timing")).toHaveTextContent("42 ms");
    await highlighted(root);
    // One program line per visual line.
    const [first, second] = [1, 2].map((n) =>
      slot(root, "source")!.querySelector(`[data-line="${n}"]`)!.getBoundingClientRect(),
    );
    await expect(second!.top).toBeGreaterThanOrEqual(first!.bottom - 1);
    await expect(second!.left).toBe(first!.left);
    // What a person selects and copies: one line break per line, no line numbers.
    await expect(slot(root, "source")?.querySelector("code")?.innerText.replace(/\n$/, "")).toBe(primesCode);
  },
};

export const SucceededDark: Story = {
  ...Succeeded,
  parameters: { theme: "dark" },
};

/** The exit detail shows only where it says something the status does not: a signal, here. */
export const ExitInWords: Story = {
  render: () => (
    <div style={{ display: "grid", gap: 12 }}>
      <ExecuteCodeCard {...call("print(1)", { result: completed({ stdout: "1\n" }) })} />
      <ExecuteCodeCard {...galleryStates.failed} />
      <ExecuteCodeCard {...call("import sys\nsys.exit(3)", { result: completed({ exitCode: 3 }) })} />
      <ExecuteCodeCard {...call("x", { result: completed({ exitCode: null, signal: "SIGKILL" }) })} />
      <ExecuteCodeCard {...call("x", { result: completed({ exitCode: 137, signal: "SIGKILL" }) })} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const [finished, raised, exited, killed, killedWithCode] = [
      ...canvasElement.querySelectorAll<HTMLElement>(EXECUTE_CODE_CARD),
    ];
    // Exit 0 when finished, 1 under the exception, 3 in the status's words: in the DOM, neither seen nor read.
    for (const root of [finished!, raised!, exited!]) await expect(slot(root, "exit")).not.toBeVisible();
    await expect(exited!.querySelector(".ecu-status-word")).toHaveTextContent("Exit code 3");
    await expect(slot(killed!, "exit")).toBeVisible();
    await expect(slot(killed!, "exit")).toHaveTextContent("stopped by SIGKILL");
    // A signal with a code as well: the status says only Failed, so the signal shows.
    await expect(slot(killedWithCode!, "exit")).toBeVisible();
  },
};

export const NarrowestPhone: Story = {
  args: call("import os; os.kill(os.getpid(), 9)", {
    result: completed({ exitCode: null, signal: "SIGKILL", wallTimeMs: 12_345 }),
  }),
  render: atPhoneWidth,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const word = root.querySelector<HTMLElement>(".ecu-status-word")!;
    // The phase word is whole; the exit detail gives way (whole in its tooltip) so the time and chevron keep its row.
    await expect(word).toHaveTextContent("Failed");
    await expect(word.scrollWidth).toBeLessThanOrEqual(word.clientWidth);
    const exit = slot(root, "exit")!;
    await expect(exit).toHaveAttribute("title", "stopped by SIGKILL");
    // Cut, never gone: its start shows.
    await expect(exit.getBoundingClientRect().width).toBeGreaterThan(40);
    const timing = slot(root, "timing")!.getBoundingClientRect();
    const trigger = slot(root, "trigger")!.getBoundingClientRect();
    const shown = exit.getBoundingClientRect();
    await expect(shown.right).toBeLessThanOrEqual(timing.left);
    const middle = (box: DOMRect) => box.top + box.height / 2;
    await expect(Math.abs(middle(timing) - middle(shown))).toBeLessThan(4);
    await expect(Math.abs(middle(trigger) - middle(shown))).toBeLessThan(4);
  },
};

/** A phone's card with the model's whole title: it takes a line of its own and is never cut to a few letters. */
export const WholeTitleOnAPhone: Story = {
  args: {
    ...call("scores = [72, 85, 91]\nprint(sum(scores) / len(scores))", {
      result: completed({ stdout: "82.66666666666667\n", wallTimeMs: 21 }),
    }),
    args: { code: "scores = [72, 85, 91]\nprint(sum(scores) / len(scores))", title: "The mean of the class's grades" },
  },
  render: atPhoneWidth,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const title = slot(root, "title")!;
    await expect(title).toHaveTextContent("The mean of the class's grades");
    // Whole: nothing of it is cut or hidden, and it stays inside the card.
    await expect(title.scrollWidth).toBeLessThanOrEqual(title.clientWidth);
    await expect(getComputedStyle(title).textOverflow).not.toBe("ellipsis");
    await expect(title.getBoundingClientRect().right).toBeLessThanOrEqual(root.getBoundingClientRect().right);
    // The phase word is whole too, beside or under it.
    const word = root.querySelector<HTMLElement>(".ecu-status-word")!;
    await expect(word.scrollWidth).toBeLessThanOrEqual(word.clientWidth);
  },
};

export const SkippedByANewMessage: Story = {
  args: call("print(1)", { result: { error: "User cancelled tool call by sending a new message." }, isError: true }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "skipped");
    await expect(root).toHaveAttribute("data-tone", "muted");
    await expect(slot(root, "status")).toHaveTextContent("Skipped");
    await expect(slot(root, "message")).toHaveTextContent(
      "This code was not run: a new message was sent before it ran.",
    );
  },
};

export const FailedWithTraceback: Story = {
  args: titled("The mean of the class's exam scores, with no scores yet", tracebackCode, {
    result: completed({ stdout: "scores: []\n", stderr: tracebackStderr, exitCode: 1 }),
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const canvas = within(root);
    await expect(root).toHaveAttribute("data-phase", "failed");
    await expect(slot(root, "exit")).toHaveAttribute("data-exit-code", "1");
    await expect(slot(root, "stderr")).toHaveTextContent("ZeroDivisionError: division by zero");
    await expect(slot(root, "stderr")).toHaveAttribute("data-tone", "danger");
    await expect(canvas.getByRole("button", { name: "line 2" })).toBeVisible();
    // The error first, in the header: above the code and the output, before the student reads the traceback.
    const error = slot(root, "error")!;
    await expect(error).toBeVisible();
    await expect(error).toHaveTextContent("ZeroDivisionError: division by zero");
    await expect(slot(root, "header")).toContainElement(error);
    await expect(error.getBoundingClientRect().bottom).toBeLessThanOrEqual(
      slot(root, "source")!.getBoundingClientRect().top,
    );
  },
};

export const FailedDark: Story = { ...FailedWithTraceback, parameters: { theme: "dark" } };

/** On a phone, a traceback link far down a long program: the code scrolls down to the line, never sideways. */
export const TracebackLineOnAPhone: Story = {
  args: titled("Average grade of the class", longFailingProgram, {
    result: completed({
      stderr:
        "Traceback (most recent call last):\n  File \"<program>\", line 28, in <module>\nNameError: name 'grades' is not defined\n",
      exitCode: 1,
    }),
  }),
  render: atPhoneWidth,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const pre = slot(root, "source")!.querySelector("pre")!;
    await userEvent.click(within(root).getByRole("button", { name: "line 28" }));
    const line = pre.querySelector<HTMLElement>('[data-line="28"]')!;
    await expect(line).toHaveAttribute("data-focused", "true");
    await waitFor(() => {
      const box = line.getBoundingClientRect();
      const view = pre.getBoundingClientRect();
      expect(box.top).toBeGreaterThanOrEqual(view.top);
      expect(box.bottom).toBeLessThanOrEqual(view.bottom);
    });
    await expect(pre.scrollLeft).toBe(0);
  },
};

export const WarningOnStderr: Story = {
  args: titled(
    "The answer, with a warning about precision",
    'import warnings\nprint("result: 42")\nwarnings.warn("float precision")',
    {
      result: completed({
        stdout: "result: 42\n",
        stderr: '<program>:3: UserWarning: float precision\n  warnings.warn("float precision")\n',
      }),
    },
  ),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const canvas = within(root);
    await expect(root).toHaveAttribute("data-phase", "succeeded");
    await expect(canvas.getByRole("group", { name: "Output" })).toHaveTextContent("result: 42");
    // A warning on a successful run is a stream, not an error: no danger tone.
    const stderr = canvas.getByRole("group", { name: "Error output" });
    await expect(stderr).toHaveTextContent("UserWarning");
    await expect(stderr).toHaveAttribute("data-tone", "neutral");
    await expect(getComputedStyle(stderr.querySelector("pre")!).color).toBe(
      getComputedStyle(slot(root, "stdout")!.querySelector("pre")!).color,
    );
  },
};

export const KilledBySignal: Story = {
  args: titled("What happens when the process is killed", "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)", {
    result: completed({ exitCode: null, signal: "SIGKILL" }),
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "failed");
    await expect(slot(root, "exit")).toHaveTextContent("stopped by SIGKILL");
    // No pane claims there were "no errors": the run printed nothing, and the status says how it ended.
    await expect(slot(root, "no-output")).toHaveTextContent("The program printed nothing.");
    await expect(slot(root, "stderr")).toBeNull();
  },
};

/** On a narrow card a long title has a line of its own, and the status, time and chevron share the next, however long the exit detail: it gives way. */
export const KilledBySignalOnANarrowCard: Story = {
  args: KilledBySignal.args,
  render: atPhoneWidth,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const middle = (name: Parameters<typeof slot>[1]) => {
      const box = slot(root, name)!.getBoundingClientRect();
      return { top: box.top, middle: box.top + box.height / 2 };
    };
    const title = middle("title");
    const row = [middle("status"), middle("timing"), middle("trigger")];
    await expect(row[0]!.top).toBeGreaterThan(title.top);
    for (const each of row) await expect(Math.abs(each.middle - row[0]!.middle)).toBeLessThan(4);
    // The word stays whole; the exit's detail is what is cut.
    const word = slot(root, "status")!.querySelector(".ecu-status-word")!;
    await expect(word.scrollWidth).toBeLessThanOrEqual(word.clientWidth);
  },
};

export const TimedOut: Story = {
  args: titled("Count up, forever", "i = 0\nwhile True:\n    i += 1\n    if i % 10_000_000 == 0:\n        print(i)", {
    result: {
      status: "timeout",
      timeoutMs: 5000,
      stdout: "10000000\n20000000\n",
      stderr: "",
      wallTimeMs: 5003,
      truncated: { stdout: 0, stderr: 0 },
    },
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "timed-out");
    await expect(slot(root, "message")).toHaveTextContent(
      "Stopped after 5 s: the program ran too long. What it printed until then is below.",
    );
    await expect(slot(root, "stdout")).toHaveTextContent("20000000");
  },
};

/** Out of time before it printed anything: the message says so, once, and points at nothing below. */
export const TimedOutSilent: Story = {
  args: titled("A loop that never ends", "while True:\n    pass", {
    result: {
      status: "timeout",
      timeoutMs: 5000,
      stdout: "",
      stderr: "",
      wallTimeMs: 5003,
      truncated: { stdout: 0, stderr: 0 },
    },
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(slot(root, "message")).toHaveTextContent(
      "Stopped after 5 s: the program ran too long. It printed nothing before then.",
    );
    await expect(slot(root, "message")).not.toHaveTextContent(/below/);
    await expect(slot(root, "no-output")).toBeNull();
  },
};

export const Busy: Story = {
  args: titled("Primes below 50", primesCode, {
    result: { status: "busy", retryAfterMs: 30_000, message: "Rate limit reached" },
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "busy");
    await expect(slot(root, "message")).toHaveTextContent(/Try again in (30|29) s/);
  },
};

export const BusyWithTryAgain: Story = {
  args: { ...Busy.args, onRetry: fn() },
  play: async ({ canvasElement, args }) => {
    const root = card(canvasElement);
    const retry = within(root).getByRole("button", { name: "Try again" });
    // Under the message that says when, as wide as its words.
    await expect(retry.getBoundingClientRect().top).toBeGreaterThanOrEqual(
      slot(root, "message")!.getBoundingClientRect().bottom,
    );
    await expect(retry.getBoundingClientRect().width).toBeLessThan(root.getBoundingClientRect().width / 2);
    await userEvent.click(retry);
    await expect(args.onRetry).toHaveBeenCalledTimes(1);
  },
};

export const Cancelled: Story = {
  args: titled("Primes below 50", primesCode, { status: { type: "incomplete", reason: "cancelled" } }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "cancelled");
    await expect(slot(root, "message")).toHaveTextContent("cancelled before it finished");
  },
};

export const CancelledWithOutput: Story = {
  args: {
    ...titled("Count to 40, a tick a second", tickCode, {
      result: {
        status: "running",
        stdout: ticksUpTo(4),
        stderr: "",
        truncated: { stdout: 0, stderr: 0 },
        timeoutMs: 10_000,
      },
    }),
    status: { type: "incomplete", reason: "cancelled" },
  },
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "cancelled");
    await expect(slot(root, "message")).toHaveTextContent("cancelled before it finished");
    // What it printed before it was stopped stays.
    await expect(slot(root, "stdout")).toHaveTextContent("tick 3");
    await expect(slot(root, "stop")).toBeNull();
  },
};

export const ToolError: Story = {
  args: titled("Primes below 50", primesCode, {
    result: {
      status: "error",
      code: "sandbox_unavailable",
      message: "The code sandbox did not answer. Try again in a minute.",
    },
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "error");
    await expect(slot(root, "message")).toHaveTextContent("The code sandbox did not answer");
  },
};

export const UnrecognisedResult: Story = {
  args: titled("Primes below 50", primesCode, { result: { answer: 42, files: ["plot.png"] } }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "unrecognised");
    await expect(root).toHaveAttribute("data-tone", "muted");
    await expect(within(root).getByRole("status")).toHaveTextContent("Result not understood");
    await waitFor(() => expect(slot(root, "raw")).toHaveTextContent('"answer": 42'));
  },
};

export const AwaitingClient: Story = {
  args: titled("Primes below 50", primesCode, {
    status: { type: "requires-action", reason: "tool-calls" },
    execution: "client",
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "awaiting-client");
    await expect(slot(root, "message")).toHaveTextContent("Waiting for the browser");
  },
};

/** Every phase, untouched, for a designer's side-by-side review. */
export const Gallery: Story = {
  args: { status: running },
  parameters: { theme: "light" },
  render: () => <PhaseGallery />,
  play: everyPhaseShows,
};

export const GalleryDark: Story = { ...Gallery, parameters: { theme: "dark" } };

/** Every phase in light and in dark side by side, each captioned with what it means: the docs page's gallery. */
export const SideBySide: Story = areaGalleryStory(
  Object.fromEntries(EXECUTE_CODE_PHASES.map((phase) => [`${phase}: ${PHASES[phase].summary}`, galleryStates[phase]])),
);

/** A phone's chat column: every title whole, nothing overflows. */
export const GalleryNarrow: Story = {
  ...Gallery,
  render: () => <PhaseGallery width={343} />,
  play: async (context) => {
    await everyPhaseShows(context);
    for (const header of context.canvasElement.querySelectorAll<HTMLElement>(slotSelector("header"))) {
      await expect(header.scrollWidth).toBeLessThanOrEqual(header.clientWidth + 1);
      const title = header.querySelector<HTMLElement>(slotSelector("title"))!;
      await expect(title.scrollWidth).toBeLessThanOrEqual(title.clientWidth);
    }
  },
};

/** The two widths in German, whose words are the longest the kit ships: the toolbar's language reaches every card. */
export const EveryPhaseAtTwoWidthsInGerman: Story = {
  ...EveryPhaseAtTwoWidths,
  globals: { locale: "de" },
  play: async (context) => {
    await EveryPhaseAtTwoWidths.play!(context);
    const cards = [...context.canvasElement.querySelectorAll<HTMLElement>(EXECUTE_CODE_CARD)];
    await expect(within(cards[EXECUTE_CODE_PHASES.indexOf("failed") * 2]!).getByRole("status")).toHaveTextContent(
      "Fehlgeschlagen",
    );
  },
};
