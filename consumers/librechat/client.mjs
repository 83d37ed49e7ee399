// LibreChat's own code interpreter client (`@librechat/agents`) against the
// deployed sandbox, as a self-hosted LibreChat drives it: the exec tool from
// the package; upload and download as LibreChat's server makes them
// (api/server/services/Files/Code). Prints what it saw as one JSON object.
import { readFileSync } from "node:fs";
import { createCodeExecutionTool } from "@librechat/agents";

const baseUrl = process.env.LIBRECHAT_CODE_BASEURL;
const apiKey = process.env.LIBRECHAT_CODE_API_KEY;
const user = "student-1";
const auth = { "X-API-Key": apiKey, "User-Agent": "LibreChat/1.0" };
const tool = createCodeExecutionTool({ baseUrl, user_id: user, authHeaders: auth });

/** One call as LibreChat's ToolNode makes it, with the files of earlier calls injected. */
let calls = 0;
async function execute(code, files = [], lang = "py") {
  try {
    const message = await tool.invoke({
      name: "execute_code",
      args: { lang, code },
      id: `call-${++calls}`,
      type: "tool_call",
      ...(files.length ? { _injected_files: files } : {}),
    });
    return { content: String(message.content), artifact: message.artifact };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** What LibreChat keeps of a call's files, to hand to a later call. */
const refsOf = (artifact) =>
  (artifact?.files ?? []).map((file) => ({
    id: file.id,
    storage_session_id: artifact.session_id,
    resource_id: file.id,
    name: file.name,
    kind: "user",
  }));

const seen = {};
seen.hello = await execute("print(6 * 7)");
seen.traceback = await execute("def f(x):\n    return 1 / x\n\nf(0)");
seen.figure = await execute(
  [
    "import matplotlib",
    "matplotlib.use('Agg')",
    "import matplotlib.pyplot as plt",
    "plt.plot([1, 2, 3], [1, 4, 9])",
    "plt.savefig('/mnt/data/squares.png')",
    "print('saved')",
  ].join("\n"),
);
const figure = seen.figure.artifact?.files?.[0];
if (figure) {
  const download = await fetch(`${baseUrl}/download/${seen.figure.artifact.session_id}/${figure.id}`, {
    headers: auth,
  });
  const bytes = Buffer.from(await download.arrayBuffer());
  seen.download = {
    status: download.status,
    type: download.headers.get("content-type"),
    png: bytes.subarray(1, 4).toString(),
  };
}

const form = new FormData();
form.append("entity_id", "");
form.append("file", new Blob([readFileSync(new URL("scores.csv", import.meta.url))]), "scores.csv");
const uploaded = await fetch(`${baseUrl}/upload`, {
  method: "POST",
  headers: { ...auth, "User-Id": user },
  body: form,
});
seen.upload = { status: uploaded.status, body: await uploaded.json() };
const csv = (seen.upload.body.files ?? []).map((file) => ({
  id: file.fileId,
  storage_session_id: seen.upload.body.session_id,
  resource_id: file.fileId,
  name: file.filename,
  kind: "user",
}));
seen.csv = await execute(
  "import pandas as pd\ndf = pd.read_csv('/mnt/data/scores.csv')\nprint(df['score'].mean())\ndf.describe().to_csv('/mnt/data/summary.csv')",
  csv,
);
seen.later = await execute(
  "import os\nprint(sorted(os.listdir('/mnt/data')))\nprint(open('/mnt/data/summary.csv').readline().strip())",
  [...csv, ...refsOf(seen.csv.artifact)],
);
seen.otherLanguage = await execute("console.log(1)", [], "js");
console.log(JSON.stringify(seen));
