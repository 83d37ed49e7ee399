export { ExecuteCodeCard, type ExecuteCodeCardProps } from "./execute-code-card.js";
export { ExecuteCode, type RootProps as ExecuteCodeRootProps, type ApprovalProps as ExecuteCodeApprovalProps } from "./execute-code.js";
export { CodeBlock, type CodeBlockProps } from "./code-block.js";
export { OutputPane, type OutputPaneProps } from "./output-pane.js";
export { AnsiText, stripAnsi } from "./ansi.js";
export { englishLabels, resolveLabels, type ExecuteCodeLabels } from "./labels.js";
export { PHASE_LOOK } from "./phase-look.js";
export { cn } from "./cn.js";
