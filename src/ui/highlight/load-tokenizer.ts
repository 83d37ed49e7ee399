import { lazyResource } from "../lazy-resource";

/** The highlighter chunk: shiki, the Python grammar and the themes. */
export const tokenizerResource = lazyResource(() =>
  import("./python-tokenizer").then((module) => module.createPythonTokenizer()),
);
