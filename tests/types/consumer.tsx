// A consumer's view of every entry, type-checked against the built package
// under the module resolutions hosts use (see tsconfig.*.json beside it).
// An export that failed to resolve would be `any`, which `notAny` rejects.
import { ExecuteCodeCard, normalizeExecuteCodeResult, deriveExecuteCodeView, englishLabels } from "execute-code-ui";
import { ExecuteCodeToolUI, makeExecuteCodeRenderer } from "execute-code-ui/assistant-ui";
import { germanLabels } from "execute-code-ui/locales/de";
import { buildExecuteCodeTool, createExecuteCodeTool, executeCodeInputSchema } from "execute-code-ui/server";
import { createScriptedModel } from "execute-code-ui/harness";
import { createSandbox } from "execute-code-ui/sandbox";
import { executeCodeCard } from "execute-code-ui/testing";

type IsAny<T> = 0 extends 1 & T ? true : false;
function notAny<T>(_value: T, _check: IsAny<T> extends true ? never : true) {}

notAny(ExecuteCodeCard, true);
notAny(ExecuteCodeToolUI, true);
notAny(makeExecuteCodeRenderer, true);
notAny(germanLabels, true);
notAny(createExecuteCodeTool, true);
// The former name still types for apps that have not moved yet (deprecated, removed in 0.4.0).
notAny(buildExecuteCodeTool, true);
notAny(executeCodeInputSchema, true);
notAny(createSandbox, true);
notAny(createScriptedModel, true);
notAny(executeCodeCard, true);

const result = normalizeExecuteCodeResult({ stdout: "5050\n", stderr: "", exitCode: 0 });
const view = deriveExecuteCodeView({ status: { type: "complete" }, args: { code: "print(1)" }, result });
const phase: string = view.phase;
const title: string = englishLabels.title;
const germanTitle: string = germanLabels.title;

export const card = <ExecuteCodeCard status={{ type: "complete" }} args={{ code: "print(1)" }} result={result} />;
export { phase, title, germanTitle };
