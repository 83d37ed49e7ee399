import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, waitFor, within } from "storybook/test";
import { AttachmentChip, ExecuteCodeCard, type ExecuteCodeRunFile } from "../src";
import { call, completed, titled } from "./fixtures";
import { card, findSlot, slot, slowWait } from "./story-helpers";
import { slotSelector } from "../src/view/slots";

/**
 * What a run starts from and leaves: the chips of the files a student
 * attaches, what a run used (their files, a chat's earlier variables), and
 * the first rows of a table it wrote.
 */
const meta = {
  title: "ExecuteCodeCard/Student files",
  component: ExecuteCodeCard,
} satisfies Meta<typeof ExecuteCodeCard>;

export default meta;
type Story = StoryObj<typeof meta>;

const meanCode = [
  "import pandas as pd",
  "",
  'table = pd.read_csv("scores.csv")',
  'means = table.groupby("student").mean(numeric_only=True)',
  'means.to_csv("means.csv")',
  "print(means.round(2).to_string())",
].join("\n");

const students = ["ada", "bob", "cy", "dee", "eli", "fay", "gus", "hal", "ivy", "jon", "kai", "lea"];
/** 36 rows: more than the card shows. */
const meansCsv = `student,score,attempts\n${students
  .flatMap((name, i) => [0, 1, 2].map((k) => `${name}${k || ""},${60 + ((i * 7 + k * 5) % 40)}.5,${k + 1}`))
  .join("\n")}\n`;

const meansFile: ExecuteCodeRunFile = {
  name: "means.csv",
  mediaType: "text/csv",
  size: meansCsv.length,
  kind: "file",
  ref: { sessionId: "run-1", fileId: "means" },
};

const tableUrl = () => `data:text/csv,${encodeURIComponent(meansCsv)}`;

const used = titled("Mean score of each student", meanCode, {
  result: completed({
    stdout: "         score\nstudent       \nada       80.0\nbob       70.0\n",
    files: [meansFile],
    filesUsed: ["scores.csv"],
  }),
});

export const UsedAndTablePreview: Story = {
  args: used,
  render: (args) => <ExecuteCodeCard {...args} fileUrl={tableUrl} />,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(await findSlot(root, "files-used")).toHaveTextContent("Used: scores.csv");
    const table = await within(root).findByRole("region", { name: "First rows of means.csv" }, slowWait);
    await expect([...table.querySelectorAll("th")].map((cell) => cell.textContent)).toEqual([
      "student",
      "score",
      "attempts",
    ]);
    await expect(table.querySelectorAll("tbody tr")).toHaveLength(20);
    await expect(root).toHaveTextContent("The first 20 rows. Download the file for all of them.");
    // The header stays while the rows scroll under it.
    await expect(getComputedStyle(table.querySelector("th")!).position).toBe("sticky");
    await waitFor(() => expect(table.scrollHeight).toBeGreaterThan(table.clientHeight), slowWait);
    await expect(table).toHaveAttribute("tabindex", "0");
    // The whole file is the download.
    await expect(root.querySelector(`a${slotSelector("file")}`)).toHaveTextContent(
      `Download means.csv (${meansCsv.length} B)`,
    );
  },
};

export const UsedAndTablePreviewDark: Story = { ...UsedAndTablePreview, parameters: { theme: "dark" } };

export const TablePreviewOnAPhone: Story = {
  ...UsedAndTablePreview,
  render: (args) => (
    <div style={{ width: 320, maxWidth: "100%" }}>
      <ExecuteCodeCard {...args} fileUrl={tableUrl} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const table = await within(card(canvasElement)).findByRole("region", { name: "First rows of means.csv" }, slowWait);
    // The table scrolls inside the card; the card keeps its width.
    await expect(card(canvasElement).getBoundingClientRect().width).toBeLessThanOrEqual(320);
    await expect(table.clientWidth).toBeLessThanOrEqual(320);
  },
};

/** A table of numbers only (a program's `writerows`): its first row is data, not a header. */
export const TableWithoutHeader: Story = {
  args: titled(
    "Squares of 1 to 3, saved as a CSV file",
    "import csv\ncsv.writer(open('squares.csv', 'w')).writerows((n, n * n) for n in range(1, 4))",
    {
      result: completed({ files: [{ ...meansFile, name: "squares.csv", size: 12 }] }),
    },
  ),
  render: (args) => (
    <ExecuteCodeCard {...args} fileUrl={() => `data:text/csv,${encodeURIComponent("1,1\n2,4\n3,9\n")}`} />
  ),
  play: async ({ canvasElement }) => {
    const table = await within(card(canvasElement)).findByRole(
      "region",
      { name: "First rows of squares.csv" },
      slowWait,
    );
    await expect(table.querySelectorAll("th")).toHaveLength(0);
    await expect([...table.querySelectorAll("tbody tr")].map((row) => row.textContent)).toEqual(["11", "24", "39"]);
  },
};

export const FileGoneBeforeTheRun: Story = {
  args: titled("Show the scores file", 'print(open("scores.csv").read())', {
    result: completed({
      stderr:
        "Traceback (most recent call last):\n  File \"<program>\", line 1, in <module>\nFileNotFoundError: [Errno 2] No such file or directory: 'scores.csv'\n",
      exitCode: 1,
      filesGone: ["scores.csv"],
    }),
  }),
  play: async ({ canvasElement }) => {
    await expect(slot(card(canvasElement), "files-gone")).toHaveTextContent(
      "Gone before the run: scores.csv. Files are kept for a while after their last use; attach them again.",
    );
  },
};

/** On a sandbox that keeps a chat's Python session (Jupyter, a kernel per chat): the run used an earlier run's variables. */
export const ContinuesEarlierRuns: Story = {
  args: titled("The mean of the scores", "print(sum(scores) / len(scores))", {
    result: completed({ stdout: "4.0\n", continued: true }),
  }),
  play: async ({ canvasElement }) => {
    await expect(slot(card(canvasElement), "continued")).toHaveTextContent("Continues from earlier runs in this chat");
  },
};

/** The model asked for a fresh Python session (`restart: true`): the run did not see earlier runs' variables. */
export const RestartedPython: Story = {
  args: call('print("x" in globals())', {
    args: { code: 'print("x" in globals())', restart: true },
    argsText: JSON.stringify({ code: 'print("x" in globals())', restart: true }),
    result: completed({ stdout: "False\n", restarted: true }),
  }),
  play: async ({ canvasElement }) => {
    await expect(slot(card(canvasElement), "restarted")).toHaveTextContent(
      "Python was restarted: earlier runs' variables are gone",
    );
    expect(slot(card(canvasElement), "continued")).toBeNull();
  },
};

/** The chips as the composer and a sent message show them. */
function Chips() {
  return (
    <div className="ecu-card ecu-attachments" role="group" aria-label="Attached files">
      <AttachmentChip name="scores.csv" size={48} />
      <AttachmentChip name="results-2026-autumn-term-all-groups.csv" size={812_000} progress={0.4} />
      <AttachmentChip
        name="big.csv"
        size={12 * 1024 * 1024}
        error="big.csv is 12 MB; a file may be at most 10 MB."
        remove={
          <button type="button" className="ecu-attachment-remove" aria-label="Remove big.csv">
            ×
          </button>
        }
      />
      <AttachmentChip name={"report\u202Efdp.py"} href="#sent" />
    </div>
  );
}

export const AttachmentChips: Story = {
  args: used,
  render: () => <Chips />,
  play: async ({ canvasElement }) => {
    const group = within(canvasElement).getByRole("group", { name: "Attached files" });
    const chips = group.querySelectorAll(slotSelector("attachment"));
    await expect([...chips].map((chip) => chip.getAttribute("data-state"))).toEqual([
      "ready",
      "uploading",
      "error",
      "ready",
    ]);
    await expect(chips[0]).toHaveTextContent("scores.csv48 B");
    await expect(within(group).getByRole("progressbar")).toHaveAccessibleName(
      "Uploading results-2026-autumn-term-all-groups.csv: 40%",
    );
    await expect(within(group).getByRole("alert")).toHaveTextContent("big.csv is 12 MB; a file may be at most 10 MB.");
    // A name that hides a reversal is shown with the hidden character marked.
    await expect(chips[3]!.querySelector("a")).toHaveAttribute("download", "report\u202Efdp.py");
    await expect(
      within(chips[3] as HTMLElement).getByRole("img", { name: "U+202E right-to-left override" }),
    ).toBeVisible();
  },
};

export const AttachmentChipsDark: Story = { ...AttachmentChips, parameters: { theme: "dark" } };

export const AttachmentChipsOnAPhone: Story = {
  ...AttachmentChips,
  render: () => (
    <div style={{ width: 320, maxWidth: "100%" }}>
      <Chips />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const chips = canvasElement.querySelectorAll<HTMLElement>(slotSelector("attachment"));
    // Each chip fits the column: a long name is cut with an ellipsis, not past the edge.
    const column = canvasElement.querySelector<HTMLElement>('[role="group"]')!.getBoundingClientRect();
    for (const chip of chips) await expect(chip.getBoundingClientRect().right).toBeLessThanOrEqual(column.right + 0.5);
  },
};
