"""The CPython engine's warm parent (the "zygote").

Over 300 lines: the interpreter runs it as one script, with no package of
its own to import from.

It runs inside bubblewrap (no network, its own PID, IPC and user
namespaces, a read-only /usr; uid 1000, or uid 0 with only CAP_SETUID and CAP_SETGID there when
each run is a host user of its own), imports the scientific stack once,
and clones a fresh process for each program, a couple of them ahead of
time, straight into namespaces of its own (user, mount, PID, network, IPC,
UTS): a private /tmp and working directory, an empty /proc, limits, no
capabilities, a seccomp filter (no further namespaces, no kernel object counted per
host user, no socket family past the network namespace), and the program
itself runs as PID 1 of its namespace, so everything it starts dies with it.

This process never holds a run's data. It never receives a program, never
reads a run's output and never opens a run's files: it gets a run's pipes
and tells the Node parent their descriptor numbers, the parent opens them
through /proc and talks to the run directly, and only then does this
process close its own copies.

Nor is a run a copy of this process, which keeps the bookkeeping of every
run (ids, pids, exits): runs are cloned by the "maker", a child forked
before this process has heard of any run. The maker clones each run as a
child of this process (CLONE_PARENT) and hands its pipes over a socket, so
a run's memory holds nothing another run ever put anywhere. (Where glibc's
layout is not known, runs are forked twice from this process instead.)

Protocol with the Node parent: one JSON object a line, numbers only (but
the reason a run could not be prepared, which no program had a part in).
  in:  {"type":"run","id"}  {"type":"opened","id"}  {"type":"kill","id"}
  out: {"type":"ready","pid","modules","python","forksPerRun"}
       {"type":"started","id","pid","fds":{"code","stdout","stderr","work"}}
       {"type":"exit","id","code","signal"}
       {"type":"refused","id","reason"}
A run reads its program from its code pipe: 8 bytes of length, then that
many bytes of JSON {"code","cpuSeconds"}.
"""

import ctypes
import errno
import gc
import json
import os
import random
import resource
import selectors
import signal
import socket
import struct
import sys
import time

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


def module_generators():
    """Random generators that modules made and seeded at import (random's, numpy's, sympy's
    `sympy.core.random.rng` and the like): every run reseeds them, or each would draw the same numbers."""
    found = {}
    numpy_random = sys.modules.get("numpy.random")
    kinds = (random.Random,) + ((numpy_random.RandomState,) if numpy_random else ())
    for module in list(sys.modules.values()):
        for value in list(getattr(module, "__dict__", {}).values()):
            if isinstance(value, kinds) and not isinstance(value, random.SystemRandom):
                found[id(value)] = value
    return list(found.values())


GENERATORS = module_generators()
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
CLONE_NEWCGROUP = 0x02000000


# Socket families a run may use: unix, IPv4 and IPv6 (in its own, empty network namespace), and
# netlink (how glibc lists interfaces). Others reach past a network namespace (vsock is the VM's).
AF_UNIX, AF_INET, AF_INET6, AF_NETLINK = 1, 2, 10, 16
F_SETPIPE_SZ = 1031


def run_filter():
    """A seccomp filter for a run. It may make no namespace of its own (user, mount, cgroup, ...), so it
    keeps the run's and sees nothing of the host's cgroups; clone3's flags sit behind a pointer a filter
    cannot read, so clone3 answers ENOSYS and glibc falls back to clone. And it reaches nothing the
    kernel counts per host user, which every run shares (inotify instances, keys, pipe sizes,
    io_uring), nor a socket family that a network namespace does not wall off."""
    import seccomp

    rules = seccomp.SyscallFilter(defaction=seccomp.ALLOW)

    def refuse(errno_value, *names, arg=None):
        for name in names:
            try:
                rules.add_rule(seccomp.ERRNO(errno_value), name, *([arg] if arg else []))
            except (RuntimeError, ValueError, OSError):
                pass  # A system call this architecture does not have.

    refuse(errno.EPERM, "unshare", "setns")
    refuse(errno.ENOSYS, "clone3")
    for flag in (CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWIPC, CLONE_NEWUTS, CLONE_NEWCGROUP):
        refuse(errno.EPERM, "clone", arg=seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
    allowed = (AF_UNIX, AF_INET, AF_INET6, AF_NETLINK)
    for family in [f for f in range(max(allowed)) if f not in allowed]:
        refuse(errno.EAFNOSUPPORT, "socket", "socketpair", arg=seccomp.Arg(0, seccomp.EQ, family))
    refuse(errno.EAFNOSUPPORT, "socket", "socketpair", arg=seccomp.Arg(0, seccomp.GT, max(allowed)))
    refuse(errno.ENOSYS, "inotify_init", "inotify_init1", "fanotify_init", "add_key", "keyctl", "request_key")
    refuse(errno.ENOSYS, "io_uring_setup", "io_uring_enter", "io_uring_register")
    refuse(errno.EPERM, "fcntl", arg=seccomp.Arg(1, seccomp.EQ, F_SETPIPE_SZ))
    # Compiled here once: libseccomp's own load() compiles again in every run, which costs a
    # run cloned from this process about as much as the rest of a small program.
    read_end, write_end = os.pipe()
    with os.fdopen(write_end, "wb") as out:
        rules.export_bpf(out)
    with os.fdopen(read_end, "rb") as compiled:
        return compiled.read()


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
RUN_FILTER_CODE = run_filter()
_run_filter_buffer = ctypes.create_string_buffer(RUN_FILTER_CODE, len(RUN_FILTER_CODE))
RUN_FILTER = SockFprog(len(RUN_FILTER_CODE) // 8, ctypes.cast(_run_filter_buffer, ctypes.c_void_p))


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

    def holds_tid(offsets):
        tid = libc.syscall(gettid)
        return [off for off in offsets if ctypes.c_int.from_address(descriptor + off).value == tid]

    offsets = holds_tid(range(0, 4096, 4))
    if len(offsets) > 1:
        # A small id (this process is one of the first in its namespace) is found in other fields too; in a
        # child of fork(), which glibc gives its new id, only the one glibc reads holds it.
        offsets = in_forked_child(lambda: holds_tid(offsets))
    if len(offsets) != 1:
        return None
    return number, order, ctypes.c_void_p(descriptor + offsets[0]), gettid


def in_forked_child(work):
    """What `work()` returns (a list of ints) in a child of os.fork()."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        try:
            os.write(write_end, json.dumps(work()).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as answer:
        found = answer.read()
    os.waitpid(pid, 0)
    try:
        return json.loads(found)
    except ValueError:
        return []


# Called with the GIL held, as os.fork() calls fork().
python_libc = ctypes.PyDLL(None, use_errno=True)
CLONE_CHILD_CLEARTID, CLONE_CHILD_SETTID, SIGCHLD = 0x00200000, 0x01000000, 17
CLONE_PARENT = 0x00008000


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


# Per sandbox, from the parent: the size of each run's /tmp, /mnt/data and /dev/shm, and each run's limits.
CONFIG = {
    "diskMb": 64,
    "memoryMb": 1024,
    "processes": 16,
    "openFiles": 64,
    "fileMb": 64,
    "clone": True,
}
if len(sys.argv) > 1:
    CONFIG.update(json.loads(sys.argv[1]))
# How each run's process is made (clone_setup): None forks, unshares and forks again.
CLONE = checked_clone_setup() if CONFIG["clone"] else None
# Runs prepared ahead, so a program starts without waiting for two forks and the namespaces.
PREPARED = 2
# How many prepared runs a program may go through before it is refused: each failed to start.
PREPARE_TRIES = 3
# Where the server maps a range of host users into this sandbox ("slots"), each run is a host user of
# its own (this process, uid 0 here, maps it): what the kernel counts per user is then counted per run.
SLOTS = list(range(10000, 10000 + 4096)) if CONFIG.get("slots") else None
# Files, folders and links in each of a run's /tmp, /mnt/data and /dev/shm.
MAX_INODES = 32768
# A fork-twice run's report of its program's exit: {"code","signal"}.
MAX_REPORT_BYTES = 4096

RUNNER = """
import sys, traceback, linecache
# run_program(source, namespace), from src/contract/run-program-py.ts: cpython-executor.ts puts it here.
#@run_program
def __ecu_run(source, facts):
    return run_program(source, {"__name__": "__main__"}, facts)
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
    # Queued signals and message-queue bytes count for every run together too (one host user): each
    # run gets a small share, so that none can use up what the others would need.
    for which, value in (
        (resource.RLIMIT_AS, limits["memoryMb"] * 1024 * 1024),
        (resource.RLIMIT_NPROC, limits["processes"]),
        (resource.RLIMIT_NOFILE, limits["openFiles"]),
        (resource.RLIMIT_FSIZE, limits["fileMb"] * 1024 * 1024),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_SIGPENDING, 1024),
        (resource.RLIMIT_MSGQUEUE, 64 * 1024),
    ):
        resource.setrlimit(which, (value, value))


def signal_name(number):
    """SIGKILL for 9; a real-time signal, which has no name here, as SIG40."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"SIG{number}"


FIGURES_NAME = ".ecu-figures.json"
RUN_DIR = "/mnt/data"  # codeapi's, where models are told to write
FIGURES = f"{RUN_DIR}/{FIGURES_NAME}"
# Why the program failed (contract/failure.ts), beside its files, for the Node parent to read.
FAILURE = f"{RUN_DIR}/.ecu-failure.json"


# describe_figure(figure), from src/server/figure-words.ts: cpython-executor.ts puts it here.
#@describe_figure


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
    os.chdir(RUN_DIR)
    # The warm parent's random state must not be every run's.
    for generator in GENERATORS:
        generator.seed()
    # Output reaches the parent as it is written.
    sys.stdout, sys.stderr = RUN_STDOUT, RUN_STDERR


def lock_down():
    """In the run's PID 1 once its program has come: its own user, its limits, no capabilities, the
    filter. Not before: until then the warm parent, another user, may still open its /mnt/data."""
    if SLOTS is not None:
        # Its own host user, which the warm parent mapped to 1000 here.
        os.setgroups([])
        os.setresgid(GID, GID, GID)
        os.setresuid(UID, UID, UID)
    set_limits(CONFIG)
    drop_capabilities()
    check(libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(RUN_FILTER), 0, 0), "seccomp")


def read_exactly(fd, count):
    chunks = []
    while count:
        chunk = os.read(fd, min(count, 1 << 20))
        if not chunk:
            raise EOFError("the program's pipe closed early")
        chunks.append(chunk)
        count -= len(chunk)
    return b"".join(chunks)


def receive_program(fd):
    """The program, straight from the Node parent: 8 bytes of length, then JSON; the bytes of
    the files it names (`files`: name and size each) follow, read by `receive_files`."""
    (length,) = struct.unpack(">Q", read_exactly(fd, 8))
    return json.loads(read_exactly(fd, length))


# A given file's access time before the program: any read moves it (relatime updates one this old),
# which the Node parent reads afterwards to tell which files the program opened.
UNREAD_NS = 1_000_000_000
CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def receive_files(fd, files):
    """As the run's own user, once locked down: its given files into its empty /mnt/data, then the pipe
    closes. Only this run's files pass through it; they count against its disk and memory. They come
    newest first: one that clashes with a newer file or folder (a file where a folder now is) is
    skipped, its bytes read and dropped."""
    try:
        for file in files:
            name, size = file["name"], file["size"]
            parts = name.split("/")
            if any(part in ("", ".", "..") or "\0" in part for part in parts):
                raise OSError(f"a file name that is not a path under /mnt/data: {name!r}")
            out = None
            try:
                if len(parts) > 1:
                    os.makedirs("/".join(parts[:-1]), exist_ok=True)
                out = os.open(name, CREATE_FLAGS, 0o644)
            except (FileExistsError, NotADirectoryError, IsADirectoryError):
                pass
            try:
                while size:
                    chunk = os.read(fd, min(size, 1 << 20))
                    if not chunk:
                        raise EOFError("the program's pipe closed early")
                    view = memoryview(chunk)
                    while out is not None and view:
                        view = view[os.write(out, view) :]
                    size -= len(chunk)
            finally:
                if out is not None:
                    os.close(out)
            if out is not None:
                os.utime(name, ns=(UNREAD_NS, time.time_ns()))
    except OSError as error:
        if error.errno in (errno.ENOSPC, errno.EFBIG):
            raise OSError(f"the files given to the program do not fit in its working directory ({CONFIG['diskMb']} MB)")
        raise
    finally:
        os.close(fd)


def run_program(code, cpu_seconds):
    """In the run's PID 1: the program, then its figures' alt text and why it failed beside them."""
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds))
    described = {}
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].show = lambda *args, **kwargs: save_figures(described)
    facts = {}
    status = run_source(code, facts)
    try:
        # None of the program's own: a report it wrote itself is taken away.
        if facts:
            write_file(FAILURE, json.dumps(facts))
        elif os.path.lexists(FAILURE):
            os.unlink(FAILURE)
        save_figures(described)
        if described:
            write_file(FIGURES, json.dumps(described))
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(status)


STARTING_FAILED = "The sandbox could not start the program:"
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def prepared_run(code_r, out_w, err_w, status_w, go_r, alone):
    """In a new child, ahead of any program: new namespaces, a private /tmp
    and /mnt/data, and the program's process as PID 1, waiting for its code.
    `alone`: this process was cloned into the namespaces and is that PID 1;
    otherwise it enters them, forks the program's process and reports its exit.
    `go_r`: with slots, where the warm parent says it has mapped this run's user."""
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.dup2(out_w, 1)
        os.dup2(err_w, 2)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(status_w, 3)
        os.dup2(code_r, 4)
        if go_r is not None:
            os.dup2(go_r, 5)
        os.closerange(5 if go_r is None else 6, 1 << 16)
        os.setsid()
        if not alone:
            check(libc.unshare(RUN_NAMESPACES), "unshare")
        if go_r is not None:
            if not alone:
                os.write(3, b"u")
            if os.read(5, 1) != b"g":
                raise OSError("the warm parent did not map the run's user")
            os.close(5)
        else:
            write_file("/proc/self/setgroups", "deny")
            write_file("/proc/self/uid_map", f"{UID} {UID} 1")
            write_file("/proc/self/gid_map", f"{GID} {GID} 1")
        mount(None, "/", None, MS_REC | MS_PRIVATE, None)
        # Files and links each take one of a bounded number of inodes: tearing down a tmpfs of a
        # million links holds up whoever closes it last.
        size = f"size={CONFIG['diskMb']}m,nr_inodes={MAX_INODES}"
        mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, f"{size},mode=1777")
        mount("tmpfs", RUN_DIR, "tmpfs", MS_NOSUID | MS_NODEV, f"{size},mode=0755,uid={UID},gid={GID}")
        # The zygote's /proc shows every run's processes, and a fresh one cannot be
        # mounted under bubblewrap's read-only parts of it: the program gets none.
        mount("tmpfs", "/proc", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0555")
        # Shared memory, semaphores and terminals of its own: bubblewrap's /dev (read-only) is every run's.
        mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, f"{size},mode=1777")
        # Terminals come from a pool every run on the host shares: a few each.
        mount("devpts", "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620,max=8")
        # A forked-twice run's program process exists before the run says it is ready, so that the
        # server finds it to put it in the run's group.
        pid = 0 if alone else os.fork()
        if pid != 0 or alone:
            # Ready: the warm parent opens this run's /mnt/data now, for the Node parent to read its files from.
            os.write(3, b"r")
        if pid == 0:
            os.close(3)
            prepare_program()
            message = receive_program(4)
            lock_down()
            receive_files(4, message.get("files", []))
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
        os.write(3, json.dumps(report).encode())
        os._exit(0)
    except BaseException as error:
        try:
            os.write(2, f"{STARTING_FAILED} {error}\n".encode())
        finally:
            os._exit(70)


def make_run(channel):
    """The maker's loop, in a process forked before any run: on each request (b"g": with a go pipe),
    clone a prepared run as a child of the warm parent and hand it the run's pid and its ends of the
    pipes. Everything here is about the run it is making, and is gone before the next."""
    while True:
        request = channel.recv(1)
        if not request:
            os._exit(0)
        pipes = []
        try:
            pipes = run_pipes(request == b"g")
            pid = clone_process(CLONE, RUN_NAMESPACES | CLONE_PARENT)
        except OSError as error:
            # Out of processes or descriptors for a moment: the warm parent raises it, as its own clone would.
            socket.send_fds(channel, [struct.pack("i", -(error.errno or errno.EAGAIN))], [])
            close_pipes(pipes)
            continue
        (code_r, code_w), (out_r, out_w), (err_r, err_w), (status_r, status_w), (go_r, go_w) = pipes
        if pid == 0:
            channel.close()
            prepared_run(code_r, out_w, err_w, status_w, go_r, True)
        ours = [code_w, out_r, err_r, status_r] + ([go_w] if go_w is not None else [])
        socket.send_fds(channel, [struct.pack("i", pid)], ours)
        close_pipes(pipes)


def run_pipes(with_go):
    """A run's pipes, each (read end, write end): its code, stdout, stderr, status and, with
    slots, go ((None, None) without). If one cannot be made, none is left open."""
    pipes = []
    try:
        for _ in range(5 if with_go else 4):
            pipes.append(os.pipe())
    except OSError:
        close_pipes(pipes)
        raise
    return pipes + ([] if with_go else [(None, None)])


def close_pipes(pipes):
    for pair in pipes:
        for fd in pair:
            if fd is not None:
                os.close(fd)


def start_maker():
    """The maker (make_run) and the warm parent's end of its socket; None when runs are forked twice."""
    if CLONE is None:
        return None
    ours, its = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    sys.stdout.flush()
    if os.fork() == 0:
        ours.close()
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        # Nothing of the parent's protocol: its output is the Node parent's, its input only ever the parent's.
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null, 1)
        try:
            make_run(its)
        finally:
            os._exit(1)
    its.close()
    return ours


class Runner:
    """A prepared run: its process waits for its program on a pipe only the Node parent will write to."""

    def __init__(self):
        self.slot = take_slot()
        self.alone = MAKER is not None
        if self.alone:
            MAKER.send(b"g" if self.slot is not None else b"r")
            pid, fds, _, _ = socket.recv_fds(MAKER, 4, 5)
            if len(pid) != 4:
                raise OSError("the maker of runs is gone")
            (self.pid,) = struct.unpack("i", pid)
            if self.pid < 0:
                give_slot(self.slot)
                raise OSError(-self.pid, os.strerror(-self.pid))
            self.code_w, self.out_r, self.err_r, self.status_r = fds[:4]
            go_w = fds[4] if self.slot is not None else None
        else:
            pipes = run_pipes(self.slot is not None)
            (code_r, self.code_w), (self.out_r, out_w), (self.err_r, err_w), (self.status_r, status_w), (go_r, go_w) = pipes
            sys.stdout.flush()
            self.pid = os.fork()
            if self.pid == 0:
                prepared_run(code_r, out_w, err_w, status_w, go_r, False)
            for fd in (code_r, out_w, err_w, status_w) + ((go_r,) if go_r is not None else ()):
                os.close(fd)
        if self.slot is not None:
            try:
                # A forked-twice run says when it has its namespaces; a cloned one has them now.
                if self.alone or os.read(self.status_r, 1) == b"u":
                    write_file(f"/proc/{self.pid}/uid_map", f"{UID} {self.slot} 1")
                    write_file(f"/proc/{self.pid}/gid_map", f"{GID} {self.slot} 1")
                    os.write(go_w, b"g")
            except OSError:
                pass  # It died preparing: it is reaped and replaced.
            os.close(go_w)

    def open_work(self):
        """Once the prepared run is ready: a descriptor of its /mnt/data, which outlives its process; None if it failed."""
        try:
            if os.read(self.status_r, 1) != b"r":
                return None
            return os.open(f"/proc/{self.pid}/root{RUN_DIR}", DIR_FLAGS)
        except OSError:
            return None

    def discard(self):
        for fd in (self.code_w, self.out_r, self.err_r, self.status_r):
            os.close(fd)
        give_slot(self.slot)

    def failed(self):
        """A prepared run that ended without saying it was ready: why, as it wrote it. Its process is
        reaped here, so that its user goes back to the slots only once nothing of it is alive."""
        os.set_blocking(self.err_r, False)
        try:
            said = os.read(self.err_r, 4096).decode(errors="replace").strip()
        except OSError:
            said = ""
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        self.discard()
        return said.removeprefix(STARTING_FAILED).strip() or "its process ended before it was ready"


def take_slot():
    """A host user for a new run, none of whose processes is alive; None without slots, or (with
    thousands of runs alive at once) when every one is taken: the run then maps 1000 here, as without."""
    return SLOTS.pop(0) if SLOTS else None


def give_slot(slot):
    if slot is not None:
        SLOTS.append(slot)


class Run:
    """A run the Node parent has: this process keeps its pipes only until the parent has opened them."""

    def __init__(self, run_id, runner, work):
        self.id = run_id
        self.pid = runner.pid
        self.alone = runner.alone
        self.slot = runner.slot
        self.handed = [runner.code_w, runner.out_r, runner.err_r] + ([work] if work is not None else [])
        self.fds = {"code": runner.code_w, "stdout": runner.out_r, "stderr": runner.err_r, "work": work}
        # A forked-twice run's middle process reports its program's exit here.
        self.status_r = runner.status_r
        self.report = b""
        self.exit_status = None

    def close_handed(self):
        for fd in self.handed:
            os.close(fd)
        self.handed = []


MAKER = start_maker()


def main():
    out = sys.stdout.buffer

    def send(message):
        out.write(json.dumps(message).encode() + b"\n")
        out.flush()

    selector = selectors.DefaultSelector()
    runs = {}
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    selector.register(sys.stdin.fileno(), selectors.EVENT_READ, "in")
    selector.register(wake_r, selectors.EVENT_READ, "wake")
    pending = []
    send({
        "type": "ready",
        "pid": os.getpid(),
        "modules": loaded,
        "python": sys.version.split()[0],
        "forksPerRun": 1 if CLONE else 2,
    })

    def finish(run):
        """Its process has ended: say how. A cloned run's exit is its program's own; a
        forked-twice run's comes from its middle process, or from that process's death."""
        del runs[run.id]
        give_slot(run.slot)
        status = run.exit_status
        exit = {"code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
                "signal": signal_name(os.WTERMSIG(status)) if os.WIFSIGNALED(status) else None}
        if not run.alone:
            try:
                while len(run.report) < MAX_REPORT_BYTES:
                    chunk = os.read(run.status_r, MAX_REPORT_BYTES)
                    if not chunk:
                        break
                    run.report += chunk
            except OSError:
                pass
            try:
                report = json.loads(run.report or b"{}")
                if isinstance(report, dict) and "code" in report:
                    exit = {"code": report["code"], "signal": report["signal"]}
            except ValueError:
                pass
        os.close(run.status_r)
        run.close_handed()
        send({"type": "exit", "id": run.id, **exit})

    ready = []

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
                    finish(run)
                    break

    def command(message):
        kind, run_id = message.get("type"), message.get("id")
        if kind == "opened":
            run = runs.get(run_id)
            if run:
                run.close_handed()
        elif kind == "kill":
            run = runs.get(run_id)
            if run:
                try:
                    os.kill(run.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        elif kind == "run" and run_id not in runs:
            reap()
            # Only a run that said it is ready is handed out; one that failed to prepare (a mount or a fork
            # refused for a moment) is replaced, and after a few the program is refused with the reason.
            for _ in range(PREPARE_TRIES):
                try:
                    runner = ready.pop(0) if ready else Runner()
                except OSError as error:
                    # Out of processes or memory for a moment: this program is refused, the warm parent goes on.
                    # (A maker of runs that is gone is no moment: that ends it, and the Node parent starts anew.)
                    if error.errno is None:
                        raise
                    reason = str(error)
                    continue
                work = runner.open_work()
                if work is not None:
                    break
                reason = runner.failed()
            else:
                send({"type": "refused", "id": run_id, "reason": reason})
                return
            run = Run(run_id, runner, work)
            os.set_blocking(run.status_r, False)
            runs[run_id] = run
            send({"type": "started", "id": run_id, "pid": run.pid, "fds": run.fds})

    while True:
        events = selector.select(timeout=0)
        if not events:
            # Nothing to do: prepare the next run, or wait. A fork holds this loop for
            # milliseconds, so while programs run, one prepared run is enough.
            if len(ready) < (PREPARED if not runs else 1):
                try:
                    ready.append(Runner())
                    continue
                except OSError as error:
                    # A fork refused for a moment is tried again at the next wake-up, not the end of every run.
                    if error.errno is None:
                        raise
            events = selector.select()
        for key, _ in events:
            if key.data == "wake":
                os.read(wake_r, 4096)
                reap()
            elif key.data == "in":
                chunk = os.read(key.fd, 1 << 16)
                if not chunk:
                    # The parent is gone: so are the runs.
                    for run in runs.values():
                        try:
                            os.kill(run.pid, signal.SIGKILL)
                        except ProcessLookupError:
                            pass
                    os._exit(0)
                # Lines split as they come: each byte is looked at once.
                lines = chunk.split(b"\n")
                pending.append(lines[0])
                for line in lines[1:]:
                    whole, pending[:] = b"".join(pending), [line]
                    if whole.strip():
                        command(json.loads(whole))
        reap()


main()
