import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, fn, userEvent, waitFor, within } from "storybook/test";
import { ExecuteCodeCard } from "../src";
import { call, completed, primesCode, tracebackCode, tracebackStderr } from "./fixtures";
import { card, slot } from "./story-helpers";

/**
 * Interaction tests whose picture is another story's (a design state under
 * ExecuteCodeCard): kept apart, so a designer's list holds states only.
 */
const meta = {
  title: "Tests/Interactions",
  component: ExecuteCodeCard,
} satisfies Meta<typeof ExecuteCodeCard>;

export default meta;
type Story = StoryObj<typeof meta>;

const awaitingApproval = {
  ...call(primesCode, { status: { type: "requires-action" as const, reason: "interrupt" as const } }),
  approval: { id: "approval-1" },
};
const failedWithTraceback = call(tracebackCode, {
  result: completed({ stdout: "scores: []\n", stderr: tracebackStderr, exitCode: 1 }),
});

export const RunDoubleClicked: Story = {
  args: { ...awaitingApproval, onApprove: fn(), onDeny: fn() },
  play: async ({ canvasElement, args }) => {
    const root = card(canvasElement);
    const canvas = within(root);
    const run = canvas.getByRole("button", { name: "Run" });
    await userEvent.dblClick(run);
    await expect(args.onApprove).toHaveBeenCalledTimes(1);
    await expect(args.onDeny).not.toHaveBeenCalled();
    await expect(run).toBeDisabled();
    await expect(canvas.getByRole("button", { name: "Deny" })).toBeDisabled();
    // The focus stays in the card rather than falling back to the page.
    await expect(root).toHaveFocus();
  },
};

export const ApproveWithKeyboard: Story = {
  args: { ...awaitingApproval, onApprove: fn(), onDeny: fn() },
  play: async ({ canvasElement, args }) => {
    const canvas = within(card(canvasElement));
    canvas.getByRole("button", { name: "Run" }).focus();
    await userEvent.keyboard("{Enter}");
    await expect(args.onApprove).toHaveBeenCalledTimes(1);
  },
};

/** One tab stop per action: panes that show all their text are no stop; the fold, the copies and each traceback frame are. */
export const FailedTabStops: Story = {
  args: failedWithTraceback,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const stops = () =>
      [...root.querySelectorAll<HTMLElement>("button, a[href], input, [tabindex]")]
        .filter((element) => element.tabIndex >= 0 && !element.hasAttribute("disabled"))
        .map((element) => element.getAttribute("aria-label") ?? element.textContent?.trim());
    await waitFor(() =>
      expect(stops()).toEqual([
        "Hide the program and its output",
        "Copy code",
        "Copy output",
        "Copy error output",
        "line 6",
        "line 2",
      ]),
    );
  },
};

export const TracebackLineClicked: Story = {
  args: failedWithTraceback,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await userEvent.click(within(root).getByRole("button", { name: "line 2" }));
    const line = slot(root, "source")?.querySelector('[data-line="2"]');
    await expect(line).toHaveAttribute("data-focused", "true");
    await expect(line).toHaveTextContent("return sum(values) / len(values)");
  },
};
