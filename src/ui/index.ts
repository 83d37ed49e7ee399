export { ExecuteCodeCard, type ExecuteCodeCardProps } from "./execute-code-card";
export { ExecuteCode, type RootProps as ExecuteCodeRootProps, type ApprovalProps as ExecuteCodeApprovalProps } from "./execute-code";
export { CodeBlock, type CodeBlockProps } from "./code-block";
export { OutputPane, type OutputPaneProps } from "./output-pane";
export { AnsiText, stripAnsi } from "./ansi";
export { englishLabels, resolveLabels, type ExecuteCodeLabels } from "./labels";
export { PHASE_LOOK } from "./phase-look";
export { cn } from "./cn";
