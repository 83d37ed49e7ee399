import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, fn, userEvent, within } from "storybook/test";
import { ExecuteCodeCard } from "../src";
import { call, disguisedCode, primesCode, titled } from "./fixtures";
import { card, slot, slowWait, highlighted, areaGalleryStory } from "./story-helpers";

/** Asking before running code: Run, Deny with a reason, and how an answer ends. */
const meta = {
  title: "ExecuteCodeCard/Approval",
  component: ExecuteCodeCard,
} satisfies Meta<typeof ExecuteCodeCard>;

export default meta;
type Story = StoryObj<typeof meta>;

export const AwaitingApproval: Story = {
  args: {
    ...titled("Primes below 50", primesCode, { status: { type: "requires-action", reason: "interrupt" } }),
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

export const DenyWithReason: Story = {
  args: { ...AwaitingApproval.args, onApprove: fn(), onDeny: fn() },
  play: async ({ canvasElement, args }) => {
    const canvas = within(card(canvasElement));
    await userEvent.click(await canvas.findByRole("button", { name: "Add a reason" }, slowWait));
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

export const Denied: Story = {
  args: titled("Primes below 50", primesCode, {
    approval: { id: "approval-1", approved: false, reason: "Try it yourself first." },
    isError: true,
    result: { error: "Try it yourself first." },
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "denied");
    await expect(slot(root, "message")).toHaveTextContent("This code was not run. Reason: Try it yourself first.");
    await expect(slot(root, "stdout")).toBeNull();
    // Code that did not run keeps every line the student was reading, under a dashed frame: nothing folds.
    const source = slot(root, "source")!;
    await expect(source).toHaveAttribute("data-not-run", "true");
    await expect(getComputedStyle(source).borderTopStyle).toBe("dashed");
    await expect(slot(source, "show-more")).toBeNull();
    const pre = source.querySelector("pre")!;
    await expect(pre.scrollHeight).toBeLessThanOrEqual(pre.clientHeight);
    await expect(source.querySelectorAll(".ecu-code-line")).toHaveLength(primesCode.split("\n").length);
  },
};

export const ApprovalExpired: Story = {
  // What a server that expires approvals sends back: a denial with the reason "expired".
  args: titled("Primes below 50", primesCode, {
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

/** Where the character at `index` of an element's text is drawn. */
function charLeft(element: HTMLElement, index: number): number {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  let at = index;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const length = node.textContent!.length;
    if (at < length) {
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + 1);
      return range.getBoundingClientRect().left;
    }
    at -= length;
  }
  throw new Error(`no character ${index}`);
}

/**
 * A program made to read as something else: a carriage return ends the
 * comment on line 1 (Python runs what follows it as line 2), a form feed
 * puts a line that looks indented under the `if` at the top level, and bidi
 * controls turn a string into what reads as a comment. The card shows the
 * lines Python runs and marks each hidden character.
 */
export const ApprovalShowsWhatRuns: Story = {
  args: {
    ...AwaitingApproval.args,
    ...call(disguisedCode, { status: { type: "requires-action", reason: "interrupt" } }),
    onApprove: fn(),
    onDeny: fn(),
  },
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "awaiting-approval");
    const source = slot(root, "source")!;
    const line = (n: number) => source.querySelector<HTMLElement>(`[data-line="${n}"]`)!;
    await expect(line(2).textContent).toBe('import os; print("HIDDEN")');
    await expect(slot(root, "gutter")!.textContent).toBe("1\n2\n3\n4\n5\n6\n7");
    await highlighted(root);
    // Each marker is drawn, boxed, where its character is.
    for (const [name, marker] of [
      ["U+000C form feed", "FF"],
      ["U+202E right-to-left override", "⟨U+202E⟩"],
      ["U+2066 left-to-right isolate", "⟨U+2066⟩"],
    ]) {
      const element = within(source).getAllByRole("img", { name })[0]!;
      await expect(element).toBeVisible();
      const drawn = getComputedStyle(element, "::before");
      await expect(drawn.content).toBe(`"${marker}"`);
      await expect(drawn.borderTopStyle).toBe("solid");
      await expect(element.getBoundingClientRect().width).toBeGreaterThan(4);
    }
    await expect(line(5)).toContainElement(within(source).getByRole("img", { name: "U+000C form feed" }));
    // The form feed's line keeps one line's height, and each line its number's row.
    const lineHeight = Number.parseFloat(getComputedStyle(source.querySelector("code")!).lineHeight);
    await expect(source.querySelector("code")!.getBoundingClientRect().height).toBeCloseTo(7 * lineHeight, 0);
    // The override reorders nothing: the string's closing quote is drawn after the "#" inside it, "admins" left to right.
    const text = line(6).textContent!;
    await expect(charLeft(line(6), text.lastIndexOf('"'))).toBeGreaterThan(charLeft(line(6), text.indexOf("#")));
    const admins = text.indexOf("admins");
    await expect(charLeft(line(6), admins)).toBeLessThan(charLeft(line(6), admins + 1));
    // Selected and copied text is the program's own characters, the form feed included, and no marker.
    const range = document.createRange();
    range.selectNodeContents(line(5));
    await expect(range.toString()).toBe('    \fprint("runs for everyone")');
    await expect(line(5).innerText).toBe('    \fprint("runs for everyone")');
  },
};

const areaStates = {
  "Awaiting approval": AwaitingApproval.args,
  Denied: Denied.args,
  "Approval expired": ApprovalExpired.args,
};

/** Every state of this area, each under its name, in light and in dark side by side. */
export const Gallery: Story = areaGalleryStory(areaStates);

/** The same page, with axe checking the dark copies (contrast, names) instead of the light ones. */
export const GalleryDarkChecked: Story = areaGalleryStory(areaStates, "dark");
