import { useEffect, useSyncExternalStore } from "react";

/** A module-sized resource loaded once per page, on first need, in its own chunk. */
export interface LazyResource<T> {
  /** The value if it has loaded, so a later card can use it in its first render. */
  current(): T | null;
  /** Loads once; later calls share the same promise. A failed load is tried again next time. */
  load(): Promise<T>;
  /** Starts loading; a failure is left to whoever awaits `load`. */
  preload(): void;
  /** Calls `listener` once the resource has loaded; returns how to stop. */
  subscribe(listener: () => void): () => void;
}

export function lazyResource<T>(loader: () => Promise<T>): LazyResource<T> {
  let loaded: T | null = null;
  let loading: Promise<T> | null = null;
  const listeners = new Set<() => void>();
  const load = () =>
    (loading ??= loader().then(
      (value) => {
        loaded = value;
        for (const listener of listeners) listener();
        return value;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));
  return {
    current: () => loaded,
    load,
    preload: () => void load().catch(() => undefined),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** (perf) How long a speculative load waits for an idle moment at most. */
const IDLE_TIMEOUT_MS = 2000;

/**
 * Runs `task` once the page is idle (or after IDLE_TIMEOUT_MS), not in the
 * task that mounted a card: what a card may need later loads without
 * lengthening its first frame. Returns how to cancel, for an effect's cleanup.
 */
export function whenIdle(task: () => void): () => void {
  if (typeof requestIdleCallback === "function") {
    const handle = requestIdleCallback(task, { timeout: IDLE_TIMEOUT_MS });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(task, 0);
  return () => clearTimeout(handle);
}

// A server render, and the hydration of what it sent, never have the resource: both render the same.
const notOnServer = () => null;

/**
 * The resource once it has loaded, null until then (and for good if it
 * cannot load). With `wanted` it starts loading once the render has
 * committed: never during a render, so a server render stays plain and
 * deterministic.
 */
export function useLazyResource<T>(resource: LazyResource<T>, wanted = true): T | null {
  const value = useSyncExternalStore(resource.subscribe, resource.current, notOnServer);
  useEffect(() => {
    if (wanted && !value) resource.preload();
  }, [value, wanted, resource]);
  return value;
}
