"use client";

import {
  makeAssistantToolUI,
  type AssistantToolUI,
  type ToolCallMessagePartProps,
} from "@assistant-ui/react";
import type { ExecuteCodeInput } from "../contract/index.js";
import { ExecuteCodeCard } from "../ui/execute-code-card.js";
import type { ExecuteCodeLabels } from "../ui/labels.js";

export interface ExecuteCodeToolUIOptions {
  /** Name of the tool to render; `execute_code` unless the host had to rename it. */
  toolName?: string;
  labels?: Partial<ExecuteCodeLabels>;
  theme?: "light" | "dark";
  className?: string;
  /** `"client"` when the browser runs the code and adds the result; default `"server"`. */
  execution?: "server" | "client";
}

type Props = ToolCallMessagePartProps<Partial<ExecuteCodeInput>, unknown>;

/** The tool-call renderer itself, for hosts that register renderers through toolkits or `MessagePrimitive.Parts`. */
export function makeExecuteCodeRenderer({
  labels,
  theme,
  className,
  execution,
}: Omit<ExecuteCodeToolUIOptions, "toolName"> = {}) {
  function ExecuteCodeToolRender(props: Props) {
    const { approval, respondToApproval } = props;
    const waiting = approval !== undefined && approval.approved === undefined && !approval.resolution;
    return (
      <ExecuteCodeCard
        status={props.status}
        args={props.args}
        argsText={props.argsText}
        result={props.result}
        isError={props.isError}
        approval={approval}
        execution={execution}
        labels={labels}
        theme={theme}
        className={className}
        onApprove={waiting ? () => respondToApproval({ approved: true }) : undefined}
        onDeny={waiting ? (reason) => respondToApproval({ approved: false, ...(reason ? { reason } : {}) }) : undefined}
      />
    );
  }
  return ExecuteCodeToolRender;
}

/**
 * An assistant-ui tool UI for a code-execution tool. Mount the returned
 * component once anywhere under `AssistantRuntimeProvider`.
 */
export function makeExecuteCodeToolUI(options: ExecuteCodeToolUIOptions = {}): AssistantToolUI {
  const { toolName = "execute_code", ...rest } = options;
  return makeAssistantToolUI<Partial<ExecuteCodeInput>, unknown>({
    toolName,
    render: makeExecuteCodeRenderer(rest),
  });
}

/** The `execute_code` tool UI with English labels. */
export const ExecuteCodeToolUI = makeExecuteCodeToolUI();
