import type { Tokenizer } from "./types";

let loaded: Tokenizer | null = null;
let loading: Promise<Tokenizer> | null = null;

/** The tokenizer if it has already loaded, so a later card can highlight in its first render. */
export function loadedTokenizer(): Tokenizer | null {
  return loaded;
}

/** Loads the highlighter chunk once; later calls share the same promise. */
export function loadTokenizer(): Promise<Tokenizer> {
  loading ??= import("./python-tokenizer")
    .then((module) => module.createPythonTokenizer())
    .then((tokenizer) => (loaded = tokenizer))
    .catch((error: unknown) => {
      loading = null;
      throw error;
    });
  return loading;
}

/** Starts loading the highlighter chunk; a failure is left to whoever awaits `loadTokenizer`. */
export function preloadTokenizer(): void {
  loadTokenizer().catch(() => undefined);
}
