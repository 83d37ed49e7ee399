import { lazyResource } from "./lazy-resource.js";

/** anser, the ANSI parser, and the spans made of what it reads, in their own chunk: most output has no escape codes. */
export const ansiParser = lazyResource(() => import("./ansi-spans.js"));
