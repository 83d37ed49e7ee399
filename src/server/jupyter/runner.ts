// The cell a kernel runs for each program, and how to read what it says back: the exit code and the figures.
import { DESCRIBE_FIGURE_PY, UNTITLED_FIGURE } from "../figure-words.js";
import { RUN_PROGRAM_PY } from "../../contract/run-program-py.js";

/** How the runner cell tells the exit code: a display message of this type, never shown. */
export const EXIT_TYPE = "application/vnd.execute-code-ui.exit+json";
/** How it hands over a figure with its alt text and size: a display message of this type. */
const FIGURE_TYPE = "application/vnd.execute-code-ui.figure+json";
/** How it hands over the files a run wrote: a display message of this type. */
export const FILES_TYPE = "application/vnd.execute-code-ui.files+json";
/** Figures a run may leave, each at most this big, together at most that; the rest are counted, not kept. */
export const MAX_FIGURES = 10;
export const MAX_FIGURE_BYTES = 5 * 1024 * 1024;
export const MAX_RUN_FIGURE_BYTES = 16 * 1024 * 1024;
/** Files a run may leave, as the harness's sandbox allows; the rest are counted, not kept. */
export const MAX_FILES = 20;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_RUN_FILE_BYTES = 16 * 1024 * 1024;

/**
 * The kernel's own state, kept between its runs: its working directory (not
 * the server's, which every kernel on it shares; made on first use, removed
 * when the kernel ends) and the student's files already written there.
 */
export const KERNEL_STATE = `
import atexit, os, shutil, sys, tempfile, types
state = sys.modules.get("execute_code_ui_state")
if state is None:
    state = types.ModuleType("execute_code_ui_state")
    state.workdir = tempfile.mkdtemp(prefix="execute-code-ui-")
    state.given = {}
    atexit.register(shutil.rmtree, state.workdir, True)
    sys.modules["execute_code_ui_state"] = state
os.makedirs(state.workdir, exist_ok=True)
os.chdir(state.workdir)
`;

/**
 * Runs the program as `python -c` would: its frames named `<program>` and quoting its lines as in the
 * kit's own sandbox, `sys.exit` taken as the exit code, and the traceback
 * starting at the program (not at this runner). It runs in the kernel's own
 * namespace; the runner's names stay in a dictionary of their own. Its
 * working directory is the kernel's own, made on its first run and removed
 * when it ends; the files a run changed there are handed over after it.
 */
const RUNNER = `
import base64, io, os, stat, sys, traceback
from IPython.display import publish_display_data
${KERNEL_STATE}

def files_now():
    # Regular files only, never through a link; at most 10,000 entries, 16 folders deep.
    found = {}
    top = state.workdir.count(os.sep)
    for folder, folders, names in os.walk(state.workdir):
        if folder.count(os.sep) - top >= 16:
            folders[:] = []
        for name in names:
            if len(found) >= 10000:
                return found
            path = os.path.join(folder, name)
            try:
                info = os.lstat(path)
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode):
                found[os.path.relpath(path, state.workdir)] = (info.st_ino, info.st_size, info.st_mtime_ns)
    return found

def read_regular(path, limit):
    # At most limit + 1 bytes of a regular file, never blocked on a FIFO: past the limit it is not kept.
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)

def hand_over_files(before):
    kept, cut, total = [], 0, 0
    for name in sorted(name for name, mark in files_now().items() if before.get(name) != mark):
        room = min(${MAX_FILE_BYTES}, ${MAX_RUN_FILE_BYTES} - total)
        try:
            data = read_regular(os.path.join(state.workdir, name), room) if len(kept) < ${MAX_FILES} else None
        except OSError:
            data = None
        if data is None or len(data) > room:
            cut += 1
            continue
        total += len(data)
        shown = os.fsencode(name).decode("utf-8", "replace")
        # One message a file: the server takes no message past what one file needs.
        publish_display_data({"${FILES_TYPE}": {"files": [{"name": shown, "data": base64.b64encode(data).decode()}], "cut": 0}})
        kept.append(shown)
    if cut:
        publish_display_data({"${FILES_TYPE}": {"files": [], "cut": cut}})

${DESCRIBE_FIGURE_PY}
def hand_over_figures():
    # Open figures, at plt.show() and at the end, as a notebook shows them: with what they say of themselves.
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return
    for number in plt.get_fignums():
        figure = plt.figure(number)
        try:
            buffer = io.BytesIO()
            figure.savefig(buffer, format="png", dpi=100)
            width, height = (round(size * 100) for size in figure.get_size_inches())
            publish_display_data({"${FIGURE_TYPE}": {
                "png": base64.b64encode(buffer.getvalue()).decode(),
                "alt": describe_figure(figure), "width": width, "height": height,
            }})
        except Exception as error:
            print(f"The figure could not be saved: {error}", file=sys.stderr)
        plt.close(figure)

${RUN_PROGRAM_PY}
if "matplotlib.pyplot" in sys.modules:
    sys.modules["matplotlib.pyplot"].show = lambda *args, **kwargs: hand_over_figures()
# A figure the kernel's own backend shows (pyplot imported by the program): its PNG is the backend's, its words ours.
get_ipython().display_formatter.mimebundle_formatter.for_type_by_name(
    "matplotlib.figure", "Figure", lambda figure: {"${FIGURE_TYPE}": {"alt": describe_figure(figure)}}
)
import asyncio, threading

def os_threads():
    try:
        return set(os.listdir("/proc/self/task"))
    except OSError:
        return set()

def children():
    # The kernel's child processes as Linux lists them, however they were started.
    found = set()
    for task in os_threads():
        try:
            with open(f"/proc/self/task/{task}/children") as listed:
                found.update(listed.read().split())
        except OSError:
            pass
    return found

def tasks():
    try:
        return {task for task in asyncio.all_tasks(asyncio.get_event_loop()) if not task.done()}
    except Exception:
        return set()

before = set(threading.enumerate())
# Every thread that runs Python, however it was started (threading, _thread).
frames_before = set(sys._current_frames())
os_threads_before = os_threads()
children_before = children()
tasks_before = tasks()
files_before = files_now()
facts = {}
status = run_program(base64.b64decode(PROGRAM).decode("utf-8"), get_ipython().user_ns, facts)
try:
    hand_over_figures()
except Exception:
    pass
try:
    hand_over_files(files_before)
except Exception as error:
    print(f"The files the program wrote could not be handed over: {error}", file=sys.stderr)
# What the program started and left running: it would go on past the run's time.
threads = [thread for thread in threading.enumerate() if thread not in before and thread.is_alive()]
# A thread started with _thread may not have begun to run Python yet, for long on a busy machine: while the process
# has more new threads than new threads running Python, wait for them (a second at most; a library's own native
# threads never show a frame).
counted = frames_before | {thread.ident for thread in threads}
waited = __import__("time").monotonic() + 1.0
while (
    len(os_threads() - os_threads_before) > len(set(sys._current_frames()) - frames_before)
    and __import__("time").monotonic() < waited
):
    __import__("time").sleep(0.01)
left = threads + [ident for ident in sys._current_frames() if ident not in counted]
if "multiprocessing" in sys.modules:
    left += sys.modules["multiprocessing"].active_children()
left += sorted(children() - children_before)
left += list(tasks() - tasks_before)
sys.stdout.flush()
sys.stderr.flush()
publish_display_data({"${EXIT_TYPE}": {"code": status, "left": len(left), "failure": facts or None}})
`;

/** The cell the kernel gets: the runner, handed the program as base64 so no character of it is read as Python here. */
export function runnerCell(code: string): string {
  const program = Buffer.from(code, "utf8").toString("base64");
  return `exec(compile(${JSON.stringify(RUNNER)}, "<execute-code-ui>", "exec"), {"PROGRAM": "${program}", "get_ipython": get_ipython})`;
}

export interface Figure {
  bytes: Uint8Array;
  alt: string;
  width?: number;
  height?: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const isPixels = (value: unknown): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 100_000;

/**
 * A figure in a display message: the runner's (with what the figure says
 * of itself), or a PNG the kernel's backend showed (its size from the PNG's
 * header, its words the runner's where it added them, else unknown). Bytes
 * that are not a PNG are no figure. "too big" past `maxBytes`, told
 * from the base64's length before anything is decoded.
 */
export function figureOf(data: Record<string, unknown>, maxBytes: number): Figure | "too big" | null {
  const own = data[FIGURE_TYPE] as { png?: unknown; alt?: unknown; width?: unknown; height?: unknown } | undefined;
  const ownPng = own && typeof own.png === "string" ? own.png : null;
  const png = ownPng ?? data["image/png"];
  if (typeof png !== "string") return null;
  if (Math.floor((png.length * 3) / 4) > maxBytes) return "too big";
  const bytes = Buffer.from(png, "base64");
  // Served from the app's origin as image/png: only what is one.
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  const alt = own && typeof own.alt === "string" && own.alt ? own.alt.slice(0, 300) : UNTITLED_FIGURE;
  if (ownPng && isPixels(own!.width) && isPixels(own!.height))
    return { bytes, alt, width: own!.width, height: own!.height };
  // The IHDR chunk: width and height, big-endian, after the 8-byte signature and the chunk's length and type.
  const width = bytes.length >= 24 ? bytes.readUInt32BE(16) : 0;
  const height = bytes.length >= 24 ? bytes.readUInt32BE(20) : 0;
  return { bytes, alt, ...(isPixels(width) && isPixels(height) ? { width, height } : {}) };
}

/** A file a run wrote, as the runner handed it over. */
export interface WrittenFile {
  name: string;
  bytes: Uint8Array;
}

/**
 * The files in a display message of the runner's (a program can send one
 * too: it is no more than writing them), each kept while `room` says there
 * is room for it, told from the base64's length before anything is decoded;
 * the rest, and those the runner counted, are `cut`.
 */
export function writtenFilesOf(
  data: Record<string, unknown>,
  room: (bytes: number) => boolean,
): { files: WrittenFile[]; cut: number } | null {
  const sent = data[FILES_TYPE] as { files?: unknown; cut?: unknown } | undefined;
  if (!sent || !Array.isArray(sent.files)) return null;
  const files: WrittenFile[] = [];
  let cut = typeof sent.cut === "number" && Number.isInteger(sent.cut) && sent.cut > 0 ? sent.cut : 0;
  for (const entry of sent.files as Array<{ name?: unknown; data?: unknown }>) {
    const { name, data: encoded } = entry ?? {};
    if (typeof name !== "string" || !name || name.length > 1024 || typeof encoded !== "string") continue;
    if (!room(Math.floor((encoded.length * 3) / 4))) {
      cut++;
      continue;
    }
    files.push({ name, bytes: Buffer.from(encoded, "base64") });
  }
  return { files, cut };
}
