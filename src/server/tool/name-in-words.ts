/**
 * A file name in the model's text: as it is when it is only letters,
 * digits and `_ . - /`, else quoted (JSON, its control characters escaped),
 * so that a name a program made cannot start a line of its own there or
 * read as more facts ("data.csv (text/csv, 2 KB); - figure …").
 */
export const nameInWords = (name: string): string => (/^[\p{L}\p{N}_./-]+$/u.test(name) ? name : JSON.stringify(name));
