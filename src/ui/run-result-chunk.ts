// The chunk run-result-parts.ts loads.
export { OutputPane } from "./output-pane.js";
export { linesInLibraryFolds, StderrText } from "./stderr-text.js";
export { FileList } from "./run-file-list.js";
export { FailureNote } from "./failure-note.js";
export { markFailure } from "./mark-failure.js";
