import * as v from "valibot";

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const lineNumber = v.pipe(v.number(), v.integer(), v.minValue(1));
/** Text from a sandbox, at most this many UTF-16 units (twice what the kit's Python writes, in characters). */
const text = (max: number) => v.pipe(v.string(), v.maxLength(max));

/** A name's value at the failing line, as the sandbox's Python wrote it (never by the program's own `__repr__`). */
export const failureValueSchema = v.object({
  name: text(120),
  /** As Python would write it, cut short (`[1, 2, 3, …]`, `'abc'`, `<Point object>`). */
  value: text(240),
  /** Its type's name (`list`, `ndarray[float64]`, `Point`). */
  type: text(120),
  /** Its length where the value may not show it all (items, characters). */
  length: v.optional(count),
  /** An array's or a table's shape. */
  shape: v.optional(v.pipe(v.array(count), v.maxLength(8))),
});

/** One frame of the traceback: the program's own (`own`), or a library's (`module`: its top-level package). */
export const failureFrameSchema = v.object({
  file: text(480),
  line: count,
  function: text(160),
  own: v.boolean(),
  module: v.optional(text(120)),
});

/**
 * Facts for saying an error in plain words: `kind` says which, and what the
 * other fields hold for it. A kind the card does not know is left unsaid.
 *
 * - `name` (NameError): `name`, and `suggestion` where a name close to it exists
 * - `unbound` (UnboundLocalError): `name`
 * - `zero-division`: `text`, the divisor as the program writes it
 * - `index` (IndexError): `name` the sequence and `text` the index as written; `count` its length and `index`
 *   the index's value where known
 * - `key` (KeyError): `text` the key; `name` the mapping as written, `count` and `names` (some of) its keys
 * - `operand-types` (TypeError): `text` the operator, `names` the two operands' types
 * - `attribute` (AttributeError): `name` the attribute, `text` the type, `suggestion`
 * - `number-text` (ValueError of int() or float()): `name` the function, `text` the text it could not read
 * - `file-not-found`: `name` the file, `names` (some of) the files there are, `count` how many
 * - `module-not-found`: `name` the module, `names` the well-known packages that are installed
 * - `recursion` (RecursionError): `name` the function, `count` how deep it went
 * - the sandbox's limits: `no-internet`, `no-input` (`input()` has no one to type), `memory`, `sandbox-full`
 *   (stopped to make room for others, its owner having used the sandbox far more of late)
 */
export const failureExplanationSchema = v.object({
  kind: text(80),
  name: v.optional(text(240)),
  text: v.optional(text(240)),
  suggestion: v.optional(text(160)),
  count: v.optional(count),
  index: v.optional(v.pipe(v.number(), v.integer())),
  names: v.optional(v.pipe(v.array(text(120)), v.maxLength(16))),
});

/**
 * Why a run failed, as its sandbox saw it at the exception: the deepest frame
 * of the program's own code (`function`, the span Python's carets point at,
 * its values), every frame with whose it is, and the facts for saying the
 * error in plain words. Columns count characters (code points) from 0;
 * `endColumn` is past the last one marked.
 */
export const failureSchema = v.object({
  /** The exception's class name (`ZeroDivisionError`). */
  type: text(200),
  /** Its message, as the traceback's last line says it. */
  message: text(800),
  function: v.optional(text(160)),
  line: v.optional(lineNumber),
  endLine: v.optional(lineNumber),
  column: v.optional(count),
  endColumn: v.optional(count),
  values: v.optional(v.pipe(v.array(failureValueSchema), v.maxLength(12))),
  frames: v.optional(v.pipe(v.array(failureFrameSchema), v.maxLength(50))),
  explanation: v.optional(failureExplanationSchema),
});

export type ExecuteCodeFailure = v.InferOutput<typeof failureSchema>;
export type ExecuteCodeFailureValue = v.InferOutput<typeof failureValueSchema>;
export type ExecuteCodeFailureFrame = v.InferOutput<typeof failureFrameSchema>;
export type ExecuteCodeFailureExplanation = v.InferOutput<typeof failureExplanationSchema>;

/**
 * A sandbox's failure facts as the kit keeps them, or undefined where they
 * are absent or not in this shape: a run's result never fails for its facts.
 */
export function readFailure(value: unknown): ExecuteCodeFailure | undefined {
  if (value === undefined || value === null) return undefined;
  const parsed = v.safeParse(failureSchema, value);
  return parsed.success ? parsed.output : undefined;
}
