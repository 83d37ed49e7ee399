import type { StoryObj } from "@storybook/react-vite";
import { useEffect, useState, useSyncExternalStore, type CSSProperties } from "react";
import { expect, waitFor } from "storybook/test";
import { EXECUTE_CODE_PHASES, ExecuteCodeCard, type ExecuteCodeCardProps, type ExecuteCodePhase } from "../src";
import { call, completed, galleryStates, longOutput, running } from "./fixtures";
import { EXECUTE_CODE_CARD } from "../src/testing/selectors";
import { type ExecuteCodeSlot, type InternalSlot, slotSelector } from "../src/view/slots";
import squaresPng from "./assets/squares.png";

/** A story of the card. */
export type CardStory = StoryObj<typeof ExecuteCodeCard>;

export const card = (root: HTMLElement) => {
  const element = root.querySelector<HTMLElement>(EXECUTE_CODE_CARD);
  if (!element) throw new Error("card not rendered");
  return element;
};

export const slot = (root: HTMLElement, name: ExecuteCodeSlot | InternalSlot) =>
  root.querySelector<HTMLElement>(slotSelector(name));

/** A part that shows once a chunk of the card's has loaded (a run's files, the notes under its output). */
export const findSlot = (root: HTMLElement, name: ExecuteCodeSlot | InternalSlot) =>
  waitFor(() => {
    const element = slot(root, name);
    if (!element) throw new Error(`no ${name} yet`);
    return element;
  }, slowWait);

/** The height a scrolling area shows, in lines of its own text. */
export const visibleLines = (element: HTMLElement) =>
  element.clientHeight / Number.parseFloat(getComputedStyle(element).lineHeight);

/**
 * How long a story waits for what comes from elsewhere (the highlighting
 * worker starting cold, an image, streamed output). On a busy machine, with
 * other story files in the same browser, that wait grows; the check does not.
 */
export const slowWait = { timeout: 30_000 };

/** Resolves after `n` animation frames: what the card does in a frame after a commit has happened by then. */
export const frames = (n: number) =>
  new Promise<void>((resolve) => {
    const next = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => next(left - 1)));
    next(n);
  });

/** Waits until shiki's tokens have replaced the plain text of the code block. */
export const highlighted = (root: HTMLElement) =>
  waitFor(() => expect(slot(root, "source")?.querySelector(".ecu-token")).not.toBeNull(), slowWait);

/** The card in a 320 px column, the narrowest phone. */
export const atPhoneWidth = (args: ExecuteCodeCardProps) => (
  <div style={{ width: 320, maxWidth: "100%" }}>
    <ExecuteCodeCard {...args} />
  </div>
);

/**
 * How far a streaming demo may go: a story's play function opens it step by
 * step, so that what it checks between steps never races the stream, however
 * slow the machine. `restart` sends the demo back to its first step.
 */
export class StreamGate {
  until = 0;
  generation = 0;
  private readonly listeners = new Set<() => void>();
  open(until: number): void {
    this.until = until;
    this.notify();
  }
  restart(until: number): void {
    this.generation++;
    this.open(until);
  }
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  private notify() {
    for (const listener of this.listeners) listener();
  }
}

const noGate = () => () => undefined;

/** The arguments of a call streaming in, a step every `intervalMs`, up to where `gate` (if any) allows. */
export function StreamingDemo({
  code,
  steps,
  intervalMs,
  gate,
}: {
  code: string;
  steps: number;
  intervalMs: number;
  gate?: StreamGate;
}) {
  const full = JSON.stringify({ code });
  const until = useSyncExternalStore(gate?.subscribe ?? noGate, () => gate?.until ?? steps);
  const generation = useSyncExternalStore(gate?.subscribe ?? noGate, () => gate?.generation ?? 0);
  const [sent, setSent] = useState({ generation, steps: 0 });
  const step = sent.generation === generation ? sent.steps : 0;
  useEffect(() => {
    if (step >= steps || step >= until) return;
    const timer = setTimeout(() => setSent({ generation, steps: step + 1 }), intervalMs);
    return () => clearTimeout(timer);
  }, [step, steps, until, intervalMs, generation]);
  const done = step >= steps;
  // Runtimes hand over the arguments without their closing delimiters while they stream.
  const argsText = done ? full : full.slice(0, Math.ceil((full.length * step) / steps)).replace(/"?\}?$/, "");
  return <ExecuteCodeCard status={running} args={done ? { code } : {}} argsText={argsText} />;
}

export const tickCode = 'import time\n\nfor i in range(40):\n    print("tick", i, flush=True)\n    time.sleep(1)';

export const ticksUpTo = (n: number) => Array.from({ length: n }, (_, i) => `tick ${i}\n`).join("");

export const runningWith = (stdout: string) =>
  call(tickCode, { result: { status: "running", stdout, stderr: "", truncated: { stdout: 0, stderr: 0 } } });

/** Output arrives a line at a time while the program runs, then the run finishes. */
export function LiveOutputDemo({ lines, intervalMs }: { lines: number; intervalMs: number }) {
  const [printed, setPrinted] = useState(1);
  useEffect(() => {
    if (printed > lines) return;
    const timer = setTimeout(() => setPrinted((n) => n + 1), intervalMs);
    return () => clearTimeout(timer);
  }, [printed, lines, intervalMs]);
  const props =
    printed > lines
      ? call(tickCode, { result: completed({ stdout: ticksUpTo(lines), wallTimeMs: lines * intervalMs }) })
      : runningWith(ticksUpTo(printed));
  return <ExecuteCodeCard {...props} />;
}

/** The app's file route, here: the figure from the stories' assets, the CSV as a data URL. */
export const storyFileUrl = (file: { kind: string; ref: { fileId: string } }) =>
  file.kind === "image" ? squaresPng : `data:text/csv,${encodeURIComponent("1,1\n2,4\n3,9\n")}`;

export const longFailingProgram = [
  "# Grades of the class, one line per student",
  ...Array.from(
    { length: 26 },
    (_, i) => `grade_${i} = ${i % 5} + 1  # a comment long enough to run past a phone's width`,
  ),
  "print(sum(grades) / len(grades))",
].join("\n");

export const longOutputArgs = call("for i in range(200):\n    print(f'line {i + 1}: ' + 'x' * (i % 40))", {
  result: completed({ stdout: longOutput(200) }),
});

/** WCAG contrast between two computed colours. */
export function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const canvas = document.createElement("canvas").getContext("2d")!;
    canvas.fillStyle = color;
    canvas.fillRect(0, 0, 1, 1);
    const [r, g, bl] = [...canvas.getImageData(0, 0, 1, 1).data].map((v) => {
      const c = v / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (l1! + 0.05) / (l2! + 0.05);
}

export const ansiPalette = `${[
  "30",
  "31",
  "32",
  "33",
  "34",
  "35",
  "36",
  "37",
  "90",
  "91",
  "92",
  "93",
  "94",
  "95",
  "96",
  "97",
]
  .map((code) => `\x1b[${code}mcolour ${code}\x1b[0m`)
  .join("\n")}\n`;

export function ansiReadable(): NonNullable<CardStory["play"]> {
  return async ({ canvasElement }) => {
    const root = card(canvasElement);
    const stdout = slot(root, "stdout")!;
    await waitFor(() => expect(stdout.querySelectorAll(".ecu-ansi-fg")).toHaveLength(16));
    const background = getComputedStyle(stdout).backgroundColor;
    for (const span of stdout.querySelectorAll<HTMLElement>(".ecu-ansi-fg")) {
      await expect({
        text: span.textContent,
        ratio: contrast(getComputedStyle(span).color, background) >= 4.5,
      }).toEqual({
        text: span.textContent,
        ratio: true,
      });
    }
  };
}

export function PhaseGallery({ width }: { width?: number }) {
  return (
    <div style={{ display: "grid", gap: 12, width, maxWidth: "100%" }}>
      {EXECUTE_CODE_PHASES.map((phase) => (
        <ExecuteCodeCard key={phase} {...galleryStates[phase]} />
      ))}
    </div>
  );
}

const SCHEMES = { light: "#ffffff", dark: "#010409" } as const;

/**
 * An area's states one under another, each under its story's name and shown
 * in light and in dark side by side: the page a designer compares them on.
 */
export function AreaGallery({
  states,
  checked = "light",
}: {
  states: Record<string, ExecuteCodeCardProps | undefined>;
  /** The copy assistive tech (and the story's axe check) reads; the other is for the eye alone. */
  checked?: keyof typeof SCHEMES;
}) {
  return (
    // Columns that may shrink below a card's widest line: on a narrow page each card scrolls its own code.
    <div style={{ display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: 20 }}>
      {Object.entries(states).map(([name, args]) => (
        <section
          key={name}
          aria-label={name}
          data-gallery-item={name}
          style={{ display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: 6 }}
        >
          <h3 style={{ margin: 0, font: "600 14px system-ui, sans-serif", color: "light-dark(#1f2328, #e6edf3)" }}>
            {name}
          </h3>
          <div
            style={{ display: "grid", gridTemplateColumns: "repeat(auto-fit, minmax(min(340px, 100%), 1fr))", gap: 12 }}
          >
            {(Object.keys(SCHEMES) as (keyof typeof SCHEMES)[]).map((scheme) => (
              <figure
                key={scheme}
                data-gallery-scheme={scheme}
                // One copy of each region and control for assistive tech: landmarks stay unique.
                inert={scheme !== checked}
                style={{ margin: 0, padding: 10, borderRadius: 8, background: SCHEMES[scheme], colorScheme: scheme }}
              >
                <figcaption
                  style={{ font: "12px system-ui, sans-serif", marginBottom: 6, color: "light-dark(#59636e, #9198a1)" }}
                >
                  {scheme === "light" ? "Light" : "Dark"}
                </figcaption>
                <ExecuteCodeCard fileUrl={storyFileUrl} {...args} theme={scheme} />
              </figure>
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}

/** An area's gallery story: its states side by side, and a play that finds each as a card of its own, in order. */
export const areaGalleryStory = (
  states: Record<string, ExecuteCodeCardProps | undefined>,
  checked: "light" | "dark" = "light",
): CardStory => ({
  render: () => <AreaGallery states={states} checked={checked} />,
  // The whole width of the canvas: light and dark side by side.
  parameters: { wide: true },
  play: async ({ canvasElement }) => {
    const items = [...canvasElement.querySelectorAll<HTMLElement>("[data-gallery-item]")];
    await expect(items.map((item) => item.dataset.galleryItem)).toEqual(Object.keys(states));
    for (const item of items) {
      const [light, dark] = [...item.querySelectorAll<HTMLElement>("[data-gallery-scheme]")].map(
        (scheme) => scheme.querySelector<HTMLElement>(EXECUTE_CODE_CARD)!,
      );
      // The same state in both schemes, each drawn in its own.
      await expect(light!.getAttribute("data-phase")).toBe(dark!.getAttribute("data-phase"));
      await expect(getComputedStyle(light!).backgroundColor).not.toBe(getComputedStyle(dark!).backgroundColor);
    }
  },
});

export const everyPhaseShows: NonNullable<CardStory["play"]> = async ({ canvasElement }) => {
  const cards = [...canvasElement.querySelectorAll(EXECUTE_CODE_CARD)];
  await expect(cards.map((element) => element.getAttribute("data-phase"))).toEqual([...EXECUTE_CODE_PHASES]);
  // Cards with different outcomes look different at a glance: their bar's tone differs.
  const tone = (phase: ExecuteCodePhase) =>
    getComputedStyle(cards[EXECUTE_CODE_PHASES.indexOf(phase)]!, "::before").backgroundColor;
  await expect(tone("failed")).not.toBe("rgba(0, 0, 0, 0)");
  await expect(tone("succeeded")).not.toBe(tone("failed"));
  await expect(tone("failed")).not.toBe(tone("running"));
};

/** shadcn/ui's "violet" theme, as a shadcn app's globals.css defines it. */
export const shadcnViolet = {
  "--radius": "1rem",
  "--card": "oklch(0.985 0.01 300)",
  "--card-foreground": "oklch(0.2 0.03 290)",
  "--muted": "oklch(0.95 0.02 300)",
  "--muted-foreground": "oklch(0.45 0.05 290)",
  "--border": "oklch(0.88 0.04 300)",
  "--ring": "oklch(0.6 0.2 293)",
  "--destructive": "oklch(0.58 0.22 27)",
  "--primary": "oklch(0.54 0.25 293)",
  "--primary-foreground": "oklch(0.97 0.01 300)",
  "--font-sans": "Georgia, serif",
} as CSSProperties;
