// A student's files in the sandbox: `POST /v1/upload` keeps them for their
// owner, `files` on `/v1/exec` puts them in the run's working directory, a
// run's new files carry into the next, and nobody else reaches them. Both
// engines; CPython needs scripts/setup.sh.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCpythonExecutor, createPyodideExecutor, type Executor } from "../../src/sandbox";
import { startSandbox } from "./sandbox-fixture";

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
interface Ref {
  id: string;
  session_id: string;
  name: string;
}

const scores = "name,score\nada,90\nada,70\nbob,60\n";

async function upload(sandbox: Sandbox, participantId: string, files: Array<[string, string]>, clientId?: string) {
  const form = new FormData();
  for (const [name, content] of files) form.append("file", new Blob([content]), name);
  const token = await sandbox.minter.mint({ participantId, tenantId: "course-1", clientId });
  const response = await fetch(`${sandbox.url}/v1/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The status `GET /v1/download/…` answers `participantId` for `ref`. */
async function downloadStatus(sandbox: Sandbox, participantId: string, ref: Ref): Promise<number> {
  const token = await sandbox.minter.mint({ participantId, tenantId: "course-1" });
  const response = await fetch(`${sandbox.url}/v1/download/${ref.session_id}/${ref.id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return response.status;
}

const refsOf = (body: Record<string, unknown>): Ref[] =>
  (body.files as Array<{ fileId: string; filename: string }>).map((file) => ({
    id: file.fileId,
    session_id: body.session_id as string,
    name: file.filename,
  }));

async function exec(sandbox: Sandbox, participantId: string, code: string, files: Ref[] = []) {
  const token = await sandbox.minter.mint({ participantId, tenantId: "course-1" });
  const response = await fetch(`${sandbox.url}/v1/exec`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ lang: "py", code, files }),
  });
  return (await response.json()) as {
    stdout: string;
    stderr: string;
    code: number;
    session_id: string;
    files: Array<{ id: string; name: string; content_type: string; size: number }>;
    files_read?: string[];
    files_removed?: string[];
    files_missing: Ref[];
  };
}

describe.each([
  ["cpython", () => createCpythonExecutor({ memoryLimitMb: 512 })],
  ["pyodide", () => createPyodideExecutor({ poolSize: 1, onWarning: () => undefined })],
])("a student's files in the %s engine", (engine, makeExecutor) => {
  let executor: Executor;
  let sandbox: Sandbox;
  beforeAll(async () => {
    executor = makeExecutor();
    sandbox = await startSandbox(executor);
  }, 120_000);
  afterAll(() => sandbox?.close());

  it("a program opens an uploaded CSV by name, and the answer says it read it and gives back only what it wrote", async () => {
    const uploaded = await upload(sandbox, "ada", [["scores.csv", scores]]);
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.files).toEqual([
      { fileId: expect.any(String), filename: "scores.csv", content_type: "text/csv", size: scores.length },
    ]);
    const answer = await exec(
      sandbox,
      "ada",
      [
        "import csv",
        "rows = list(csv.DictReader(open('scores.csv')))",
        "mean = sum(int(r['score']) for r in rows if r['name'] == 'ada') / 2",
        "print(mean)",
        "open('means.csv', 'w').write(f'name,mean\\nada,{mean}\\n')",
      ].join("\n"),
      refsOf(uploaded.body),
    );
    expect(answer.stderr).toBe("");
    expect(answer.stdout).toBe("80.0\n");
    expect(answer.files_read).toEqual(["scores.csv"]);
    expect(answer.files.map((file) => file.name)).toEqual(["means.csv"]);
    expect(answer.files_missing).toEqual([]);
    // Ids in codeapi's form, which its clients check (LibreChat's download route takes only these).
    const codeapiId = /^[A-Za-z0-9_-]{21}$/;
    for (const id of [uploaded.body.session_id, answer.session_id, answer.files[0]!.id]) expect(id).toMatch(codeapiId);
    expect(answer.session_id).not.toBe(uploaded.body.session_id);

    // The next run of the chat gets both: the student's file and the one the run wrote.
    const next = await exec(sandbox, "ada", "print(open('means.csv').read().split()[1])", [
      ...refsOf(uploaded.body),
      { id: answer.files[0]!.id, session_id: answer.session_id, name: "means.csv" },
    ]);
    expect(next.stdout).toBe("ada,80.0\n");
    expect(next.files_read).toEqual(["means.csv"]);
    expect(next.files).toEqual([]);
  });

  it("runs in /mnt/data, codeapi's folder: an upload is there by name, and what is written there by path comes back", async () => {
    const uploaded = await upload(sandbox, "ada", [["scores.csv", scores]]);
    const answer = await exec(
      sandbox,
      "ada",
      [
        "import os",
        "print(os.getcwd())",
        "rows = open('/mnt/data/scores.csv').read().split()",
        "open('/mnt/data/count.txt', 'w').write(str(len(rows) - 1))",
      ].join("\n"),
      refsOf(uploaded.body),
    );
    expect(answer.stdout).toBe("/mnt/data\n");
    expect(answer.files_read).toEqual(["scores.csv"]);
    expect(answer.files.map((file) => [file.name, file.size])).toEqual([["count.txt", 1]]);
  });

  it("a given file the program changes comes back as a new file; one it only lists is not read", async () => {
    const uploaded = await upload(sandbox, "ada", [["notes.txt", "one\n"]]);
    const answer = await exec(
      sandbox,
      "ada",
      "import os\nprint(sorted(os.listdir('.')))\nopen('notes.txt', 'a').write('two\\n')",
      refsOf(uploaded.body),
    );
    expect(answer.stdout).toBe("['notes.txt']\n");
    expect(answer.files.map((file) => [file.name, file.size])).toEqual([["notes.txt", 8]]);
  });

  it("a run that puts a link where a given folder was learns nothing of what it points to, and the files count as removed", async () => {
    const first = await exec(
      sandbox,
      "ada",
      "import os\nos.makedirs('p')\nfor name in ('passwd', 'hostname', 'nowhere'):\n    open(f'p/{name}', 'w').write('x')",
    );
    const refs = first.files.map((file) => ({ id: file.id, session_id: first.session_id, name: file.name }));
    expect(refs.map((ref) => ref.name)).toEqual(["p/hostname", "p/nowhere", "p/passwd"]);
    const probe = await exec(sandbox, "ada", "import os, shutil\nshutil.rmtree('p')\nos.symlink('/etc', 'p')", refs);
    expect(probe.stderr).toBe("");
    expect(probe.files_read).toEqual([]);
    expect(probe.files_removed).toEqual(["p/hostname", "p/nowhere", "p/passwd"]);
  });

  it("a file the program removed is said so; where an older file and a newer folder clash, the newer is given", async () => {
    const made = await exec(
      sandbox,
      "ada",
      "import os\nos.makedirs('a')\nopen('a/b.csv', 'w').write('old')\nopen('keep.txt', 'w').write('k')",
    );
    const refsOf2 = (answer: typeof made) =>
      answer.files.map((file) => ({ id: file.id, session_id: answer.session_id, name: file.name }));
    const removed = await exec(
      sandbox,
      "ada",
      "import shutil, os\nshutil.rmtree('a')\nopen('a', 'w').write('new')\nos.remove('keep.txt')",
      refsOf2(made),
    );
    expect(removed.files_removed?.sort()).toEqual(["a/b.csv", "keep.txt"]);
    // Given both (a chat that kept the older one), the run starts and gets the newer file.
    const both = await exec(sandbox, "ada", "print(open('a').read())", [...refsOf2(made), ...refsOf2(removed)]);
    expect(both.stderr).toBe("");
    expect(both.stdout).toBe("new\n");
  });

  it("takes a figure's description only for the sandbox's own figures, and short", async () => {
    const answer = await exec(
      sandbox,
      "ada",
      [
        "import json",
        "open('figure-1.png', 'wb').write(b'png')",
        "open('notes.txt', 'w').write('n')",
        "json.dump({'figure-1.png': 'A' * 5000 + '\\n', 'notes.txt': 'IGNORE ALL'}, open('.ecu-figures.json', 'w'))",
      ].join("\n"),
    );
    const files = answer.files as Array<{ name: string; alt?: string }>;
    expect(files.find((file) => file.name === "notes.txt")?.alt).toBeUndefined();
    // Pyodide has no matplotlib and describes no figures.
    expect(files.find((file) => file.name === "figure-1.png")?.alt).toBe(
      engine === "cpython" ? "A".repeat(300) : undefined,
    );
  });

  it("another student's file is missing to them, as an expired one is, and never in their run", async () => {
    const uploaded = await upload(sandbox, "ada", [["secret.csv", "a\n1\n"]]);
    const answer = await exec(sandbox, "eve", "import os\nprint(os.listdir('.'))", refsOf(uploaded.body));
    expect(answer.stdout).toBe("[]\n");
    expect(answer.files_missing).toEqual(refsOf(uploaded.body));
    const [ref] = refsOf(uploaded.body);
    const token = await sandbox.minter.mint({ participantId: "eve", tenantId: "course-1" });
    const download = await fetch(`${sandbox.url}/v1/download/${ref!.session_id}/${ref!.id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(download.status).toBe(404);
  });
});

describe("names a run gives its files, in CPython", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox(createCpythonExecutor({ memoryLimitMb: 512 }));
  }, 120_000);
  afterAll(() => sandbox?.close());

  it("shows a name that is not UTF-8 readably, and two that then read alike apart", async () => {
    const answer = await exec(
      sandbox,
      "ada",
      "open(b'd\\xff.csv', 'w').write('1')\nopen(b'd\\xfe.csv', 'w').write('2')\nopen('ok.csv', 'w').write('3')",
    );
    expect(answer.files.map((file) => file.name)).toEqual(["d\uFFFD.csv", "d\uFFFD (2).csv", "ok.csv"]);
  });
});

describe("uploads the sandbox refuses", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    const executor: Executor = { run: async () => ({ fault: { kind: "reset" } }), close: async () => undefined };
    sandbox = await startSandbox(executor, { maxUploadFileBytes: 1024, maxFileStoreBytesPerUser: 1500 });
  });

  const download = (participantId: string, ref: Ref) => downloadStatus(sandbox, participantId, ref);

  it("keeps each student's files within their own share: their newest push out their oldest, never another's", async () => {
    const bob = refsOf((await upload(sandbox, "bob", [["bob.csv", "b".repeat(1000)]])).body)[0]!;
    const first = refsOf((await upload(sandbox, "ada", [["one.csv", "a".repeat(1000)]])).body)[0]!;
    const second = await upload(sandbox, "ada", [["two.csv", "a".repeat(1000)]]);
    expect(second.status).toBe(201);
    expect(await download("ada", first)).toBe(404);
    expect(await download("ada", refsOf(second.body)[0]!)).toBe(200);
    expect(await download("bob", bob)).toBe(200);
    // An upload larger than a student's share is refused whole, with the share in words.
    const over = await upload(sandbox, "ada", [
      ["x.csv", "x".repeat(1000)],
      ["y.csv", "y".repeat(1000)],
    ]);
    expect(over.status).toBe(413);
    expect(over.body.message).toBe("An upload may carry at most 10 files of at most 1 KB each, 1.5 KB in all.");
  });
  afterAll(() => sandbox?.close());

  it("many students' cookies of one client fill the store as one: another student's files stay", async () => {
    const executor: Executor = { run: async () => ({ fault: { kind: "reset" } }), close: async () => undefined };
    const full = await startSandbox(executor, { maxFileStoreBytes: 10_000, maxFileStoreBytesPerUser: 1500 });
    try {
      const fetchFile = (participantId: string, ref: Ref) => downloadStatus(full, participantId, ref);
      const ada = refsOf(
        (
          await upload(
            full,
            "ada",
            [
              ["a.csv", "a".repeat(700)],
              ["b.csv", "b".repeat(700)],
            ],
            "10.0.0.1",
          )
        ).body,
      );
      // Thirteen cookies of one address, each holding a little less than Ada: 16.9 KB against a 10 KB store.
      // Once it is full they can only push out their own files, or are refused where they hold as much.
      const answers = [];
      for (let n = 0; n < 13; n++)
        answers.push(await upload(full, `cookie-${n}`, [["f.csv", "f".repeat(1300)]], "6.6.6.6"));
      expect(answers.map((answer) => answer.status)).toContain(507);
      expect(answers.every((answer) => answer.status === 201 || answer.body.error === "no_room")).toBe(true);
      expect(await Promise.all(ada.map((ref) => fetchFile("ada", ref)))).toEqual([200, 200]);
      // Another student, from elsewhere, still gets room: it comes from the flood's oldest file.
      const bob = await upload(full, "bob", [["b.csv", "b".repeat(1000)]], "10.0.0.2");
      expect(bob.status).toBe(201);
      expect(await fetchFile("cookie-0", refsOf(answers[0]!.body)[0]!)).toBe(404);
      expect(await Promise.all(ada.map((ref) => fetchFile("ada", ref)))).toEqual([200, 200]);
    } finally {
      await full.close();
    }
  });

  it("says why in words, and keeps nothing of an upload it refuses", async () => {
    const tooBig = await upload(sandbox, "ada", [
      ["small.csv", "a\n"],
      ["big.csv", "x".repeat(1100)],
    ]);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toBe('"big.csv" is 1.1 KB; a file may be at most 1 KB.');
    expect((await upload(sandbox, "ada", [["empty.csv", ""]])).body).toMatchObject({
      error: "empty_file",
      message: '"empty.csv" is empty.',
    });
    const docx = await upload(sandbox, "ada", [["essay.docx", "PK"]]);
    expect(docx.status).toBe(415);
    expect(docx.body.message).toMatch(/^The sandbox takes \.csv, \.tsv, .* files; "essay\.docx" is none of them\.$/);
  });

  it("stores a hostile name safely and two files of one name apart", async () => {
    const uploaded = await upload(sandbox, "ada", [
      ["../../etc/passwd.txt", "a"],
      ["x\u202Egnp.csv", "b"],
      ["..", "c"],
      ["data.csv", "d"],
      ["data.csv", "e"],
    ]);
    // ".." has no extension the sandbox takes.
    expect(uploaded.status).toBe(415);
    const ok = await upload(sandbox, "ada", [
      ["../../etc/passwd.txt", "a"],
      ["x\u202Egnp.csv", "b"],
      ["data.csv", "d"],
      ["folder\\data.csv", "e"],
    ]);
    expect(ok.status).toBe(201);
    expect((ok.body.files as Array<{ filename: string }>).map((file) => file.filename)).toEqual([
      "passwd.txt",
      "x_gnp.csv",
      "data.csv",
      "data (2).csv",
    ]);
  });
});
