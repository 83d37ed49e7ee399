// Over 300 lines: the whole of one interpreter process, a script the parent
// starts by path with nothing of the kit's modules but its runtime.
//
// One interpreter process: starts Pyodide from the memory snapshot, says
// "ready", runs exactly one program, reports it and exits. The parent starts
// it under Node's permission model (read access to Pyodide's files and the
// snapshot only, no writes, no child processes, no workers, no addons, no
// JavaScript compiled from strings), with an empty environment and, on
// Linux, in namespaces of its own with no network.
//
// Protocol: the program arrives as one JSON line on stdin; JSON lines leave on
// fd 3: ready, output chunks, the files it left, done. Only this file writes
// fd 3: Emscripten's console devices (/dev/tty) write to stdout, which the
// parent does not read, so a program cannot forge a message.
import fs from "node:fs";
import { loadInterpreter, lockImports, removeJsModules, shimProcessBinding } from "./pyodide-runtime.mjs";

const [pyodideDir, snapshotPath, maxOutputArg, fileCapsArg] = process.argv.slice(2);
const maxOutput = Number(maxOutputArg) || 1_000_000;
const fileCaps = {
  maxFiles: 10,
  maxFileBytes: 5 << 20,
  maxTotalFileBytes: 10 << 20,
  ...JSON.parse(fileCapsArg || "{}"),
};
const CHUNK_CHARS = 16_384;
const RUN_DIR = "/mnt/data";

// Writes block until the parent has read: a pipe that is full answers EAGAIN,
// and the write waits a moment and goes on, so nothing is lost.
const MESSAGES_FD = 3;
const pause = new Int32Array(new SharedArrayBuffer(4));
function writeAll(text) {
  const bytes = Buffer.from(text);
  for (let offset = 0; offset < bytes.length; ) {
    try {
      offset += fs.writeSync(MESSAGES_FD, bytes, offset, bytes.length - offset);
    } catch (error) {
      if (error.code !== "EAGAIN") throw error;
      Atomics.wait(pause, 0, 0, 2);
    }
  }
}
const send = (message) => writeAll(`${JSON.stringify(message)}\n`);

// The parent going away closes stdin: an idle interpreter then ends at once.
process.stdin.setEncoding("utf8");
process.stdin.on("end", () => process.exit(0));

shimProcessBinding();
const pyodide = await loadInterpreter(pyodideDir, { _loadSnapshot: fs.readFileSync(snapshotPath) });
removeJsModules(pyodide);
// No host directory can be mounted after start-up.
delete pyodide.FS.filesystems.NODEFS;
pyodide.mountNodeFS = () => {
  throw new Error("The sandbox mounts no host directory.");
};
const runProgram = pyodide.globals.get("__sandbox_run");
// Where codeapi's runs keep their files, and where models are told to write: the working directory.
pyodide.FS.mkdirTree(RUN_DIR);
pyodide.FS.chdir(RUN_DIR);

// Each stream's first `maxOutput` characters go out whole; past that only its
// latest characters, at most every LATEST_EVERY_MS and before "done", with the
// count of those left out. The program runs on this thread, so nothing can
// go out between its writes. A stream's end is kept here too, as much as the
// parent keeps of an end, and goes out once, before "done", if the stream
// passed its cap.
const LATEST_EVERY_MS = 250;
const LATEST_CHARS = 8192;
const END_CHARS = maxOutput - Math.ceil(maxOutput / 2);
const sentWhole = { stdout: 0, stderr: 0 };
const ends = { stdout: "", stderr: "" };
const written = { stdout: { chars: 0, lines: 0 }, stderr: { chars: 0, lines: 0 } };
const latest = { stdout: "", stderr: "" };
const skipped = { stdout: { chars: 0, lines: 0 }, stderr: { chars: 0, lines: 0 } };
let latestSentAt = 0;
const isHighSurrogate = (code) => (code & 0xfc00) === 0xd800;
const lineBreaks = (text, end) => {
  let lines = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < end; i = text.indexOf("\n", i + 1)) lines++;
  return lines;
};
function sendChunks(stream, text) {
  for (let start = 0; start < text.length; ) {
    let stop = Math.min(text.length, start + CHUNK_CHARS);
    if (stop < text.length && isHighSurrogate(text.charCodeAt(stop - 1))) stop -= 1;
    send({ type: "output", stream, text: text.slice(start, stop) });
    start = stop;
  }
}
function sendLatest() {
  latestSentAt = performance.now();
  for (const stream of ["stdout", "stderr"]) {
    const gap = skipped[stream];
    if (!latest[stream] && !gap.chars) continue;
    send({ type: "output", stream, text: latest[stream], ...(gap.chars ? { skipped: gap } : {}) });
    latest[stream] = "";
    skipped[stream] = { chars: 0, lines: 0 };
  }
}
/** The last `n` characters of `text`, one fewer where the first would split an emoji. */
function lastChars(text, n) {
  let from = Math.max(0, text.length - n);
  if (from > 0 && isHighSurrogate(text.charCodeAt(from - 1))) from += 1;
  return text.slice(from);
}
/** Each stream's end past the cap, with how much was written in all: the parent keeps its start and this. */
function sendEnds() {
  for (const stream of ["stdout", "stderr"]) {
    if (sentWhole[stream] < maxOutput) continue;
    send({ type: "end", stream, text: lastChars(ends[stream], END_CHARS), written: written[stream] });
  }
}
function emit(stream, text) {
  if (!text || warmingUp) return;
  written[stream].chars += text.length;
  written[stream].lines += lineBreaks(text, text.length);
  // The stream's last characters, trimmed at twice their size: each character is copied a bounded number of times.
  ends[stream] += text;
  if (ends[stream].length > END_CHARS * 2) ends[stream] = lastChars(ends[stream], END_CHARS);
  let end = Math.min(text.length, Math.max(0, maxOutput - sentWhole[stream]));
  // Do not split a surrogate pair at the cap or between chunks.
  if (end > 0 && end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
  // Cut short (even a character early, not to split an emoji), the budget is over: the rest goes in order.
  sentWhole[stream] = end === text.length ? sentWhole[stream] + end : maxOutput;
  sendChunks(stream, text.slice(0, end));
  if (end === text.length) return;
  let pending = latest[stream] + text.slice(end);
  if (pending.length > LATEST_CHARS * 2) {
    let from = pending.length - LATEST_CHARS;
    if (isHighSurrogate(pending.charCodeAt(from - 1))) from += 1;
    skipped[stream].chars += from;
    skipped[stream].lines += lineBreaks(pending, from);
    pending = pending.slice(from);
  }
  latest[stream] = pending;
  if (performance.now() - latestSentAt >= LATEST_EVERY_MS) sendLatest();
}
const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
const writer = (stream) => ({
  write(bytes) {
    emit(stream, decoders[stream].decode(bytes, { stream: true }));
    return bytes.length;
  },
});
pyodide.setStdout(writer("stdout"));
pyodide.setStderr(writer("stderr"));
pyodide.setStdin({ stdin: () => null });
lockImports();

// A first run compiles Python's and Pyodide's hot paths; do it here, before
// any program, with its output dropped, so a program does not wait for it.
let warmingUp = true;
runProgram('print("warm", 1 + 1)\nimport sys\nprint(file=sys.stderr)');
// And the path of a failure, whose facts need the tokenizer and the parser.
runProgram("values = []\nprint(sum(values) / len(values))");
warmingUp = false;

// Types by extension, from this side: nothing the program set up decides them.
const MEDIA_TYPES = {
  csv: "text/csv",
  txt: "text/plain",
  md: "text/markdown",
  json: "application/json",
  html: "text/html",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  py: "text/x-python",
};
const mediaTypeOf = (name) => MEDIA_TYPES[name.split(".").at(-1)?.toLowerCase()] ?? "application/octet-stream";
// A program that makes a maze of folders or files is not walked for ever.
const MAX_ENTRIES_WALKED = 10_000;
const MAX_DEPTH = 8;

/**
 * Puts the run's given files in its working directory, and notes which of
 * them the program opens (Python's open() reaches Emscripten's FS.open).
 */
function giveFiles(given) {
  const FS = pyodide.FS;
  const root = FS.cwd();
  const paths = new Map();
  // The newest first: where a file and a folder of an older one clash, the newer is the one given.
  for (const { name, data } of [...given].reverse()) {
    const segments = name.split("/");
    if (segments.some((segment) => !segment || segment === "." || segment === "..")) continue;
    try {
      for (let depth = 1; depth < segments.length; depth++) {
        const folder = `${root}/${segments.slice(0, depth).join("/")}`;
        if (!FS.analyzePath(folder).exists) FS.mkdir(folder);
      }
      if (FS.analyzePath(`${root}/${name}`).exists) continue;
      FS.writeFile(`${root}/${name}`, Buffer.from(data, "base64"));
      paths.set(`${root}/${name}`, name);
    } catch {
      // A clash with a newer file: this one is not given.
    }
  }
  const opened = new Set();
  const open = FS.open;
  FS.open = (path, ...rest) => {
    if (typeof path === "string") {
      const full = path.startsWith("/") ? path : `${FS.cwd()}/${path}`;
      if (paths.has(full)) opened.add(paths.get(full));
    }
    return open(path, ...rest);
  };
  // Stopped before the files are collected, which opens them too.
  const stopNoting = () => {
    FS.open = open;
  };
  /** Given files the program removed, or replaced with anything but a file. */
  const removed = () =>
    [...paths]
      .filter(([path]) => {
        try {
          return !FS.isFile(FS.lstat(path).mode);
        } catch {
          return true;
        }
      })
      .map(([, name]) => name);
  return { opened, stopNoting, removed, unchanged: new Map(given.map(({ name, data }) => [name, data])) };
}

/** What the program left in its working directory, within the caps; the rest is counted, not sent. */
function collectFiles(unchanged) {
  const FS = pyodide.FS;
  const files = [];
  let cut = 0;
  let total = 0;
  let walked = 0;
  const walk = (dir, prefix, depth) => {
    for (const name of FS.readdir(dir).sort()) {
      if (name === "." || name === ".." || ++walked > MAX_ENTRIES_WALKED) continue;
      const path = `${dir}/${name}`;
      const stat = FS.lstat(path);
      if (FS.isDir(stat.mode)) {
        if (depth < MAX_DEPTH) walk(path, `${prefix}${name}/`, depth + 1);
        continue;
      }
      if (!FS.isFile(stat.mode)) continue;
      // A given file left as it was is not the run's own.
      const given = unchanged.get(`${prefix}${name}`);
      if (given !== undefined && stat.size === Buffer.byteLength(given, "base64")) {
        if (Buffer.from(FS.readFile(path)).toString("base64") === given) continue;
      }
      if (
        files.length >= fileCaps.maxFiles ||
        stat.size > fileCaps.maxFileBytes ||
        total + stat.size > fileCaps.maxTotalFileBytes
      ) {
        cut += 1;
        continue;
      }
      const data = FS.readFile(path);
      total += data.length;
      files.push({
        name: `${prefix}${name}`,
        mediaType: mediaTypeOf(name),
        data: Buffer.from(data).toString("base64"),
      });
    }
  };
  try {
    walk(FS.cwd(), "", 0);
  } catch {
    // A working directory the program removed has no files to give.
  }
  return { files, filesCut: cut };
}

function run(code, given) {
  const { opened, stopNoting, removed, unchanged } = giveFiles(given);
  const started = performance.now();
  let exitCode;
  let failure = null;
  try {
    ({ code: exitCode, failure } = JSON.parse(runProgram(code)));
  } catch (error) {
    emit("stderr", `${error?.message ?? error}\n`);
    exitCode = 1;
  }
  for (const stream of ["stdout", "stderr"]) emit(stream, decoders[stream].decode());
  sendLatest();
  sendEnds();
  const wallTimeMs = Math.round(performance.now() - started);
  stopNoting();
  send({ type: "files", ...collectFiles(unchanged), filesRead: [...opened], filesRemoved: removed() });
  send({ type: "done", exitCode, wallTimeMs, ...(failure ? { failure } : {}) });
  process.exit(0);
}

// The program and its files come as one line; each chunk is searched once, however large the files.
const pieces = [];
process.stdin.on("data", (chunk) => {
  const end = chunk.indexOf("\n");
  if (end === -1) return void pieces.push(chunk);
  pieces.push(chunk.slice(0, end));
  process.stdin.pause();
  const message = JSON.parse(pieces.join(""));
  run(message.code, Array.isArray(message.files) ? message.files : []);
});
send({ type: "ready" });
