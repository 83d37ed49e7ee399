import { clsx, type ClassValue } from "clsx";

/** Joins class names. The card styles itself with its own classes, so no Tailwind class merging is needed. */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
