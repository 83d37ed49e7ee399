import { lazyResource } from "./lazy-resource.js";

/** anser, the ANSI parser, in its own chunk: most output has no escape codes. */
export const ansiParser = lazyResource(() => import("anser").then((module) => module.default));
