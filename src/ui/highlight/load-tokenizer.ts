import { lazyResource } from "../lazy-resource.js";

/** The highlighter chunk: shiki, the Python grammar and the themes. */
export const tokenizerResource = lazyResource(() =>
  import("./python-tokenizer.js").then((module) => module.createPythonTokenizer()),
);
