import { lazyResource } from "./lazy-resource.js";

/**
 * What a card adds once its program has printed: the window over long
 * output, the notes on what was cut or overwritten, traceback frames
 * linked to the code, and why a run failed. In a chunk of its own, which the first card starts
 * loading as it mounts; until it is there, a stream shows in a plain pane.
 */
export const runResultParts = lazyResource(() => import("./run-result-chunk.js"));
