import type { ExecuteCodeFailure, ExecuteCodeFailureExplanation } from "./failure.js";

/** Words of an explanation: plain text, and code (a name, an expression) the card shows as code. */
export type FailureWords = Array<string | { code: string }>;

/**
 * Says a failure in plain words, or null for an error it has no words for.
 * Everything quoted comes from the sandbox's facts, never guessed.
 */
export type ExplainFailure = (failure: ExecuteCodeFailure) => FailureWords | null;

/** Code inside an explanation. */
export const code = (text: string | undefined) => ({ code: text ?? "" });

/** A sentence of text and code: `say\`Divided by ${code(text)}.\``. */
export function say(strings: TemplateStringsArray, ...values: Array<string | number | { code: string }>): FailureWords {
  const words: FailureWords = [];
  strings.forEach((piece, i) => {
    // A list or name the facts cut short ends in "…": a full stop after it would read "…."
    const before = values[i - 1];
    const cut = typeof before === "object" ? before.code.endsWith("…") : String(before ?? "").endsWith("…");
    const text = i > 0 && cut && piece.startsWith(".") ? piece.slice(1) : piece;
    if (text) words.push(text);
    const value = values[i];
    if (value === undefined) return;
    words.push(typeof value === "object" ? value : String(value));
  });
  return words;
}

/** A list of names from the facts, with "…" when there are more than it holds. */
export const listed = (names: readonly string[] | undefined, count = names?.length ?? 0) =>
  names?.length ? `${names.join(", ")}${count > names.length ? ", …" : ""}` : "";

/** What each kind of explanation (contract/failure.ts) says. */
export type ExplanationWords = Record<string, (facts: ExecuteCodeFailureExplanation) => FailureWords | null>;

/** The words as text, code between backticks: for a model, or a plain-text reader. */
export const wordsAsText = (words: FailureWords) =>
  words.map((word) => (typeof word === "string" ? word : `\`${word.code}\``)).join("");

/** In English. */
const ENGLISH: ExplanationWords = {
  name: ({ name, suggestion }) =>
    suggestion
      ? say`Python does not know the name ${code(name)}. Did you mean ${code(suggestion)}?`
      : say`Python does not know the name ${code(name)}: give it a value (or import it) before this line.`,
  unbound: ({ name }) =>
    say`${code(name)} is given a value inside this function, so here it is the function's own ${code(name)}, which has no value yet.`,
  "zero-division": ({ text }) =>
    text ? say`The program divided by ${code(text)}, which is 0.` : say`The program divided by 0.`,
  index: ({ name, text, count, index }) => {
    if (count === 0) return say`${code(name)} is empty, so it has no item ${code(text)}.`;
    if (count === undefined || index === undefined) return say`${code(name)} has no item ${code(text)}.`;
    return say`${code(name)} has ${count} ${count === 1 ? "item" : "items"}, so its indexes go from 0 to ${count - 1} (or -1 to -${count}); ${code(text)} is ${index}.`;
  },
  key: ({ text, name, names, count }) =>
    names?.length
      ? say`${name ? code(name) : "The dictionary"} has no key ${code(text)}. Its keys: ${listed(names, count)}.`
      : say`There is no key ${code(text)}.`,
  "operand-types": ({ text, names }) =>
    names?.length === 2
      ? say`${code(text)} cannot combine ${code(names[0])} and ${code(names[1])}: convert one of them first (with ${code("str()")}, ${code("int()")} or ${code("float()")}).`
      : null,
  attribute: ({ name, text, suggestion }) =>
    text === "NoneType"
      ? say`The value here is ${code("None")}, which has no ${code(`.${name}`)}: often a function that returns nothing (like ${code("list.sort()")}) was used as if it returned a value.`
      : suggestion
        ? say`A ${code(text)} has no ${code(`.${name}`)}. Did you mean ${code(`.${suggestion}`)}?`
        : say`A ${code(text)} has no ${code(`.${name}`)}.`,
  "number-text": ({ name, text }) =>
    name === "float"
      ? say`${code("float()")} cannot read ${code(text)} as a number.`
      : say`${code("int()")} cannot read ${code(text)} as a whole number.`,
  "file-not-found": ({ name, names, count }) =>
    names?.length
      ? say`There is no file ${code(name)} in the program's folder. The files there: ${listed(names, count)}.`
      : say`There is no file ${code(name)}: the program's folder has no files. Attach the file to the chat first.`,
  "module-not-found": ({ name, names }) =>
    names?.length
      ? say`The package ${code(name)} is not installed here. Installed: ${listed(names)}.`
      : say`The package ${code(name)} is not installed here.`,
  recursion: ({ name, count }) =>
    say`${code(name)} called itself ${count ?? "too many"} times without stopping: it needs a case that returns without calling itself.`,
  "no-internet": () =>
    say`The sandbox has no internet: a program cannot download or call a web service here. Attach the data to the chat instead.`,
  "no-input": () =>
    say`No one can type into the program here, so ${code("input()")} gets nothing. Put the values in the program.`,
  memory: () => say`The program used more memory than the sandbox allows.`,
  "sandbox-full": () =>
    say`The sandbox was full, so this program was stopped to let others' programs run: you had used it much more than they had of late. Run it again in a moment.`,
};

/** Explains a failure with `words`, one per kind; null for a kind it has none for. */
export function explainWith(words: ExplanationWords): ExplainFailure {
  return (failure) => {
    const facts = failure.explanation;
    if (!facts || !Object.hasOwn(words, facts.kind)) return null;
    return words[facts.kind]!(facts);
  };
}

/** The failure in plain English words, or null for an error it has no words for. */
export const explainFailure = explainWith(ENGLISH);
