"use client";

import { Retry, Stop, Trigger } from "./execute-code-actions.js";
import { Approval, Content, Explanation, Message, Output, Source } from "./execute-code-body.js";
import { ErrorSummary, Exit, Header, Status, Timing, Title } from "./execute-code-header.js";
import { Root } from "./execute-code-root.js";
import { Files } from "./run-files.js";

export type { RetryProps, StopProps } from "./execute-code-actions.js";
export type { ApprovalProps, OutputProps, SourceProps } from "./execute-code-body.js";
export type { RootProps } from "./execute-code-root.js";

/**
 * Compound parts of the card, for hosts that want their own layout:
 * `<ExecuteCode.Root {...toolCallProps}><ExecuteCode.Header>…</ExecuteCode.Header><ExecuteCode.Content>…</ExecuteCode.Content></ExecuteCode.Root>`.
 */
export const ExecuteCode = {
  Root,
  Header,
  Title,
  Status,
  Exit,
  Timing,
  Stop,
  Retry,
  Trigger,
  Error: ErrorSummary,
  Content,
  Explanation,
  Source,
  Message,
  Approval,
  Output,
  Files,
};
