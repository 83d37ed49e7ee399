import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ExecuteCodeCard } from "../src";
import { call, completed, squaresCsv, squaresFigure } from "../stories/fixtures";

// The lazy chunks of the figure dialog and the table preview cannot load, as when the network drops.
vi.mock("../src/ui/figure-dialog", () => {
  throw new Error("Failed to fetch dynamically imported module");
});
vi.mock("../src/ui/table-preview", () => {
  throw new Error("Failed to fetch dynamically imported module");
});

describe("a card whose figure dialog and table preview cannot load", () => {
  it("still shows its output, figure and downloads, and a click on the figure breaks nothing", async () => {
    const user = userEvent.setup();
    render(
      <ExecuteCodeCard
        {...call("x", { result: completed({ stdout: "done\n", files: [squaresFigure, squaresCsv] }) })}
      />,
    );
    // The figure's own code loads; the dialog's and the table's imports fail, and the card must survive them.
    await user.click(await screen.findByRole("button", { name: /Enlarge the figure/ }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(screen.getByText("done")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: /Download squares\.csv/ })).toBeInTheDocument();
    expect(screen.getByRole("img", { name: /Squares/ })).toBeInTheDocument();
  });
});
