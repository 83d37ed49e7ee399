import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, userEvent, waitFor, within } from "storybook/test";
import { ExecuteCodeCard } from "../src";
import { call, completed, plotCode, running, squaresCsv, squaresFigure } from "./fixtures";
import { card, slot, storyFileUrl, areaGalleryStory } from "./story-helpers";

/** Plots and files a run leaves: shown, enlarged, downloaded, pending, gone. */
const meta = {
  title: "ExecuteCodeCard/Figures and files",
  component: ExecuteCodeCard,
} satisfies Meta<typeof ExecuteCodeCard>;

export default meta;
type Story = StoryObj<typeof meta>;

export const FigureAndFile: Story = {
  args: call(plotCode, {
    result: completed({ stdout: "sum of squares: 385\n", files: [squaresFigure, squaresCsv] }),
  }),
  render: (args) => <ExecuteCodeCard {...args} fileUrl={storyFileUrl} />,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const figures = within(slot(root, "figures")!);
    const image = figures.getByRole("img", { name: "Squares, x: n, y: n squared" });
    // Room for the figure is kept before it loads, then it shows at its own aspect ratio.
    await expect(image.getBoundingClientRect().height).toBeGreaterThan(0);
    await waitFor(() => expect((image as HTMLImageElement).naturalWidth).toBeGreaterThan(0));
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
  args: call(plotCode, {
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
    <div style={{ width: 340 }}>
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
  args: call(plotCode, { result: completed({ stdout: "sum of squares: 385\n", files: [squaresFigure] }) }),
  render: (args) => <ExecuteCodeCard {...args} fileUrl={storyFileUrl} />,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const open = within(root).getByRole("button", { name: "Enlarge the figure: Squares, x: n, y: n squared" });
    await userEvent.click(open);
    // The dialog is above the page, outside the card, named by what the figure shows.
    const dialog = await within(document.body).findByRole("dialog", { name: "Squares, x: n, y: n squared" });
    await expect(root.contains(dialog)).toBe(false);
    const large = within(dialog).getByRole("img", { name: "Squares, x: n, y: n squared" });
    await waitFor(() => expect((large as HTMLImageElement).naturalWidth).toBeGreaterThan(0));
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
    const dialog = await within(document.body).findByRole("dialog");
    // The dialog takes the card's scheme: its surface is the card's.
    await expect(getComputedStyle(dialog).backgroundColor).toBe(getComputedStyle(root).backgroundColor);
    await userEvent.click(within(dialog).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(within(document.body).queryByRole("dialog")).toBeNull());
  },
};

export const FigurePending: Story = {
  args: call(plotCode, { status: running }),
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
  args: call(plotCode, { result: completed({ files: [squaresFigure] }) }),
  render: (args) => <ExecuteCodeCard {...args} fileUrl={() => "/no-such-file.png"} />,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    await waitFor(() =>
      expect(slot(root, "file-unavailable")).toHaveTextContent("figure-1.png is no longer available"),
    );
    await expect(within(root).queryByRole("img")).toBeNull();
  },
};

const areaStates = {
  "A figure and a file": FigureAndFile.args,
  "Two figures": TwoFiguresOnAWideCard.args,
  "Figure pending": FigurePending.args,
};

/** Every state of this area side by side. */
export const Gallery: Story = areaGalleryStory(areaStates);

export const GalleryDark: Story = { ...Gallery, parameters: { theme: "dark" } };
