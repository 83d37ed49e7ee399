// The DOM contract is closed: the names in view/slots.ts are the ones
// docs/card.md documents, and every data-slot the card renders is one of
// them (or one of the card's internal ones).
import { readFileSync } from "node:fs";
import path from "node:path";
import { render } from "@testing-library/react";
import { beforeAll, describe, expect, it } from "vitest";
import { EXECUTE_CODE_PHASES, ExecuteCodeCard, type ExecuteCodeCardProps } from "../src";
import { runResultParts } from "../src/ui/run-result-parts";
import {
  EXECUTE_CODE_ROOT_SLOT,
  EXECUTE_CODE_SLOTS,
  type ExecuteCodeSlot,
  INTERNAL_SLOTS,
  slotName,
} from "../src/view/slots";
import { failures } from "../stories/failure-fixtures";
import { call, completed, galleryStates, longOutput, plotCode, squaresCsv, squaresFigure } from "../stories/fixtures";

const cardDoc = readFileSync(path.join(process.cwd(), "docs/card.md"), "utf8");
const contract = cardDoc.split("## DOM contract for end-to-end tests")[1]!.split(/\n## /)[0]!;

/** Cards beyond the phase gallery, for the parts only some runs have. */
const extraStates: ExecuteCodeCardProps[] = [
  call(plotCode, {
    result: completed({
      stdout: longOutput(400),
      files: [squaresFigure, squaresCsv],
      filesUsed: ["scores.csv"],
      filesGone: ["old.csv"],
      continued: true,
      truncated: { stdout: 1200, stderr: 0 },
    }),
  }),
  call("print(1)", { result: completed({ stdout: "1\n", restarted: true }) }),
  { ...call(plotCode, { status: { type: "running" } }), onStop: () => undefined },
  { ...galleryStates.busy, onRetry: () => undefined },
  call("x = 1", { result: completed({}) }),
  call("print(1)", {
    result: completed({ stdout: "start\nend\n", truncated: { stdout: 500, stderr: 0, at: { stdout: 6 } } }),
  }),
  call("print(s)", { result: completed({ stdout: "abc\rHIDDEN xyz\n" }) }),
  call(failures.library.code, {
    result: completed({ stderr: failures.library.stderr, exitCode: 1, failure: failures.library.failure }),
  }),
];

function renderedSlots(): Set<string> {
  const seen = new Set<string>();
  for (const props of [...EXECUTE_CODE_PHASES.map((phase) => galleryStates[phase]), ...extraStates]) {
    const { container, unmount } = render(<ExecuteCodeCard {...props} />);
    for (const element of container.querySelectorAll("[data-slot]")) seen.add(element.getAttribute("data-slot")!);
    unmount();
  }
  return seen;
}

describe("the card's slot names", () => {
  // As a page shows the cards once the output's own code (notes on cut and overwritten text) has loaded.
  beforeAll(async () => {
    await runResultParts.load();
  });

  it("are the names docs/card.md's DOM contract documents, no more and no fewer", () => {
    const documented = new Set([...contract.matchAll(/data-slot="execute-code-([a-z-]+)"/g)].map((match) => match[1]));
    expect([...documented].sort()).toEqual([...EXECUTE_CODE_SLOTS].sort());
    expect(contract).toContain(`[data-slot="${EXECUTE_CODE_ROOT_SLOT}"]`);
    expect(EXECUTE_CODE_SLOTS.filter((name) => (INTERNAL_SLOTS as readonly string[]).includes(name))).toEqual([]);
  });

  it("cover every data-slot the gallery's cards render, and the gallery renders most of the contract", () => {
    const known = new Set<string>([
      EXECUTE_CODE_ROOT_SLOT,
      ...[...EXECUTE_CODE_SLOTS, ...INTERNAL_SLOTS].map(slotName),
    ]);
    const rendered = renderedSlots();
    expect([...rendered].filter((name) => !known.has(name))).toEqual([]);
    // Parts that need a step the gallery does not take: an open dialog, a refused answer, a composer, a load.
    const needAStep = new Set<ExecuteCodeSlot>([
      "table-preview",
      "figure-dialog",
      "figure-download",
      "approval-error",
      "attachment",
      "attachment-error",
      "file-unavailable",
      // An unreadable result's view loads when one shows.
      "raw",
    ]);
    const unrendered = EXECUTE_CODE_SLOTS.filter((name) => !rendered.has(slotName(name)) && !needAStep.has(name));
    expect(unrendered).toEqual([]);
    // The list of parts that need a step stays true: none of them shows without it.
    expect([...needAStep].filter((name) => rendered.has(slotName(name)))).toEqual([]);
  });
});
