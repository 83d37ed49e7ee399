import { ExecuteCodeCard } from "execute-code-ui";
import "execute-code-ui/styles.css";

const program = `# Squares of the first numbers
squares = [n ** 2 for n in range(5)]
print("total:", sum(squares))`;

const traceback = `Traceback (most recent call last):
  File "<exec>", line 2, in <module>
ZeroDivisionError: division by zero
`;

/**
 * Two finished runs, as a tutor's chat shows them: one that succeeded (its
 * tone, highlighted code with comments, strings and numbers, stdout) and
 * one with a traceback (header, badges, code with its gutter, stderr).
 */
export function Cards() {
  return (
    <div style={{ display: "grid", gap: 16, width: "100%" }}>
      <ExecuteCodeCard
        status={{ type: "complete" }}
        args={{ code: program }}
        result={{ stdout: "total: 30\n", stderr: "", exitCode: 0, wallTimeMs: 8 }}
      />
      <ExecuteCodeCard
        status={{ type: "complete" }}
        args={{ code: "total = sum(range(101))\nprint(total / 0)" }}
        result={{ stdout: "", stderr: traceback, exitCode: 1, wallTimeMs: 12 }}
      />
    </div>
  );
}
