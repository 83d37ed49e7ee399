// A Server Component: the pure helpers run on the server, and a finished card
// is prerendered (no clock or random value is read while it renders).
import { deriveExecuteCodeView, ExecuteCodeCard, normalizeExecuteCodeResult } from "execute-code-ui";
import "execute-code-ui/styles.css";

const result = normalizeExecuteCodeResult({ stdout: "5050\n", stderr: "", code: 0, signal: null, wall_time: 31 });
const view = deriveExecuteCodeView({ status: { type: "complete" }, args: { code: "print(sum(range(101)))" }, result });

export default function Finished() {
  return (
    <main className="mx-auto w-full max-w-3xl p-4">
      <p data-testid="server-phase">{view.phase}</p>
      <ExecuteCodeCard status={{ type: "complete" }} args={{ code: "print(sum(range(101)))" }} result={result} />
    </main>
  );
}
