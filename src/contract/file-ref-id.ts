/**
 * Whether an id can be one segment of a file's address: `..` (or `.`, or
 * nothing) would take a link, and the card's own fetch of a table, out of
 * the app's file route.
 */
export const isFileRefId = (id: unknown): id is string =>
  typeof id === "string" && id !== "" && id !== "." && id !== "..";
