// Escape sequences anser leaves behind (cursor moves, OSC titles) and other
// control bytes: never shown raw. None reaches past its line: an escape that
// is not complete there loses its ESC (and the byte after it), not the text.
export const LEFTOVER_CONTROLS =
  /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b\n]*(?:\x07|\x1b\\)|[@-Z\\-_])?|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;
