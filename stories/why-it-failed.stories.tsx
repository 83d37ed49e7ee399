import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { ExecuteCodeCard, type ExecuteCodeCardProps } from "../src";
import { germanLabels } from "../src/locales/de";
import { EXECUTE_CODE_CARD } from "../src/testing/selectors";
import { completed, titled } from "./fixtures";
import { failures, type RanAndFailed } from "./failure-fixtures";
import { card, slot, slowWait } from "./story-helpers";

/**
 * Why a run failed, as the sandbox recorded it at the exception: the error in
 * plain words, the values the failing line read beside it, the exact span
 * Python's carets point at, and a library's frames folded. Every program here
 * was run by the kit's own Python (failure-fixtures.ts).
 */
const meta = {
  title: "ExecuteCodeCard/Why it failed",
  component: ExecuteCodeCard,
} satisfies Meta<typeof ExecuteCodeCard>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The card of a program that ran and failed, with what its run recorded. */
const ranAndFailed = ({ title, code, stdout, stderr, failure }: RanAndFailed): ExecuteCodeCardProps =>
  titled(title, code, { result: completed({ stdout, stderr, exitCode: 1, failure }) });

/** Waits for the explanation (it loads with the output's own code) and returns it. */
async function explanation(root: HTMLElement) {
  await waitFor(() => expect(slot(root, "explanation")).not.toBeNull());
  return slot(root, "explanation")!;
}

export const DivisionByZero: Story = {
  args: ranAndFailed(failures.zeroDivision),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const note = await explanation(root);
    await expect(note).toHaveTextContent("The program divided by len(values), which is 0.");
    await expect(slot(root, "values")).toHaveTextContent("At line 2, in mean():values = []");
    // The mark is what the carets point at, not the line's indentation or the `return`.
    await waitFor(() => expect(slot(root, "error-span")).not.toBeNull());
    const marked = [...root.querySelectorAll('[data-slot="execute-code-error-span"]')].map((each) => each.textContent);
    await expect(marked.join("")).toBe("sum(values) / len(values)");
    // The line's number goes to it in the code.
    await userEvent.click(within(root).getByRole("button", { name: "At line 2, in mean():" }));
    await expect(root.querySelector('[data-line="2"]')).toHaveAttribute("data-focused", "true");
  },
};

export const DivisionByZeroDark: Story = { ...DivisionByZero, parameters: { theme: "dark" } };

export const MisspeltName: Story = {
  args: ranAndFailed(failures.name),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(await explanation(root)).toHaveTextContent("Python does not know the name totl. Did you mean total?");
    await waitFor(() => expect(slot(root, "error-span")).toHaveTextContent(/^totl$/));
  },
};

export const LibraryFramesFolded: Story = {
  args: ranAndFailed(failures.library),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const stderr = slot(root, "stderr")!;
    // The student's two frames lead; json's three sit behind one line that names them.
    const toggle = await within(stderr).findByRole("button", { name: "3 steps inside json" }, slowWait);
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(within(stderr).getByText(/decoder\.py/)).not.toBeVisible();
    await userEvent.click(toggle);
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await expect(within(stderr).getAllByText(/decoder\.py/)[0]).toBeVisible();
  },
};

export const NoInternet: Story = {
  args: ranAndFailed(failures.noInternet),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(await explanation(root)).toHaveTextContent(/^The sandbox has no internet/);
    // The exception's name leads, not the resolver's message; the traceback keeps all of it.
    await expect(slot(root, "error")).toHaveTextContent(/^The program stopped with urllib\.error\.URLError$/);
    await expect(slot(root, "stderr")).toHaveTextContent("[Errno -2] Name or service not known>");
  },
};

export const NoTypedInput: Story = {
  args: ranAndFailed(failures.noInput),
  play: async ({ canvasElement }) => {
    await expect(await explanation(card(canvasElement))).toHaveTextContent("input() gets nothing");
  },
};

/** The sandbox was full and stopped this program for others, its owner having used far more of late. */
const stoppedNote =
  "The sandbox was full: this program was stopped after 1 s to let others' programs run, as yours had used it much more of late. Run it again in a moment.";

export const StoppedToMakeRoom: Story = {
  args: titled("Count slowly", "import time\nfor i in range(100):\n    print('step', i)\n    time.sleep(0.5)", {
    result: completed({
      stdout: "step 0\nstep 1\nstep 2\n",
      stderr: `${stoppedNote}\n`,
      exitCode: null,
      signal: "SIGKILL",
      wallTimeMs: 1_160,
      failure: { type: "SandboxFull", message: stoppedNote, explanation: { kind: "sandbox-full" } },
    }),
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(await explanation(root)).toHaveTextContent(
      /^The sandbox was full, so this program was stopped to let others' programs run/,
    );
    // The status says what stopped it; "stopped by SIGKILL" would only repeat it in a system's words.
    await expect(slot(root, "status")).toHaveTextContent(/^Stopped to make room/);
    await expect(slot(root, "exit")).not.toBeVisible();
  },
};

export const InGerman: Story = {
  args: { ...ranAndFailed(failures.index), labels: germanLabels },
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(await explanation(root)).toHaveTextContent(
      "marks hat 3 Elemente, die Indizes gehen also von 0 bis 2 (oder -1 bis -3); i ist 3.",
    );
    await expect(slot(root, "values")).toHaveTextContent("In Zeile 3:");
  },
};

/** Each kind of explanation at a phone's width and a desktop's, side by side (the toolbar's language and theme). */
export const EveryExplanationAtTwoWidths: Story = {
  parameters: { wide: true },
  render: (args) => (
    <div style={{ display: "grid", gridTemplateColumns: "375px 1280px", gap: "16px 24px", alignItems: "start" }}>
      {Object.entries(failures).map(([kind, ran]) => (
        <section key={kind} aria-label={kind} style={{ display: "contents" }}>
          <ExecuteCodeCard {...ranAndFailed(ran)} labels={args.labels} />
          <ExecuteCodeCard {...ranAndFailed(ran)} labels={args.labels} />
        </section>
      ))}
    </div>
  ),
  args: { args: {}, status: { type: "complete" } },
  play: async ({ canvasElement }) => {
    const cards = [...canvasElement.querySelectorAll<HTMLElement>(EXECUTE_CODE_CARD)];
    await expect(cards).toHaveLength(Object.keys(failures).length * 2);
    await waitFor(() =>
      expect(canvasElement.querySelectorAll('[data-slot="execute-code-explanation"]').length).toBeGreaterThan(20),
    );
    // At 375 px nothing of the explanation or the values makes the card wider than its column.
    for (const narrow of cards.filter((_, n) => n % 2 === 0)) {
      await expect(narrow.getBoundingClientRect().width).toBeLessThanOrEqual(375);
      await expect(narrow.scrollWidth).toBeLessThanOrEqual(narrow.clientWidth + 1);
    }
  },
};

export const EveryExplanationDark: Story = {
  ...EveryExplanationAtTwoWidths,
  parameters: { wide: true, theme: "dark" },
};
