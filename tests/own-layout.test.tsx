// The README's "Your own layout": the compound parts, as examples/own-layout.tsx puts them together.
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { SandboxCard } from "../examples/own-layout";
import { call, completed } from "../stories/fixtures";

const numbers = (count: number) => Array.from({ length: count }, (_, i) => i + 1);
// A program and an output long enough to fold: 20 lines of code, 30 of output.
const code = numbers(20)
  .map((n) => `print(${n})`)
  .join("\n");
const stdout = numbers(30)
  .map((n) => `${n}\n`)
  .join("");

describe("a card of your own layout (examples/own-layout.tsx)", () => {
  it("shows a finished call folded to its header, and the program and output once unfolded", async () => {
    const user = userEvent.setup();
    render(<SandboxCard {...call(code, { result: completed({ stdout }) })} approve={vi.fn()} deny={vi.fn()} />);
    expect(screen.getByText("Sandbox")).toBeVisible();
    expect(screen.getByRole("status")).toHaveTextContent(/^Finished\s*exit 0$/);
    expect(screen.queryByRole("group", { name: "Output" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Run" })).toBeNull();

    await user.click(screen.getByRole("button", { name: "Show the program and its output" }));
    const output = screen.getByRole("group", { name: "Output" });
    expect(output).toHaveTextContent("29 30");
    // The output starts open (stdoutProps), the program folded until asked (showCode).
    expect(within(output).getByRole("button", { name: "Show less" })).toBeVisible();
    const program = screen.getByRole("group", { name: "Code" });
    await user.click(within(program).getByRole("button", { name: "Show 4 more lines" }));
    expect(within(program).getByRole("button", { name: "Show less" })).toBeVisible();

    await user.click(screen.getByRole("button", { name: "Hide the program and its output" }));
    expect(screen.queryByRole("group", { name: "Output" })).toBeNull();
    expect(screen.queryByRole("group", { name: "Code" })).toBeNull();
  });

  const request = call("print(6 * 7)", {
    status: { type: "requires-action", reason: "interrupt" },
    approval: { id: "a" },
  });

  it("asks with Run and Deny while folded; Run calls approve", async () => {
    const approve = vi.fn();
    const deny = vi.fn();
    render(<SandboxCard {...request} approve={approve} deny={deny} />);
    expect(screen.getByRole("status")).toHaveTextContent("Waiting for approval");
    await userEvent.setup().click(screen.getByRole("button", { name: "Run" }));
    expect(approve).toHaveBeenCalledTimes(1);
    expect(deny).not.toHaveBeenCalled();
  });

  it("Deny calls deny", async () => {
    const approve = vi.fn();
    const deny = vi.fn();
    render(<SandboxCard {...request} approve={approve} deny={deny} />);
    await userEvent.setup().click(screen.getByRole("button", { name: "Deny" }));
    expect(deny).toHaveBeenCalledTimes(1);
    expect(approve).not.toHaveBeenCalled();
  });
});
