import { VisibleText } from "./visible-text.js";
import { slotName } from "../view/slots.js";

function stringify(raw: unknown): string {
  if (typeof raw === "string") return raw;
  try {
    return JSON.stringify(raw, null, 2) ?? String(raw);
  } catch {
    return String(raw);
  }
}

/** A result the card cannot read, shown as it came: always as text. */
export default function RawResult({ value }: { value: unknown }) {
  return (
    <pre
      data-slot={slotName("raw")}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll area takes focus, so the keyboard can scroll it.
      tabIndex={0}
      className="ecu-scroll ecu:mt-2 ecu:max-h-64 ecu:overflow-auto ecu:rounded-md ecu:border ecu:border-dashed ecu:border-line ecu:bg-surface-sunken ecu:px-3 ecu:py-2 ecu:font-code ecu:text-[13px] ecu:whitespace-pre-wrap ecu:text-fg"
    >
      <VisibleText text={stringify(value)} />
    </pre>
  );
}
