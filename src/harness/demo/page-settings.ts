// The page's own settings that follow the device: its size (phone or not)
// and its colour scheme.
import { useEffect, useState, useSyncExternalStore } from "react";

// The student's pick of colour scheme; none: the system's. (The old key held "light" for everyone.)
const SCHEME_KEY = "demo-color-scheme";
localStorage.removeItem("demo-theme");
const PHONE = window.matchMedia("(max-width: 640px)");

/** Whether the page is phone-sized now; follows rotations and resizes. */
export function usePhone(): boolean {
  return useSyncExternalStore(
    (changed) => {
      PHONE.addEventListener("change", changed);
      return () => PHONE.removeEventListener("change", changed);
    },
    () => PHONE.matches,
  );
}

export type Scheme = "system" | "light" | "dark";

/**
 * The page's colour scheme: the system's (`prefers-color-scheme`, in the
 * page's CSS and the card's) until the student picks one, which stays. A
 * pick sets `data-theme` on the page, which the card follows too.
 */
export function useScheme(): [Scheme, (scheme: Scheme) => void] {
  const [scheme, setScheme] = useState<Scheme>(() => {
    const saved = localStorage.getItem(SCHEME_KEY);
    return saved === "light" || saved === "dark" ? saved : "system";
  });
  useEffect(() => {
    if (scheme === "system") {
      delete document.documentElement.dataset.theme;
      localStorage.removeItem(SCHEME_KEY);
    } else {
      document.documentElement.dataset.theme = scheme;
      localStorage.setItem(SCHEME_KEY, scheme);
    }
  }, [scheme]);
  return [scheme, setScheme];
}
