/**
 * A file name in the model's text: as it is, or quoted with its control
 * characters escaped when it has any (or a quote), so that a name a
 * program made cannot start a line of its own there or pass for other facts.
 */
export const nameInWords = (name: string): string =>
  /[\p{Cc}\p{Zl}\p{Zp}"[\]]/u.test(name) ? JSON.stringify(name) : name;
