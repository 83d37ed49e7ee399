import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { ExecuteCodeCard } from "../src";
import { bidiOutput, call, completed, htmlOutput, largeProgram, longOutput, unicodeOutput } from "./fixtures";
import { card, slot, slowWait, visibleLines, highlighted, longOutputArgs, areaGalleryStory } from "./story-helpers";

/** Empty, long, cut and hostile output and programs: what the student sees is what the model reads. */
const meta = {
  title: "ExecuteCodeCard/Long and odd content",
  component: ExecuteCodeCard,
} satisfies Meta<typeof ExecuteCodeCard>;

export default meta;
type Story = StoryObj<typeof meta>;

export const EmptyOutput: Story = {
  args: call("x = 6 * 7", { result: completed({}) }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(slot(root, "stdout")).toBeNull();
    await expect(slot(root, "stderr")).toBeNull();
    await expect(slot(root, "no-output")).toHaveTextContent("The program printed nothing.");
  },
};

export const StderrOnly: Story = {
  args: call('import sys\nprint("careful", file=sys.stderr)', {
    result: completed({ stderr: "careful\n" }),
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "succeeded");
    await expect(slot(root, "stdout")).toBeNull();
    await expect(slot(root, "stderr")).toHaveTextContent("careful");
  },
};

/** A one-line program with a one-line answer stays a small card. */
export const Compact: Story = {
  args: call("print(sum(range(101)))", { result: completed({ stdout: "5050\n", wallTimeMs: 12 }) }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(slot(root, "stdout")).toHaveTextContent("5050");
    // Header, the code under its name and copy button, the output: no more.
    await expect(root.getBoundingClientRect().height).toBeLessThan(210);
  },
};

export const LongOutput: Story = {
  args: longOutputArgs,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const pane = slot(root, "stdout")!;
    const body = pane.querySelector("pre")!;
    // Folded: a dozen lines show, the rest scrolls, and the one control sits under the pane.
    await expect(visibleLines(body)).toBeLessThan(14);
    await expect(body.scrollHeight).toBeGreaterThan(body.clientHeight * 5);
    const more = within(pane).getByRole("button", { name: "Show 188 more lines" });
    await expect(more).toHaveAttribute("aria-expanded", "false");
    await expect(more.getBoundingClientRect().top).toBeGreaterThanOrEqual(body.getBoundingClientRect().bottom - 1);
  },
};

/** Thirteen lines, one past the fold: all of them show, with no control that would hide a single line. */
export const OneLinePastTheFold: Story = {
  args: call("for i in range(13):\n    print('round', i)", {
    result: completed({ stdout: Array.from({ length: 13 }, (_, i) => `round ${i}\n`).join("") }),
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const pane = slot(root, "stdout")!;
    const body = pane.querySelector("pre")!;
    await expect(slot(pane, "show-more")).toBeNull();
    await expect(body.scrollHeight).toBeLessThanOrEqual(body.clientHeight);
    await expect(body.scrollTop).toBe(0);
  },
};

export const LongOutputShownMore: Story = {
  args: longOutputArgs,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const pane = slot(root, "stdout")!;
    const body = pane.querySelector("pre")!;
    const folded = body.clientHeight;
    await userEvent.click(within(pane).getByRole("button", { name: "Show 188 more lines" }));
    await expect(within(pane).getByRole("button", { name: "Show less" })).toHaveAttribute("aria-expanded", "true");
    // Taller, but bounded: the card never outgrows the chat column's view.
    await expect(body.clientHeight).toBeGreaterThan(folded * 1.5);
    await expect(body.clientHeight).toBeLessThanOrEqual(Math.min(window.innerHeight * 0.7, 640) + 1);
    await expect(body.scrollHeight).toBeGreaterThan(body.clientHeight);
  },
};

export const VeryLongOutput: Story = {
  args: call("for i in range(5000):\n    print(f'line {i + 1}')", {
    result: completed({ stdout: longOutput(5000) }),
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    // The output's window, which counts hidden lines, comes with the output's chunk; until then the pane counts characters.
    await waitFor(() => expect(slot(root, "hidden")).toHaveTextContent("4,740 lines hidden"), slowWait);
    await expect(slot(root, "stdout")).toHaveTextContent("line 5000:");
    // One control for more in the pane: it shows all, and "Show less" windows it again.
    const stdout = within(slot(root, "stdout")!);
    await expect(stdout.getAllByRole("button")).toHaveLength(2);
    await userEvent.click(stdout.getByRole("button", { name: "Show all" }));
    await expect(slot(root, "hidden")).toBeNull();
    await expect(slot(root, "stdout")).toHaveTextContent("line 2500:");
    await userEvent.click(stdout.getByRole("button", { name: "Show less" }));
    await expect(slot(root, "hidden")).toHaveTextContent("4,740 lines hidden");
  },
};

/** 50,000 printed lines, as the server keeps them: the start, the end, and the count of what is between. */
const fiftyThousandLines = Array.from({ length: 50_000 }, (_, k) => `line ${k}\n`).join("");
/** The program's call, with a server that kept the first and the last `kept` characters of its output. */
const keptOfFiftyThousand = (kept: number) =>
  call("for i in range(50_000):\n    print('line', i)", {
    result: completed({
      stdout: `${fiftyThousandLines.slice(0, kept)}${fiftyThousandLines.slice(-kept)}`,
      truncated: {
        stdout: fiftyThousandLines.length - 2 * kept,
        stderr: 0,
        at: { stdout: kept },
        lines: { stdout: fiftyThousandLines.slice(kept, -kept).split("\n").length - 1 },
      },
    }),
  });

export const TruncatedOutput: Story = {
  args: keptOfFiftyThousand(4000),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    // The last line of 50,000 shows, at the end of the pane, after the mark of what was not kept.
    await expect(slot(root, "cut")).toHaveTextContent(/^⋯ [\d,]+ lines not kept ⋯$/);
    // What was kept fits the pane's window: one mark at the seam, and no "Show all" that would show only part.
    await expect(slot(root, "hidden")).toBeNull();
    await expect(within(slot(root, "stdout")!).queryByRole("button", { name: "Show all" })).toBeNull();
    const pre = slot(root, "stdout")!.querySelector("pre")!;
    await expect(pre.textContent!.trimEnd().endsWith("line 49999")).toBe(true);
    // A finished pane opens at its start: the first line is in view, the fold below it.
    await expect(pre.scrollTop).toBe(0);
    await expect(pre.textContent!.startsWith("line 0\n")).toBe(true);
    await expect(slot(root, "truncated")).toHaveTextContent(
      /^The program printed 50,000 lines of output; the first \d+ and the last \d+ were kept\.$/,
    );
  },
};

/** A server that keeps more than the pane's window (40,000 characters of 50,000 lines): its start and end show, and "Show all" shows all it kept. */
export const TruncatedPastTheWindow: Story = {
  args: keptOfFiftyThousand(20_000),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    // Two marks: the lines the pane hides for now beside the seam, and what the server did not keep.
    await waitFor(() => expect(slot(root, "hidden")).toHaveTextContent(/^[\d,]+ lines hidden$/), slowWait);
    await expect(slot(root, "cut")).toHaveTextContent(/^⋯ [\d,]+ lines not kept ⋯$/);
    const stdout = within(slot(root, "stdout")!);
    await userEvent.click(stdout.getByRole("button", { name: "Show all" }));
    await expect(slot(root, "hidden")).toBeNull();
    await expect(slot(root, "cut")).toBeInTheDocument();
  },
};

export const CutAtTheEnd: Story = {
  args: call("print('x' * 20_000)", {
    result: completed({ stdout: "x".repeat(8000), truncated: { stdout: 12_001, stderr: 0 } }),
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    // A result from a sandbox that cut at the end (no `at`): said as such, no seam.
    await expect(slot(root, "cut")).toBeNull();
    await expect(slot(root, "truncated")).toHaveTextContent(
      "Only the start of the output was kept; the 12,001 characters after it were not.",
    );
  },
};

/** Code that did not run folds to three lines: it fades at the fold, and the control says how many lines it adds. */
export const FoldedCodeFades: Story = {
  args: call(Array.from({ length: 20 }, (_, i) => `step_${i} = ${i} * 2`).join("\n"), {
    result: completed({}),
  }),
  play: async ({ canvasElement }) => {
    const source = slot(card(canvasElement), "source")!;
    const pre = source.querySelector("pre")!;
    // A fold, not a line sliced through: the code fades out where it is cut.
    await expect(getComputedStyle(pre).maskImage).toContain("linear-gradient");
    await userEvent.click(within(source).getByRole("button", { name: "Show 4 more lines" }));
    await expect(getComputedStyle(pre).maskImage).toBe("none");
  },
};

/** A carriage return overwrote a line: the pane shows it as a terminal does, and what it overwrote on request. */
export const OverwrittenOutput: Story = {
  args: call("print('abc', end='\\r'); print('HIDDEN xyz')", {
    result: completed({ stdout: "abc\rHIDDEN xyz\nprogress: 10%\rprogress: 100%\n" }),
  }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const pre = slot(root, "stdout")!.querySelector("pre")!;
    await expect(pre.innerText).toBe("HIDDEN xyz\nprogress: 100%\n");
    await userEvent.click(within(root).getByRole("button", { name: "Show what was overwritten" }));
    await expect(pre.innerText).toBe("abc\u240dHIDDEN xyz\nprogress: 10%\u240dprogress: 100%\n");
  },
};

export const UnicodeOutput: Story = {
  args: call("print('π ≈ 3.14159')", { result: completed({ stdout: unicodeOutput }) }),
  play: async ({ canvasElement }) => {
    await expect(slot(card(canvasElement), "stdout")).toHaveTextContent("Grüße, 世界! 🐍");
  },
};

export const HtmlLookingOutput: Story = {
  args: call("print(html)", { result: completed({ stdout: htmlOutput, stderr: "<b>bold?</b>" }) }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(slot(root, "stdout")).toHaveTextContent("<script>window.__pwned = true</script>");
    await expect(root.querySelector("script, img, a, b")).toBeNull();
    await expect((window as { __pwned?: boolean }).__pwned).toBeUndefined();
  },
};

export const LargeProgram: Story = {
  args: call(largeProgram(), { result: completed({ stdout: "done\n" }) }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const source = slot(root, "source")!;
    await expect(source.textContent?.length).toBeGreaterThanOrEqual(20_000);
    await highlighted(root);
    // Selected and copied text keeps one line break per line across the blocks of lines.
    await expect(source.querySelector("code")!.innerText.replace(/\n$/, "")).toBe(largeProgram());
    // Folded to 16 lines; "Show N more lines" opens it to a bounded height that scrolls.
    const body = source.querySelector("pre")!;
    await expect(Math.round(visibleLines(body))).toBeLessThanOrEqual(17);
    const folded = body.clientHeight;
    await userEvent.click(within(source).getByRole("button", { name: /^Show [\d,]+ more lines$/ }));
    await expect(body.clientHeight).toBeGreaterThan(folded * 1.5);
    await expect(body.clientHeight).toBeLessThanOrEqual(Math.min(window.innerHeight * 0.7, 640) + 1);
    await expect(root.getBoundingClientRect().height).toBeLessThan(900);
    await expect(within(source).getByRole("button", { name: "Show less" })).toBeVisible();
  },
};

export const InvisibleCharacters: Story = {
  args: call('print("saved invoice_\\u202Efdp.exe")', { result: completed({ stdout: bidiOutput }) }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const stdout = slot(root, "stdout")!;
    const markers = [...stdout.querySelectorAll<HTMLElement>(".ecu-invisible")];
    await expect(markers.map((marker) => marker.dataset.codePoint)).toEqual(["U+202E", "U+200B"]);
    // The marker is drawn, and the override reorders nothing: "fdp.exe" reads as written.
    await expect(getComputedStyle(markers[0]!, "::before").content).toContain("U+202E");
    const range = document.createRange();
    range.selectNodeContents(stdout.querySelector("pre")!);
    await expect(range.toString()).toBe(bidiOutput);
    // The characters on either side of the override keep their order on screen.
    const charBox = (node: Node, offset: number) => {
      const r = document.createRange();
      r.setStart(node, offset);
      r.setEnd(node, offset + 1);
      return r.getBoundingClientRect();
    };
    const before = markers[0]!.previousSibling!;
    const after = markers[0]!.nextSibling!;
    await expect(charBox(after, 0).left).toBeGreaterThanOrEqual(charBox(before, before.textContent!.length - 1).right);
    await expect(after.textContent).toMatch(/^fdp\.exe/);
    // Left to right, as written: an active override would put "f" to the right of "d".
    await expect(charBox(after, 0).left).toBeLessThan(charBox(after, 1).left);
  },
};

export const ConcealedTextIsShown: Story = {
  args: call("print('safe \\x1b[8msecret\\x1b[0m')", { result: completed({ stdout: "safe \x1b[8msecret\x1b[0m\n" }) }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    // SGR 8 would hide text the model reads: the card shows it.
    const secret = await within(slot(root, "stdout")!).findByText("secret", { selector: ".ecu-ansi-hidden" }, slowWait);
    await expect(getComputedStyle(secret).visibility).toBe("visible");
    await expect(secret.getBoundingClientRect().width).toBeGreaterThan(0);
  },
};

/** The model's own title for the program (the tool input's `title`) heads the card, shown as text. */
export const TitledByTheModel: Story = {
  args: call("import pandas as pd\nprint(pd.read_csv('scores.csv').groupby('group').mean())", {
    args: {
      title: "Mean score per <b>group</b>",
      code: "import pandas as pd\nprint(pd.read_csv('scores.csv').groupby('group').mean())",
    },
    result: completed({ stdout: "group\na    3.5\nb    4.0\n" }),
  }),
  play: async ({ canvasElement }) => {
    const title = slot(card(canvasElement), "title");
    await expect(title).toHaveTextContent("Mean score per <b>group</b>");
    await expect(title?.querySelector("b")).toBeNull();
  },
};

/** Without a title or a comment, the card is headed "Python", not by a line of code. */
export const UntitledProgram: Story = {
  args: call("n = 0\nwhile n < 3:\n    n += 1\nprint(n)", { result: completed({ stdout: "3\n" }) }),
  play: async ({ canvasElement }) => {
    await expect(slot(card(canvasElement), "title")).toHaveTextContent(/^Python$/);
  },
};

export const LongOutputDark: Story = { ...LongOutput, parameters: { theme: "dark" } };

const areaStates = {
  "Empty output": EmptyOutput.args,
  "Stderr only": StderrOnly.args,
  "Long output": LongOutput.args,
  "Truncated output": TruncatedOutput.args,
  "Unicode output": UnicodeOutput.args,
  "HTML-looking output": HtmlLookingOutput.args,
  "Invisible characters": InvisibleCharacters.args,
  "Concealed text": ConcealedTextIsShown.args,
  "Titled by the model": TitledByTheModel.args,
};

/** Every state of this area, each under its name, in light and in dark side by side. */
export const Gallery: Story = areaGalleryStory(areaStates);

/** The same page, with axe checking the dark copies (contrast, names) instead of the light ones. */
export const GalleryDarkChecked: Story = areaGalleryStory(areaStates, "dark");
