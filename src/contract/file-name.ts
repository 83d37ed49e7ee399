/** A name a file may have in a run's working directory: one segment, at most this many UTF-8 bytes. */
const MAX_NAME_BYTES = 120;

// Control and format characters (bidi overrides, zero-width) and what some systems cannot hold in a name.
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}<>:"|?*\\/]/gu;

const utf8Length = (text: string) => new TextEncoder().encode(text).length;

/** The longest start of `text` of at most `budget` UTF-8 bytes, whole characters only, in one pass. */
function utf8Prefix(text: string, budget: number): string {
  let used = 0;
  let end = 0;
  for (const char of text) {
    const point = char.codePointAt(0)!;
    const size = point < 0x80 ? 1 : point < 0x800 ? 2 : point < 0x10000 ? 3 : 4;
    if (used + size > budget) break;
    used += size;
    end += char.length;
  }
  return text.slice(0, end);
}

/**
 * The name a student's file is stored under in the sandbox: the last path
 * segment of what they gave, with control, bidi and path characters made
 * `_`, never `.` or `..`, never hidden, at most 120 bytes (the extension
 * kept). The card shows the name as given; a program opens this one.
 */
export function safeFileName(given: string): string {
  const last = given.split(/[/\\]/).filter(Boolean).at(-1) ?? "";
  // No leading dot: never `.`, `..` or a hidden file.
  // Each step is linear in the name's length, however long a name a request carries.
  let name =
    last
      .normalize("NFC")
      .replace(UNSAFE, "_")
      .replace(/^[\s.]+/, "")
      .trimEnd() || "file";
  if (utf8Length(name) > MAX_NAME_BYTES) {
    const dot = name.lastIndexOf(".");
    const extension = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : "";
    name =
      utf8Prefix(name.slice(0, name.length - extension.length), MAX_NAME_BYTES - utf8Length(extension)) + extension;
  }
  return name;
}

/**
 * `scores.csv`, then `scores (2).csv`, …: a name not in `taken`. With
 * `tried` (for a `taken` that only grows), a name asked again goes on from
 * the number it got last: thousands of names alike cost thousands of
 * checks, not millions.
 */
export function uniqueFileName(name: string, taken: ReadonlySet<string>, tried?: Map<string, number>): string {
  if (!taken.has(name)) return name;
  const dot = name.lastIndexOf(".");
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
  for (let n = tried?.get(name) ?? 2; ; n++) {
    const candidate = `${stem} (${n})${extension}`;
    if (!taken.has(candidate)) {
      tried?.set(name, n + 1);
      return candidate;
    }
  }
}

/** The kinds of file a student may give a run, by extension, with the media type each is stored as. */
export const STUDENT_FILE_TYPES: Readonly<Record<string, string>> = {
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  json: "application/json",
  txt: "text/plain",
  py: "text/x-python",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
};

/** The media type a student's file is taken as, from its name; null for a kind the sandbox does not take. */
export function studentFileType(name: string): string | null {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? (STUDENT_FILE_TYPES[name.slice(dot + 1).toLowerCase()] ?? null) : null;
}

/** The extensions a student may give: `.csv`, `.tsv`, … (join with "," for an `accept` attribute). */
export const STUDENT_FILE_EXTENSIONS = Object.keys(STUDENT_FILE_TYPES).map((extension) => `.${extension}`);
