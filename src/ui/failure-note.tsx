import { Fragment, type ComponentProps } from "react";
import type { ExecuteCodeFailureValue } from "../contract/failure.js";
import { cn } from "./cn.js";
import { isFailure } from "../contract/result-guards.js";
import { slotName } from "../view/slots.js";
import { englishFailureLabels, type FailureLabels } from "./failure-labels.js";
import { formatCount } from "./format.js";
import type { ExecuteCodeLabels } from "./labels.js";
import { revealInvisible, VisibleText } from "./visible-text.js";

export interface FailureNoteProps extends ComponentProps<"div"> {
  /** As the result holds it: shown only in the kit's shape (contract/failure.ts). */
  failure: unknown;
  labels: ExecuteCodeLabels;
  /** The failing line's number is a link to it in the code. */
  onGoToLine?: (line: number) => void;
}

/** How big a value is, where its written form does not show it whole (`[1, 2, …]`, an array). */
function sizeOf(value: ExecuteCodeFailureValue, words: FailureLabels, labels: ExecuteCodeLabels): string | null {
  if (value.shape) return value.shape.join("×");
  if (value.length === undefined || !value.value.includes("…")) return null;
  return words.size(formatCount(value.length, labels.numbers), value.type);
}

/**
 * Why a run failed, under its exception: the error in plain words, and the
 * values the failing line read as `name = value` chips, where the line is.
 * Nothing when the sandbox said neither.
 */
export function FailureNote({ failure, labels, onGoToLine, className, ...props }: FailureNoteProps) {
  if (!isFailure(failure)) return null;
  const words = { ...englishFailureLabels, ...labels.failure };
  const said = words.explain(failure);
  const values = failure.values ?? [];
  const line = failure.line;
  if (!said && !(values.length && line)) return null;
  const where = line
    ? words.valuesAt(String(line), failure.function === "<module>" ? null : (failure.function ?? null))
    : "";
  return (
    <div data-slot={slotName("explanation")} className={cn("ecu-explanation", className)} {...props}>
      {said && (
        <p className="ecu-explanation-words">
          {said.map((word, i) =>
            typeof word === "string" ? (
              <Fragment key={i}>{revealInvisible(word)}</Fragment>
            ) : (
              <code key={i}>
                <VisibleText text={word.code} />
              </code>
            ),
          )}
        </p>
      )}
      {values.length > 0 && line && (
        <div role="group" aria-label={where} data-slot={slotName("values")} className="ecu-values">
          {onGoToLine ? (
            <button type="button" className="ecu-frame-link ecu-values-where" onClick={() => onGoToLine(line)}>
              {where}
            </button>
          ) : (
            <span className="ecu-values-where">{where}</span>
          )}
          {values.map((value) => {
            const size = sizeOf(value, words, labels);
            return (
              <code key={value.name} className="ecu-value" title={value.type}>
                <VisibleText text={`${value.name} = ${value.value}`} />
                {size && <span className="ecu-value-size"> ({size})</span>}
              </code>
            );
          })}
        </div>
      )}
    </div>
  );
}
