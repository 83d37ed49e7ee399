import { useEffect, useState } from "react";

/** A module-sized resource loaded once per page, on first need, in its own chunk. */
export interface LazyResource<T> {
  /** The value if it has loaded, so a later card can use it in its first render. */
  current(): T | null;
  /** Loads once; later calls share the same promise. A failed load is tried again next time. */
  load(): Promise<T>;
  /** Starts loading; a failure is left to whoever awaits `load`. */
  preload(): void;
}

export function lazyResource<T>(loader: () => Promise<T>): LazyResource<T> {
  let loaded: T | null = null;
  let loading: Promise<T> | null = null;
  const load = () =>
    (loading ??= loader()
      .then((value) => (loaded = value))
      .catch((error: unknown) => {
        loading = null;
        throw error;
      }));
  return {
    current: () => loaded,
    load,
    preload: () => void load().catch(() => undefined),
  };
}

/**
 * The resource once it has loaded, null until then (and for good if it
 * cannot load). With `wanted` it starts loading once the first render has
 * committed: never during a render, so a server render stays plain and
 * deterministic.
 */
export function useLazyResource<T>(resource: LazyResource<T>, wanted = true): T | null {
  const [value, setValue] = useState<T | null>(resource.current);
  useEffect(() => {
    if (value || !wanted) return;
    let live = true;
    resource.load().then(
      (loaded) => live && setValue(() => loaded),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [value, wanted, resource]);
  return value ?? resource.current();
}
