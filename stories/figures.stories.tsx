import type { Meta, StoryObj } from "@storybook/react-vite";
import { useEffect, useState } from "react";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { ExecuteCodeCard, type ExecuteCodeCardProps } from "../src";
import { completed, plotCode, running, squaresCsv, squaresFigure, titled } from "./fixtures";
import { card, findSlot, highlighted, slot, slowWait, storyFileUrl, areaGalleryStory, frames } from "./story-helpers";

/** Plots and files a run leaves: shown, enlarged, downloaded, pending, gone. */
const meta = {
  title: "ExecuteCodeCard/Figures and files",
  component: ExecuteCodeCard,
} satisfies Meta<typeof ExecuteCodeCard>;

export default meta;
type Story = StoryObj<typeof meta>;

export const FigureAndFile: Story = {
  args: titled("Squares of 1 to 10, plotted and saved", plotCode, {
    result: completed({ stdout: "sum of squares: 385\n", files: [squaresFigure, squaresCsv] }),
  }),
  render: (args) => <ExecuteCodeCard {...args} fileUrl={storyFileUrl} />,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const figures = within(await findSlot(root, "figures"));
    const image = figures.getByRole("img", { name: "Squares, x: n, y: n squared" });
    // Room for the figure is kept before it loads, then it shows at its own aspect ratio.
    await expect(image.getBoundingClientRect().height).toBeGreaterThan(0);
    await waitFor(() => expect((image as HTMLImageElement).naturalWidth).toBeGreaterThan(0), slowWait);
    const links = [...root.querySelectorAll<HTMLAnchorElement>('a[data-slot="execute-code-file"]')];
    await expect(links.map((link) => link.textContent)).toEqual([
      "Download figure-1.png (6.9 KB)",
      "Download squares.csv (61 B)",
    ]);
    await expect(links[1]).toHaveAttribute("download", "squares.csv");
    // After the output, in the card's body.
    await expect(
      slot(root, "stdout")!.compareDocumentPosition(slot(root, "figures")!) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  },
};

export const FigureAndFileDark: Story = { ...FigureAndFile, parameters: { theme: "dark" } };

export const TwoFiguresOnAWideCard: Story = {
  args: titled("Squares of 1 to 10, plotted and saved", plotCode, {
    result: completed({
      files: [
        squaresFigure,
        { ...squaresFigure, name: "figure-2.png", alt: "Cubes", ref: { sessionId: "run-1", fileId: "figure-2" } },
      ],
    }),
  }),
  render: (args) => (
    <div style={{ width: 900 }}>
      <ExecuteCodeCard {...args} fileUrl={storyFileUrl} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const [first, second] = within(card(canvasElement)).getAllByRole("img");
    await waitFor(() => expect(second!.getBoundingClientRect().top).toBe(first!.getBoundingClientRect().top));
  },
};

export const TwoFiguresOnAPhone: Story = {
  ...TwoFiguresOnAWideCard,
  render: (args) => (
    <div style={{ width: 340, maxWidth: "100%" }}>
      <ExecuteCodeCard {...args} fileUrl={storyFileUrl} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const [first, second] = within(card(canvasElement)).getAllByRole("img");
    await waitFor(() =>
      expect(second!.getBoundingClientRect().top).toBeGreaterThan(first!.getBoundingClientRect().bottom),
    );
  },
};

export const FigureEnlarged: Story = {
  args: titled("Squares of 1 to 10, plotted and saved", plotCode, {
    result: completed({ stdout: "sum of squares: 385\n", files: [squaresFigure] }),
  }),
  render: (args) => <ExecuteCodeCard {...args} fileUrl={storyFileUrl} />,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const open = within(root).getByRole("button", { name: "Enlarge the figure: Squares, x: n, y: n squared" });
    await userEvent.click(open);
    // The dialog is above the page, outside the card, named by what the figure shows.
    const dialog = await within(document.body).findByRole("dialog", { name: "Squares, x: n, y: n squared" }, slowWait);
    await expect(root.contains(dialog)).toBe(false);
    const large = within(dialog).getByRole("img", { name: "Squares, x: n, y: n squared" });
    await waitFor(() => expect((large as HTMLImageElement).naturalWidth).toBeGreaterThan(0), slowWait);
    await expect(large.getBoundingClientRect().width).toBeGreaterThan(open.getBoundingClientRect().width);
    await expect(within(dialog).getByRole("link", { name: "Download figure-1.png (6.9 KB)" })).toHaveAttribute(
      "download",
      "figure-1.png",
    );
    // Escape closes it, and the focus goes back to the figure.
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(within(document.body).queryByRole("dialog")).toBeNull());
    await expect(open).toHaveFocus();
  },
};

export const FigureEnlargedDark: Story = {
  ...FigureEnlarged,
  parameters: { theme: "dark" },
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await userEvent.click(within(root).getByRole("button", { name: /Enlarge the figure/ }));
    const dialog = await within(document.body).findByRole("dialog", {}, slowWait);
    // The dialog takes the card's scheme: its surface is the card's.
    await expect(getComputedStyle(dialog).backgroundColor).toBe(getComputedStyle(root).backgroundColor);
    await userEvent.click(within(dialog).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(within(document.body).queryByRole("dialog")).toBeNull());
  },
};

export const FigurePending: Story = {
  args: titled("Squares of 1 to 10, plotted and saved", plotCode, { status: running }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await expect(root).toHaveAttribute("data-phase", "running");
    // A program that draws keeps room for its figure while it runs.
    const pending = slot(root, "figure-pending")!;
    await expect(pending).toHaveTextContent("The figure appears when the program ends.");
    await expect(pending.getBoundingClientRect().height).toBeGreaterThan(100);
  },
};

export const FigureNoLongerAvailable: Story = {
  args: titled("Squares of 1 to 10, plotted and saved", plotCode, { result: completed({ files: [squaresFigure] }) }),
  render: (args) => <ExecuteCodeCard {...args} fileUrl={() => "/no-such-file.png"} />,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await waitFor(
      () => expect(slot(root, "file-unavailable")).toHaveTextContent("figure-1.png could not be loaded"),
      slowWait,
    );
    await expect(within(root).queryByRole("img")).toBeNull();
  },
};

/** A program that draws and prints a line, and writes no other file: when it ends, only its figure comes. */
const drawCode = `import matplotlib.pyplot as plt

n = list(range(1, 11))
plt.plot(n, [k * k for k in n], marker="o")
plt.title("Squares")
plt.show()
print("sum of squares:", sum(k * k for k in n))`;

/** Matplotlib's default figure, as the sandbox reports it: 640 × 480 px. */
const drawnFigure = { ...squaresFigure, width: 640, height: 480 };

const drawing = titled("Squares of 1 to 10, drawn", drawCode, {
  status: running,
  result: {
    status: "running",
    stdout: "sum of squares: 385\n",
    stderr: "",
    truncated: { stdout: 0, stderr: 0 },
    timeoutMs: 60_000,
  },
});
const drawn = titled("Squares of 1 to 10, drawn", drawCode, {
  result: completed({ stdout: "sum of squares: 385\n", files: [drawnFigure] }),
});

/** What the story's play dispatches to end the run: no input of the person's, so each shift counts. */
const RUN_ENDS = "ecu-story-run-ends";

/** The running card with the room for its figure, then, on `RUN_ENDS`, the finished card; the tutor's answer under it. */
function RunThatDraws(args: ExecuteCodeCardProps) {
  const [ended, setEnded] = useState(false);
  useEffect(() => {
    const end = () => setEnded(true);
    window.addEventListener(RUN_ENDS, end);
    return () => window.removeEventListener(RUN_ENDS, end);
  }, []);
  return (
    <div style={{ width: 760 }}>
      <ExecuteCodeCard {...args} {...(ended ? drawn : drawing)} fileUrl={storyFileUrl} />
      <div data-testid="answer" style={{ display: "grid", gap: 12, paddingTop: 12 }}>
        <p>The sum of the first ten squares is 385, and the figure shows how fast they grow.</p>
        {Array.from(
          { length: 12 },
          (_, i) => `Line ${i + 1} of the thread under the card: the answer, the next question.`,
        ).map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
    </div>
  );
}

type LayoutShift = PerformanceEntry & { value: number; hadRecentInput: boolean };

export const FigureArrivesWithoutAJump: Story = {
  args: drawing,
  render: (args) => <RunThatDraws {...args} />,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await highlighted(root);
    const pending = slot(root, "figure-pending")!;
    await expect(pending).toHaveTextContent("The figure appears when the program ends.");
    // As a thread shows a card that has just run: its figure, and what follows it, in view.
    pending.scrollIntoView({ block: "start" });
    await frames(3);
    const room = pending.getBoundingClientRect();
    const answer = within(canvasElement).getByTestId("answer");
    const answerTop = answer.getBoundingClientRect().top;

    let shift = 0;
    const add = (entries: PerformanceEntry[]) => {
      for (const entry of entries as LayoutShift[]) if (!entry.hadRecentInput) shift += entry.value;
    };
    const observer = new PerformanceObserver((list) => add(list.getEntries()));
    observer.observe({ type: "layout-shift" });
    try {
      window.dispatchEvent(new Event(RUN_ENDS));
      await waitFor(() => expect(root).toHaveAttribute("data-phase", "succeeded"));
      const image = within(root).getByRole<HTMLImageElement>("img", { name: "Squares, x: n, y: n squared" });
      await waitFor(() => expect(image.complete && image.naturalWidth > 0).toBe(true));
      await frames(5);
      add(observer.takeRecords());
    } finally {
      observer.disconnect();
    }
    await expect(shift).toBeLessThanOrEqual(0.02);
    // The figure's frame is where the room was, at its size; what follows the card has not moved.
    const frame = slot(root, "figures")!.querySelector("figure")!.getBoundingClientRect();
    await expect(Math.abs(frame.top - room.top)).toBeLessThanOrEqual(1);
    await expect(Math.abs(frame.height - room.height)).toBeLessThanOrEqual(1);
    await expect(Math.abs(answer.getBoundingClientRect().top - answerTop)).toBeLessThanOrEqual(1);
  },
};

const inACardOf760 = (args: ExecuteCodeCardProps) => (
  <div style={{ width: 760 }}>
    <ExecuteCodeCard {...args} fileUrl={storyFileUrl} />
  </div>
);

export const FigureAtItsSize: Story = {
  args: titled("Squares of 1 to 10, drawn", drawCode, { result: completed({ files: [drawnFigure] }) }),
  render: inACardOf760,
  play: async ({ canvasElement }) => {
    const image = within(card(canvasElement)).getByRole("img");
    // A figure alone takes the card's width up to its own: 640 px, not half the card.
    await expect(image.getBoundingClientRect().width).toBe(640);
    await expect(image.getBoundingClientRect().height).toBe(480);
  },
};

export const FigureLargerThanTheCard: Story = {
  // Saved at a high dpi: as wide as the card lets it be.
  args: titled("Squares of 1 to 10, drawn", drawCode, {
    result: completed({ files: [{ ...drawnFigure, width: 1600, height: 1200 }] }),
  }),
  render: inACardOf760,
  play: async ({ canvasElement }) => {
    const image = within(card(canvasElement)).getByRole("img");
    const frame = image.closest("figure")!;
    const padding = Number.parseFloat(getComputedStyle(frame).paddingLeft) * 2;
    await expect(image.getBoundingClientRect().width).toBeCloseTo(frame.clientWidth - padding, 0);
    await expect(image.getBoundingClientRect().width).toBeGreaterThan(680);
  },
};

export const FigureDimmedInDark: Story = {
  args: titled("Squares of 1 to 10, drawn", drawCode, {
    result: completed({ stdout: "sum of squares: 385\n", files: [drawnFigure] }),
  }),
  parameters: { theme: "dark" },
  render: inACardOf760,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const image = within(root).getByRole("img");
    const frame = image.closest("figure")!;
    // The plot dimmed a little, its colours kept, in a grey mat; its frame the card's dark, not white.
    await expect(getComputedStyle(image).filter).toMatch(/^brightness\(0\.\d+\)$/);
    await expect(getComputedStyle(image).boxShadow).toMatch(/ 0px 0px 0px 4px$/);
    await expect(getComputedStyle(frame).backgroundColor).not.toBe("rgb(255, 255, 255)");
  },
};

export const FigurePendingDark: Story = {
  args: drawing,
  parameters: { theme: "dark" },
  render: (args) => (
    <div style={{ width: 760 }}>
      <ExecuteCodeCard {...args} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const pending = slot(card(canvasElement), "figure-pending")!;
    const room = pending.querySelector<HTMLElement>(".ecu-figure-pending")!;
    // No white block while it runs: the room is the frame's own dark.
    await expect(getComputedStyle(room).backgroundColor).toBe("rgba(0, 0, 0, 0)");
    await expect(getComputedStyle(pending).backgroundColor).not.toBe("rgb(255, 255, 255)");
    await expect(room.getBoundingClientRect().width).toBe(640);
    await expect(room.getBoundingClientRect().height).toBe(480);
  },
};

export const FigureInLight: Story = {
  ...FigureDimmedInDark,
  parameters: { theme: "light" },
  play: async ({ canvasElement }) => {
    // In light mode the plot is shown as drawn.
    await expect(getComputedStyle(within(card(canvasElement)).getByRole("img")).filter).toBe("none");
  },
};

const areaStates = {
  "A figure and a file": FigureAndFile.args,
  "Two figures": TwoFiguresOnAWideCard.args,
  "Figure pending": FigurePending.args,
};

/** Every state of this area, each under its name, in light and in dark side by side. */
export const Gallery: Story = areaGalleryStory(areaStates);

/** The same page, with axe checking the dark copies (contrast, names) instead of the light ones. */
export const GalleryDarkChecked: Story = areaGalleryStory(areaStates, "dark");
