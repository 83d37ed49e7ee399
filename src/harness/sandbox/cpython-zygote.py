"""The CPython engine's warm parent (the "zygote").

Over 300 lines: the interpreter runs it as one script, with no package of
its own to import from.

It runs inside bubblewrap (no network, its own PID, IPC and user
namespaces, a read-only /usr, uid 1000), imports the scientific stack once,
and clones a fresh process for each program, a couple of them ahead of
time, straight into namespaces of its own (user, mount, PID, network, IPC,
UTS): a private /tmp and working directory, an empty /proc, limits, no
capabilities, and the program itself runs as PID 1 of its namespace, so
everything it starts dies with it. A prepared run has no program yet: it
waits for one on a pipe, and each is used once. This process reads a run's
files from a descriptor of its /work once the run has ended.

Protocol with the Node parent: one JSON object a line.
  in:  {"type":"run","id","code","limits":{...}}  {"type":"kill","id"}
  out: {"type":"ready","modules","python","forksPerRun"}  {"type":"started","id"}
       {"type":"output","id","stream","text"}
       {"type":"exit","id","code","signal","cut":{"stdout","stderr"},"files","filesCut"}
"""

import base64
import codecs
import ctypes
import gc
import json
import mimetypes
import os
import random
import resource
import selectors
import signal
import stat
import sys

# Loaded once here, shared copy-on-write by every run.
MODULES = ["numpy", "pandas", "matplotlib", "matplotlib.pyplot", "scipy", "sympy"]
loaded = []
for name in MODULES:
    try:
        __import__(name)
        loaded.append(name)
    except Exception:
        pass


def warm_up():
    """What the first plot, formula or table in a run would otherwise load: fonts, renderers, printers."""
    import io

    if "matplotlib.pyplot" in loaded:
        import matplotlib.pyplot as plt

        figure, axes = plt.subplots()
        axes.plot([1, 2, 3], [1, 4, 9], label="x")
        axes.set_title("warm-up")
        axes.set_xlabel("n")
        axes.legend()
        figure.savefig(io.BytesIO(), format="png", dpi=100)
        plt.close(figure)
    if "sympy" in loaded:
        import sympy

        x = sympy.Symbol("x")
        str(sympy.factor(x**2 - 1))
        sympy.pretty(sympy.integrate(x**2, x))
    if "pandas" in loaded:
        import pandas

        str(pandas.DataFrame({"n": [1, 2], "square": [1, 4]}).describe())


try:
    warm_up()
except Exception:
    pass
# The type table the file listing reads, loaded once here and shared.
mimetypes.init()
# Every object so far is shared with the runs: a collection in a run must not walk them (it would copy their pages).
gc.collect()
gc.freeze()

libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 2, 4, 8, 16384, 1 << 18
PR_SET_PDEATHSIG, PR_SET_NO_NEW_PRIVS = 1, 38
UID = GID = 1000
RUN_NAMESPACES = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS


def clone_setup():
    """How to clone() straight into a run's namespaces, as glibc's fork() does it, or None.

    A fork costs this 120 MB process about as much CPU as a small program's
    whole run: one clone() per run instead of fork, unshare and fork again
    halves that. glibc keeps each thread's id in its thread descriptor;
    fork() has the kernel write the child's id there, and so does this, at
    the offset found here and checked in a trial child below."""
    import platform

    # The clone and gettid syscalls' numbers, and where clone's child-tid argument goes, per architecture.
    calls = {"x86_64": (56, "x86", 186), "aarch64": (220, "arm", 178)}
    if platform.machine() not in calls:
        return None
    number, order, gettid = calls[platform.machine()]
    libc.pthread_self.restype = ctypes.c_void_p
    descriptor = libc.pthread_self()
    tid = libc.syscall(gettid)
    offsets = [off for off in range(0, 4096, 4) if ctypes.c_int.from_address(descriptor + off).value == tid]
    if len(offsets) != 1:
        return None
    return number, order, ctypes.c_void_p(descriptor + offsets[0]), gettid


# Called with the GIL held, as os.fork() calls fork().
python_libc = ctypes.PyDLL(None, use_errno=True)
CLONE_CHILD_CLEARTID, CLONE_CHILD_SETTID, SIGCHLD = 0x00200000, 0x01000000, 17


def clone_process(setup, flags):
    """fork() into new namespaces: 0 in the child, its pid in the parent."""
    number, order, tid_address, _ = setup
    flags |= CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | SIGCHLD
    args = (0, None, tid_address, 0) if order == "x86" else (0, None, 0, tid_address)
    ctypes.pythonapi.PyOS_BeforeFork()
    pid = python_libc.syscall(number, ctypes.c_ulong(flags), *args)
    if pid == 0:
        ctypes.pythonapi.PyOS_AfterFork_Child()
        return 0
    errno = ctypes.get_errno()
    ctypes.pythonapi.PyOS_AfterFork_Parent()
    if pid < 0:
        raise OSError(errno, os.strerror(errno))
    return pid


def checked_clone_setup():
    """The clone setup, if a trial child in new namespaces finds its own thread id where glibc looks."""
    setup = clone_setup()
    if setup is None:
        return None
    try:
        pid = clone_process(setup, RUN_NAMESPACES)
    except OSError:
        return None
    if pid == 0:
        same = ctypes.c_int.from_address(setup[2].value).value == libc.syscall(setup[3])
        os._exit(0 if same else 1)
    _, status = os.waitpid(pid, 0)
    return setup if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 else None


# Per sandbox, from the parent: the size of each run's /tmp and /work, the caps on the files it leaves, and each run's limits.
CONFIG = {
    "diskMb": 64,
    "maxFiles": 10,
    "maxFileBytes": 5 << 20,
    "maxTotalFileBytes": 10 << 20,
    "memoryMb": 1024,
    "processes": 16,
    "openFiles": 256,
    "fileMb": 64,
    "clone": True,
}
if len(sys.argv) > 1:
    CONFIG.update(json.loads(sys.argv[1]))
# How each run's process is made (clone_setup): None forks, unshares and forks again.
CLONE = checked_clone_setup() if CONFIG["clone"] else None
# Runs prepared ahead, so a program starts without waiting for two forks and the namespaces.
PREPARED = 2
# The run's report: its exit and its files, base64 (the caps are far below this).
MAX_STATUS_BYTES = 64 * 1024 * 1024

RUNNER = """
import sys, traceback
def __ecu_run(source):
    try:
        exec(compile(source, "<exec>", "exec"), {"__name__": "__main__"})
        return 0
    except SystemExit as exit:
        code = exit.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code & 0xFF
        print(code, file=sys.stderr)
        return 1
    except BaseException:
        etype, value, tb = sys.exc_info()
        traceback.print_exception(etype, value, tb.tb_next)
        return 1
"""
# Made once here, so that a run's process does not compile or build them (every page it writes is a copy).
_runner_scope = {}
exec(RUNNER, _runner_scope)
run_source = _runner_scope["__ecu_run"]
RUN_STDOUT = open(1, "w", encoding="utf-8", errors="backslashreplace", buffering=1, closefd=False)
RUN_STDERR = open(2, "w", encoding="utf-8", errors="backslashreplace", buffering=1, closefd=False)


def check(result, what):
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def write_file(path, text):
    with open(path, "w") as f:
        f.write(text)


def mount(source, target, fstype, flags, data):
    check(
        libc.mount(
            source.encode() if source else None,
            target.encode(),
            fstype.encode() if fstype else None,
            ctypes.c_ulong(flags),
            data.encode() if data else None,
        ),
        f"mount {target}",
    )


class CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


NO_CAPABILITIES = (CapHeader(0x20080522, 0), (CapData * 2)())


def drop_capabilities():
    header, data = NO_CAPABILITIES
    check(libc.capset(ctypes.byref(header), ctypes.byref(data)), "capset")
    check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")


def set_limits(limits):
    for which, value in (
        (resource.RLIMIT_AS, limits["memoryMb"] * 1024 * 1024),
        (resource.RLIMIT_NPROC, limits["processes"]),
        (resource.RLIMIT_NOFILE, limits["openFiles"]),
        (resource.RLIMIT_FSIZE, limits["fileMb"] * 1024 * 1024),
        (resource.RLIMIT_CORE, 0),
    ):
        resource.setrlimit(which, (value, value))


def signal_name(number):
    """SIGKILL for 9; a real-time signal, which has no name here, as SIG40."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"SIG{number}"


FIGURES_NAME = ".ecu-figures.json"
FIGURES = f"/work/{FIGURES_NAME}"


def describe_figure(figure):
    """Alt text from what the figure says about itself: titles and axis labels."""
    parts = []
    if figure._suptitle is not None and figure._suptitle.get_text():
        parts.append(figure._suptitle.get_text())
    for axes in figure.get_axes():
        labels = [axes.get_title()]
        if axes.get_xlabel():
            labels.append(f"x: {axes.get_xlabel()}")
        if axes.get_ylabel():
            labels.append(f"y: {axes.get_ylabel()}")
        text = ", ".join(label for label in labels if label)
        if text:
            parts.append(text)
    return "; ".join(parts) or "A figure"


def save_figures(described):
    """Open figures become PNG files, as a notebook would show them: at plt.show() and at the end."""
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return
    for number in plt.get_fignums():
        figure = plt.figure(number)
        name = f"figure-{len(described) + 1}.png"
        try:
            figure.savefig(name, format="png", dpi=100)
            described[name] = describe_figure(figure)
        except Exception as error:
            print(f"The figure could not be saved: {error}", file=sys.stderr)
        plt.close(figure)


def prepare_program():
    """In the run's PID 1, before its program is known: everything that does
    not depend on the program, so that a program starts as soon as it comes.
    The environment is the warm parent's, which bubblewrap set."""
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    set_limits(CONFIG)
    drop_capabilities()
    os.chdir("/work")
    # The warm parent's random state must not be every run's.
    random.seed()
    if "numpy" in sys.modules:
        sys.modules["numpy"].random.seed()
    # Output reaches the parent as it is written.
    sys.stdout, sys.stderr = RUN_STDOUT, RUN_STDERR


def run_program(code, cpu_seconds):
    """In the run's PID 1: the program, then its figures' alt text beside them."""
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds))
    described = {}
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].show = lambda *args, **kwargs: save_figures(described)
    status = run_source(code)
    try:
        save_figures(described)
        if described:
            write_file(FIGURES, json.dumps(described))
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(status)


# Reading a run's files: through descriptors only, never following a link, never blocking on a FIFO.
READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
# How much of a working directory is looked at: a run may leave thousands of files.
MAX_ENTRIES, MAX_DEPTH = 10_000, 16


def read_regular(dir_fd, name, limit):
    """A regular file's bytes if it has at most `limit` of them; None for anything else."""
    fd = os.open(name, READ_FLAGS, dir_fd=dir_fd)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read(limit + 1)
        return data if len(data) <= limit else None
    finally:
        os.close(fd)


def collect_files(work_fd, limits):
    """What the run left in its working directory (a descriptor of it), within
    the caps; the rest is counted, not sent. Figures carry the alt text the
    program's process wrote beside them."""
    try:
        described = json.loads(read_regular(work_fd, FIGURES_NAME, 1 << 20) or b"{}")
    except Exception:  # The program wrote it: "[" * 100000 is a RecursionError.
        described = {}
    if not isinstance(described, dict):
        described = {}
    files, state = [], {"cut": 0, "total": 0, "seen": 0}

    def walk(dir_fd, prefix, depth):
        # Listed lazily and only up to the limit: a run may leave a million empty files, and this
        # process serves every run's output meanwhile.
        entries = []
        with os.scandir(dir_fd) as listing:
            for entry in listing:
                state["seen"] += 1
                if state["seen"] > MAX_ENTRIES:
                    break
                entries.append(entry)
        entries.sort(key=lambda entry: entry.name)
        for entry in entries:
            relative = prefix + entry.name
            if relative == FIGURES_NAME or not entry.is_file(follow_symlinks=False):
                continue
            if len(files) >= limits["maxFiles"]:
                state["cut"] += 1
                continue
            room = min(limits["maxFileBytes"], limits["maxTotalFileBytes"] - state["total"])
            try:
                data = read_regular(dir_fd, entry.name, room)
            except OSError:
                continue
            if data is None:
                state["cut"] += 1
                continue
            state["total"] += len(data)
            alt = described.get(relative)
            files.append({
                # A name that is not UTF-8 reaches the student with replacement characters, not lone surrogates.
                "name": relative.encode("utf-8", "surrogateescape").decode("utf-8", "replace"),
                "mediaType": mimetypes.guess_type(entry.name)[0] or "application/octet-stream",
                "alt": alt if isinstance(alt, str) else None,
                "data": base64.b64encode(data).decode(),
            })
        if depth < MAX_DEPTH:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    try:
                        sub = os.open(entry.name, DIR_FLAGS, dir_fd=dir_fd)
                    except OSError:
                        continue
                    try:
                        walk(sub, prefix + entry.name + "/", depth + 1)
                    finally:
                        os.close(sub)

    try:
        walk(work_fd, "", 0)
    except OSError:
        pass
    return files, state["cut"]


def prepared_run(code_r, out_w, err_w, status_w, alone):
    """In a new child, ahead of any program: new namespaces, a private /tmp
    and /work, and the program's process as PID 1, waiting for its code.
    `alone`: this process was cloned into the namespaces and is that PID 1;
    otherwise it enters them and forks the program's process, then reports."""
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.dup2(out_w, 1)
        os.dup2(err_w, 2)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(status_w, 3)
        os.dup2(code_r, 4)
        os.closerange(5, 1 << 16)
        os.setsid()
        if not alone:
            check(libc.unshare(RUN_NAMESPACES), "unshare")
        write_file("/proc/self/setgroups", "deny")
        write_file("/proc/self/uid_map", f"{UID} {UID} 1")
        write_file("/proc/self/gid_map", f"{GID} {GID} 1")
        mount(None, "/", None, MS_REC | MS_PRIVATE, None)
        size = f"size={CONFIG['diskMb']}m"
        mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, f"{size},mode=1777")
        mount("tmpfs", "/work", "tmpfs", MS_NOSUID | MS_NODEV, f"{size},mode=0755,uid={UID},gid={GID}")
        # The zygote's /proc shows every run's processes, and a fresh one cannot be
        # mounted under bubblewrap's read-only parts of it: the program gets none.
        mount("tmpfs", "/proc", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0555")
        # Shared memory, semaphores and terminals of its own: bubblewrap's /dev (read-only) is every run's.
        mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, f"{size},mode=1777")
        mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620")
        if alone:
            # Ready: the warm parent opens this run's /work now, and reads its files from there once it has ended.
            os.write(3, b"r")
        pid = 0 if alone else os.fork()
        if pid == 0:
            os.close(3)
            prepare_program()
            with os.fdopen(4, "rb") as code_in:
                message = json.loads(code_in.read())
            run_program(message["code"], message["cpuSeconds"])
        # The program's output ends when its processes end, not when this one does.
        os.close(4)
        os.dup2(0, 1)
        os.dup2(0, 2)
        _, status = os.waitpid(pid, 0)
        if os.WIFSIGNALED(status):
            report = {"code": None, "signal": signal_name(os.WTERMSIG(status))}
        else:
            report = {"code": os.WEXITSTATUS(status), "signal": None}
        work = os.open("/work", DIR_FLAGS)
        report["files"], report["filesCut"] = collect_files(work, CONFIG)
        with os.fdopen(3, "wb") as status_out:
            status_out.write(json.dumps(report).encode())
        os._exit(0)
    except BaseException as error:
        try:
            os.write(2, f"The sandbox could not start the program: {error}\n".encode())
        finally:
            os._exit(70)


class Runner:
    """A prepared run: its process waits for code on `code_w`."""

    def __init__(self):
        code_r, self.code_w = os.pipe()
        self.out_r, out_w = os.pipe()
        self.err_r, err_w = os.pipe()
        self.status_r, status_w = os.pipe()
        sys.stdout.flush()
        self.alone = CLONE is not None
        self.pid = clone_process(CLONE, RUN_NAMESPACES) if self.alone else os.fork()
        if self.pid == 0:
            prepared_run(code_r, out_w, err_w, status_w, self.alone)
        for fd in (code_r, out_w, err_w, status_w):
            os.close(fd)

    def open_work(self):
        """Once the prepared run is ready (or gone): a descriptor of its /work, which outlives its process."""
        try:
            if os.read(self.status_r, 1) != b"r":
                return None
            return os.open(f"/proc/{self.pid}/root/work", DIR_FLAGS)
        except OSError:
            return None

    def discard(self):
        for fd in (self.code_w, self.out_r, self.err_r, self.status_r):
            os.close(fd)


class Run:
    def __init__(self, run_id, runner, limit):
        pid, out_r, err_r, status_r = runner.pid, runner.out_r, runner.err_r, runner.status_r
        self.id = run_id
        self.pid = pid
        # Its process is the program's: the exit comes from the kernel, the files from its /work, read here.
        self.alone = runner.alone
        self.work_fd = runner.open_work() if runner.alone else None
        self.streams = {out_r: "stdout", err_r: "stderr"}
        self.decoders = {out_r: codecs.getincrementaldecoder("utf-8")("replace"), err_r: codecs.getincrementaldecoder("utf-8")("replace")}
        self.status_r = status_r
        self.status = b""
        self.open = 3
        self.limit = limit
        self.sent = {"stdout": 0, "stderr": 0}
        self.cut = {"stdout": 0, "stderr": 0}
        self.exit_status = None


def main():
    out = sys.stdout.buffer

    def send(message):
        out.write(json.dumps(message).encode() + b"\n")
        out.flush()

    selector = selectors.DefaultSelector()
    runs = {}
    by_fd = {}
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    selector.register(sys.stdin.fileno(), selectors.EVENT_READ, "in")
    selector.register(wake_r, selectors.EVENT_READ, "wake")
    pending = b""
    send({"type": "ready", "modules": loaded, "python": sys.version.split()[0], "forksPerRun": 1 if CLONE else 2})

    def finish_if_done(run):
        """A run ends when its output has ended and either its runner reported
        (its own teardown comes after) or it died without a report."""
        if run.open:
            return
        try:
            report = json.loads(run.status or b"{}")
        except ValueError:
            report = {}
        if not isinstance(report, dict):
            report = {}
        if run.alone or "code" not in report:
            status = run.exit_status
            if status is None:
                return
            # A program's own exit (it may not lie about it), a start-up failure (exit 70),
            # or a run killed before it could report.
            exit = {"code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
                    "signal": signal_name(os.WTERMSIG(status)) if os.WIFSIGNALED(status) else None}
        else:
            exit = {"code": report["code"], "signal": report["signal"]}
        if run.alone:
            try:
                files, files_cut = collect_files(run.work_fd, CONFIG) if run.work_fd is not None else ([], 0)
            except Exception:
                # Whatever a run left, it must not take this process, and every other run, down.
                files, files_cut = [], 0
        else:
            files, files_cut = report.get("files", []), report.get("filesCut", 0)
        if run.work_fd is not None:
            os.close(run.work_fd)
        del runs[run.id]
        send({
            "type": "exit",
            "id": run.id,
            "code": exit["code"],
            "signal": exit["signal"],
            "cut": run.cut,
            "files": files,
            "filesCut": files_cut,
        })

    def on_data(fd, run):
        data = os.read(fd, 65536)
        if fd == run.status_r:
            if data:
                if len(run.status) < MAX_STATUS_BYTES:
                    run.status += data
                return
        elif data:
            stream = run.streams[fd]
            text = run.decoders[fd].decode(data)
            room = run.limit - run.sent[stream]
            if len(text) > room:
                run.cut[stream] += len(text) - max(room, 0)
                text = text[: max(room, 0)]
            if text:
                run.sent[stream] += len(text)
                send({"type": "output", "id": run.id, "stream": stream, "text": text})
            return
        selector.unregister(fd)
        os.close(fd)
        del by_fd[fd]
        run.open -= 1
        finish_if_done(run)

    ready = []

    def refill():
        while len(ready) < PREPARED:
            ready.append(Runner())

    def reap():
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            for runner in ready:
                if runner.pid == pid:
                    # A prepared run that ended before it had a program: replace it.
                    ready.remove(runner)
                    runner.discard()
                    break
            for run in runs.values():
                if run.pid == pid:
                    run.exit_status = status
                    finish_if_done(run)
                    break

    def command(message):
        if message.get("type") == "kill":
            run = runs.get(message.get("id"))
            if run:
                try:
                    os.kill(run.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            return
        if message.get("type") != "run":
            return
        reap()
        runner = ready.pop(0) if ready else Runner()
        # Before the program has its code: its /work is opened while its process is sure to be there.
        run = Run(message["id"], runner, message["limits"]["outputChars"])
        try:
            os.write(runner.code_w, json.dumps({"code": message["code"], "cpuSeconds": message["limits"]["cpuSeconds"]}).encode())
        except OSError:
            pass  # It died while waiting: its exit says so.
        os.close(runner.code_w)
        runs[run.id] = run
        for fd in (runner.out_r, runner.err_r, runner.status_r):
            by_fd[fd] = run
            selector.register(fd, selectors.EVENT_READ, "run")
        send({"type": "started", "id": run.id})

    refill()
    while True:
        events = selector.select(timeout=0)
        if not events:
            # Nothing to relay: prepare the next run, or wait. A fork holds this loop for
            # milliseconds, so while programs run, one prepared run is enough.
            if len(ready) < (PREPARED if not runs else 1):
                ready.append(Runner())
                continue
            events = selector.select()
        for key, _ in events:
            if key.data == "wake":
                os.read(wake_r, 4096)
                reap()
            elif key.data == "in":
                chunk = os.read(key.fd, 1 << 20)
                if not chunk:
                    # The parent is gone: so are the runs.
                    for run in runs.values():
                        try:
                            os.kill(run.pid, signal.SIGKILL)
                        except ProcessLookupError:
                            pass
                    os._exit(0)
                pending += chunk
                while b"\n" in pending:
                    line, pending = pending.split(b"\n", 1)
                    if line.strip():
                        command(json.loads(line))
            else:
                run = by_fd.get(key.fd)
                if run:
                    on_data(key.fd, run)
        reap()


main()
