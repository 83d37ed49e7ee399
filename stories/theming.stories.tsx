import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, within } from "storybook/test";
import { ExecuteCodeCard } from "../src";
import { germanLabels } from "../src/locales/de";
import { slotName } from "../src/view/slots";
import { ansiOutput, call, completed, galleryStates, tracebackCode, tracebackStderr } from "./fixtures";
import {
  card,
  slot,
  slowWait,
  longOutputArgs,
  ansiPalette,
  ansiReadable,
  shadcnViolet,
  areaGalleryStory,
} from "./story-helpers";

/** Colours, labels and focus: terminal colours in both schemes, German labels, a shadcn theme, keyboard focus. */
const meta = {
  title: "ExecuteCodeCard/Theming",
  component: ExecuteCodeCard,
} satisfies Meta<typeof ExecuteCodeCard>;

export default meta;
type Story = StoryObj<typeof meta>;

export const AnsiColours: Story = {
  args: call("run_tests()", { result: completed({ stdout: ansiOutput }) }),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const stdout = slot(root, "stdout")!;
    await expect(stdout.textContent).not.toContain("\x1b");
    await expect(stdout.textContent).not.toContain("[0m");
    // The ANSI parser loads in its own chunk; until then the text shows plain.
    const passed = await within(stdout).findByText("✔ test_addition passed", { selector: ".ecu-ansi-fg" }, slowWait);
    await expect(passed.style.getPropertyValue("--ecu-ansi-fg")).toBe("var(--ecu-ansi-green)");
    await expect(getComputedStyle(passed).color).not.toBe(getComputedStyle(stdout).color);
    await expect(stdout.querySelector(".ecu-ansi-bold")).toHaveTextContent("Test report");
    await expect(stdout).toHaveTextContent("progress 100%");
    await expect(stdout).not.toHaveTextContent("progress 50%");
  },
};

export const AnsiColoursDark: Story = { ...AnsiColours, parameters: { theme: "dark" } };

export const GermanLabels: Story = {
  args: {
    ...call(tracebackCode, { result: completed({ stdout: "scores: []\n", stderr: tracebackStderr, exitCode: 1 }) }),
    labels: germanLabels,
  },
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const canvas = within(root);
    await expect(canvas.getByRole("status")).toHaveTextContent("Fehlgeschlagen");
    await expect(canvas.getByRole("button", { name: "Programm und Ausgabe ausblenden" })).toBeInTheDocument();
    await expect(canvas.getByRole("group", { name: "Fehlerausgabe" })).toBeInTheDocument();
  },
};

/** The toolbar's Language set to Deutsch: a story that passes its args to the card, with no labels of its own, shows the German ones. */
export const GermanFromTheToolbar: Story = {
  args: galleryStates.failed,
  globals: { locale: "de" },
  play: async ({ canvasElement }) => {
    const canvas = within(card(canvasElement));
    await expect(canvas.getByRole("status")).toHaveTextContent("Fehlgeschlagen");
    await expect(canvas.getByRole("group", { name: "Ausgabe" })).toBeInTheDocument();
  },
};

export const KeyboardFocus: Story = {
  args: longOutputArgs,
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    // The 200 lines of output scroll, so their pane is a tab stop (the two-line program's is not).
    const output = slot(root, "stdout")!.querySelector("pre")!;
    output.focus({ focusVisible: true } as FocusOptions);
    // The ring of a scrolling area sits inside it, where the pane's clipping cannot hide it.
    const style = getComputedStyle(output);
    await expect(style.outlineStyle).toBe("solid");
    await expect(Number.parseFloat(style.outlineOffset)).toBeLessThan(0);
    // Every control is at least 24 px high.
    for (const button of root.querySelectorAll("button")) {
      if (button.closest(".ecu-frame-link") || button.dataset.slot === slotName("frame-link")) continue;
      await expect(button.getBoundingClientRect().height).toBeGreaterThanOrEqual(24);
    }
  },
};

export const AnsiPaletteLight: Story = {
  args: call("palette()", { result: completed({ stdout: ansiPalette }) }),
  parameters: { theme: "light" },
  play: ansiReadable(),
};

export const AnsiPaletteDark: Story = { ...AnsiPaletteLight, parameters: { theme: "dark" } };

export const ShadcnTheme: Story = {
  args: { ...galleryStates["awaiting-approval"] },
  render: (args) => (
    <div style={shadcnViolet}>
      <ExecuteCodeCard {...args} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const root = card(canvasElement);
    const host = root.parentElement!;
    const probe = (value: string) => {
      const element = document.createElement("span");
      element.style.color = value;
      host.append(element);
      const color = getComputedStyle(element).color;
      element.remove();
      return color;
    };
    const style = getComputedStyle(root);
    await expect(style.backgroundColor).toBe(probe("var(--card)"));
    await expect(style.color).toBe(probe("var(--card-foreground)"));
    await expect(style.borderTopLeftRadius).toBe("16px");
    await expect(style.fontFamily).toContain("Georgia");
    const run = within(root).getByRole("button", { name: "Run" });
    await expect(getComputedStyle(run).backgroundColor).toBe(probe("var(--primary)"));
  },
};

const areaStates = {
  "ANSI colours": AnsiColours.args,
  "ANSI palette": AnsiPaletteLight.args,
  "German labels": GermanLabels.args,
};

/** Every state of this area, each under its name, in light and in dark side by side. */
export const Gallery: Story = areaGalleryStory(areaStates);

/** The same page, with axe checking the dark copies (contrast, names) instead of the light ones. */
export const GalleryDarkChecked: Story = areaGalleryStory(areaStates, "dark");
