import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, fn, userEvent, within } from "storybook/test";
import { ExecuteCodeCard } from "../src";
import { call, primesCode } from "./fixtures";
import { card, slot, highlighted, areaGalleryStory } from "./story-helpers";

/** Asking before running code: Run, Deny with a reason, and how an answer ends. */
const meta = {
  title: "ExecuteCodeCard/Approval",
  component: ExecuteCodeCard,
} satisfies Meta<typeof ExecuteCodeCard>;

export default meta;
type Story = StoryObj<typeof meta>;

export const AwaitingApproval: Story = {
  args: {
    ...call(primesCode, { status: { type: "requires-action", reason: "interrupt" } }),
    approval: { id: "approval-1" },
    onApprove: fn(),
    onDeny: fn(),
  },
  play: async ({ canvasElement, args }) => {
    const root = card(canvasElement);
    const canvas = within(root);
    await expect(root).toHaveAttribute("data-phase", "awaiting-approval");
    await expect(slot(root, "message")).toHaveTextContent("Run this Python program in the sandbox?");
    await expect(slot(root, "source")).toHaveTextContent("primes = [n for n in range(2, 50) if is_prime(n)]");
    await highlighted(root);
    await expect(canvas.getByRole("button", { name: "Run" })).toBeEnabled();
    await expect(canvas.getByRole("button", { name: "Deny" })).toBeEnabled();
    await expect(args.onApprove).not.toHaveBeenCalled();
  },
};

export const RunDoubleClicked: Story = {
  args: { ...AwaitingApproval.args, onApprove: fn(), onDeny: fn() },
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

export const DenyWithReason: Story = {
  args: { ...AwaitingApproval.args, onApprove: fn(), onDeny: fn() },
  play: async ({ canvasElement, args }) => {
    const canvas = within(card(canvasElement));
    await userEvent.click(await canvas.findByRole("button", { name: "Add a reason" }));
    // The field takes the focus as it opens, on a row of its own under the buttons.
    const field = canvas.getByRole("textbox", { name: "Why not run it? (optional)" });
    await expect(field).toHaveFocus();
    await expect(field.getBoundingClientRect().top).toBeGreaterThanOrEqual(
      canvas.getByRole("button", { name: "Deny" }).getBoundingClientRect().bottom,
    );
    // The control that opened the field has done its work.
    await expect(canvas.queryByRole("button", { name: "Add a reason" })).toBeNull();
    await userEvent.keyboard("I want to try it myself first");
    await userEvent.click(canvas.getByRole("button", { name: "Deny" }));
    await expect(args.onDeny).toHaveBeenCalledTimes(1);
    await expect(args.onDeny).toHaveBeenCalledWith("I want to try it myself first");
    await expect(args.onApprove).not.toHaveBeenCalled();
  },
};

export const ApproveWithKeyboard: Story = {
  args: { ...AwaitingApproval.args, onApprove: fn(), onDeny: fn() },
  play: async ({ canvasElement, args }) => {
    const canvas = within(card(canvasElement));
    canvas.getByRole("button", { name: "Run" }).focus();
    await userEvent.keyboard("{Enter}");
    await expect(args.onApprove).toHaveBeenCalledTimes(1);
  },
};

export const Denied: Story = {
  args: call(primesCode, {
    approval: { id: "approval-1", approved: false, reason: "Try it yourself first." },
    isError: true,
    result: { error: "Try it yourself first." },
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "denied");
    await expect(slot(root, "message")).toHaveTextContent("This code was not run. Reason: Try it yourself first.");
    await expect(slot(root, "stdout")).toBeNull();
    // Code that did not run is folded to its first lines, under a dashed frame; the reason stays in view.
    const source = slot(root, "source")!;
    await expect(source).toHaveAttribute("data-not-run", "true");
    await expect(getComputedStyle(source).borderTopStyle).toBe("dashed");
    await expect(within(source).getByRole("button", { name: "Show more (11 lines)" })).toBeVisible();
    const line = source.querySelector<HTMLElement>('[data-line="1"]')!.getBoundingClientRect().height;
    await expect(source.querySelector("pre")!.getBoundingClientRect().height).toBeLessThan(line * 5);
  },
};

export const ApprovalExpired: Story = {
  // What a server that expires approvals sends back: a denial with the reason "expired".
  args: call(primesCode, {
    approval: { id: "approval-1", approved: false, reason: "expired" },
    isError: true,
    result: { error: "expired" },
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "denied");
    await expect(slot(root, "message")).toHaveTextContent("The approval request expired, so this code was not run.");
  },
};

export const AwaitingApprovalDark: Story = { ...AwaitingApproval, parameters: { theme: "dark" } };

const areaStates = {
  "Awaiting approval": AwaitingApproval.args,
  Denied: Denied.args,
  "Approval expired": ApprovalExpired.args,
};

/** Every state of this area side by side. */
export const Gallery: Story = areaGalleryStory(areaStates);

export const GalleryDark: Story = { ...Gallery, parameters: { theme: "dark" } };
