import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ExecuteCodeCard } from "../src";
import { call } from "../stories/fixtures";

// The lazy chunk of the deny-reason field cannot load, as when the network drops.
vi.mock("../src/ui/approval-reason", () => {
  throw new Error("Failed to fetch dynamically imported module");
});

describe("the approval prompt when its reason field cannot load", () => {
  it("still asks, and Deny still answers, without the reason field", async () => {
    const user = userEvent.setup();
    const onDeny = vi.fn();
    render(
      <ExecuteCodeCard
        {...call("print(1)", { approval: { id: "a" }, status: { type: "requires-action", reason: "interrupt" } })}
        onApprove={vi.fn()}
        onDeny={onDeny}
      />,
    );
    // Give the failed import time to settle: the prompt must survive it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await waitFor(() => expect(screen.getByRole("button", { name: "Deny" })).toBeEnabled());
    expect(screen.queryByRole("button", { name: "Add a reason" })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Deny" }));
    expect(onDeny).toHaveBeenCalledExactlyOnceWith(undefined);
  });
});
