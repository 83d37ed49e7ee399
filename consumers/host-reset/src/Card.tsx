import { ExecuteCodeCard } from "execute-code-ui";
import "execute-code-ui/styles.css";

const traceback = `Traceback (most recent call last):
  File "<exec>", line 2, in <module>
ZeroDivisionError: division by zero
`;

/** A finished run with a traceback: header, badges, code with its gutter, and a stderr pane. */
export function Card() {
  return (
    // A fixed width: the host's reset also drops the body's margin.
    <main style={{ width: 720 }}>
      <ExecuteCodeCard
        status={{ type: "complete" }}
        args={{ code: "total = sum(range(101))\nprint(total / 0)" }}
        result={{ stdout: "", stderr: traceback, exitCode: 1, wallTimeMs: 12 }}
      />
    </main>
  );
}
