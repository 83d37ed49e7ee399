import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createRef } from "react";
import { describe, expect, it } from "vitest";
import { ExecuteCode } from "../src";
import { call, completed } from "../stories/fixtures";

// A host's own layout can hold on to the card's parts: each takes a ref (React 19 passes it as a prop).
describe("the card's parts take refs", () => {
  it("hands the host the elements of the root, a header part, a button and the content", () => {
    const root = createRef<HTMLDivElement>();
    const title = createRef<HTMLSpanElement>();
    const trigger = createRef<HTMLButtonElement>();
    const content = createRef<HTMLDivElement>();
    render(
      <ExecuteCode.Root ref={root} {...call("print(1)", { result: completed({ stdout: "1\n" }) })}>
        <ExecuteCode.Header>
          <ExecuteCode.Title ref={title} />
          <ExecuteCode.Trigger ref={trigger} />
        </ExecuteCode.Header>
        <ExecuteCode.Content ref={content}>
          <ExecuteCode.Output />
        </ExecuteCode.Content>
      </ExecuteCode.Root>,
    );
    expect(root.current?.dataset.slot).toBe("execute-code");
    expect(title.current?.dataset.slot).toBe("execute-code-title");
    expect(trigger.current?.dataset.slot).toBe("execute-code-trigger");
    expect(content.current?.dataset.slot).toBe("execute-code-content");
  });

  it("keeps the root's own use of its element: after Run, the card takes the focus the button had", async () => {
    const root = createRef<HTMLDivElement>();
    render(
      <ExecuteCode.Root
        ref={root}
        {...call("print(1)", { status: { type: "requires-action", reason: "interrupt" }, approval: { id: "a" } })}
      >
        <ExecuteCode.Approval onApprove={() => undefined} onDeny={() => undefined} />
      </ExecuteCode.Root>,
    );
    await userEvent.click(screen.getByRole("button", { name: "Run" }));
    expect(document.activeElement).toBe(root.current);
  });
});
