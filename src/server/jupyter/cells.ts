// Cells the sandbox runs on a kernel for itself, apart from the program:
// in a dictionary of their own, answering through display data.
import type { Kernel } from "./run.js";

/** A cell that runs `source` in a dictionary of its own with `names`, leaving the kernel's namespace as it was. */
export const cell = (source: string, names: Record<string, unknown> = {}) =>
  `exec(compile(${JSON.stringify(source)}, "<execute-code-ui>", "exec"), __import__("json").loads(${JSON.stringify(JSON.stringify(names))}))`;

/** Runs one cell, silently; its display data of `type`, or throws the kernel's error. */
export async function runCell(kernel: Kernel, code: string, type?: string): Promise<unknown> {
  let found: unknown;
  const future = kernel.connection.requestExecute({ code, silent: false, store_history: false, allow_stdin: false });
  future.onIOPub = (message) => {
    const data = (message.content as { data?: Record<string, unknown> }).data;
    if (type && data && type in data) found = data[type];
  };
  const reply = await future.done;
  const content = reply.content as { status?: string; ename?: string; evalue?: string };
  if (content.status !== "ok") throw new Error(`${content.ename ?? "Error"}: ${content.evalue ?? ""}`);
  return found;
}

const PACKAGES_TYPE = "application/vnd.execute-code-ui.packages+json";
/** Packages a course's programs commonly import, asked of a kernel by name. */
const CANDIDATES = ["numpy", "pandas", "matplotlib", "scipy", "sympy", "seaborn", "sklearn", "statsmodels", "openpyxl"];
const PACKAGES = `
import importlib.util
from IPython.display import publish_display_data
publish_display_data({"${PACKAGES_TYPE}": [name for name in NAMES if importlib.util.find_spec(name) is not None]})
`;

/** Which of the common packages the kernel can import. */
export async function kernelPackages(kernel: Kernel): Promise<string[]> {
  const found = await runCell(kernel, cell(PACKAGES, { NAMES: CANDIDATES }), PACKAGES_TYPE);
  return Array.isArray(found) ? found.filter((name): name is string => CANDIDATES.includes(name)) : [];
}
