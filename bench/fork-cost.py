"""What making a run's process costs the CPython engine's warm parent.

Run inside bubblewrap as the engine runs (see BENCHMARKS.md, Reproduce):
imports the scientific stack, then times, per iteration and as CPU of this
process and its children: a bare fork and exit; fork, enter the run's six
namespaces with its mounts, fork again (the engine's "fork-twice"); and one
clone straight into the namespaces (its "clone"), each with and without the
network namespace. Three rounds; the middle value of each is printed.
"""
import ctypes, os, sys, time, gc
for m in ["numpy", "pandas", "matplotlib", "matplotlib.pyplot", "scipy", "sympy"]:
    __import__(m)
gc.collect(); gc.freeze()
libc = ctypes.CDLL(None, use_errno=True)
plibc = ctypes.PyDLL(None, use_errno=True)
NS, UTS, IPC, USER, PID, NET = 0x00020000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000
SIGCHLD = 17
def wf(p, t):
    with open(p, "w") as f: f.write(t)
def setup_child(mount=True):
    wf("/proc/self/setgroups", "deny"); wf("/proc/self/uid_map", "1000 1000 1"); wf("/proc/self/gid_map", "1000 1000 1")
    if mount:
        libc.mount(None, b"/", None, ctypes.c_ulong(16384 | (1 << 18)), None)
        r = libc.mount(b"tmpfs", b"/tmp", b"tmpfs", ctypes.c_ulong(6), b"size=64m")
        if r: raise OSError(ctypes.get_errno(), "mount")
def two_forks(flags):
    pid = os.fork()
    if pid == 0:
        try:
            if libc.unshare(flags): raise OSError(ctypes.get_errno(), "unshare")
            setup_child()
            p2 = os.fork()
            if p2 == 0:
                os._exit(0)
            os.waitpid(p2, 0)
            os._exit(0)
        except BaseException as e:
            os.write(2, str(e).encode()); os._exit(1)
    _, st = os.waitpid(pid, 0)
    assert st == 0, st
def one_clone(flags):
    ctypes.pythonapi.PyOS_BeforeFork()
    pid = plibc.syscall(56, ctypes.c_ulong(flags | SIGCHLD), None, None, None, None)
    if pid == 0:
        ctypes.pythonapi.PyOS_AfterFork_Child()
        try:
            setup_child()
            os._exit(0)
        except BaseException as e:
            os.write(2, str(e).encode()); os._exit(1)
    ctypes.pythonapi.PyOS_AfterFork_Parent()
    if pid < 0: raise OSError(ctypes.get_errno(), "clone")
    _, st = os.waitpid(pid, 0)
    assert st == 0, st
def plain():
    pid = os.fork()
    if pid == 0: os._exit(0)
    os.waitpid(pid, 0)
ALL = USER | NS | PID | NET | IPC | UTS
variants = {
    "plain fork": lambda: plain(),
    "2 forks, all ns": lambda: two_forks(ALL),
    "2 forks, no net": lambda: two_forks(ALL & ~NET),
    "1 clone, all ns": lambda: one_clone(ALL),
    "1 clone, no net": lambda: one_clone(ALL & ~NET),
}
N = int(sys.argv[1]) if len(sys.argv) > 1 else 100
res = {k: [] for k in variants}
for rnd in range(3):
    for k, f in variants.items():
        t0 = time.perf_counter(); c0 = os.times()
        for _ in range(N): f()
        t1 = time.perf_counter(); c1 = os.times()
        cpu = (c1.user + c1.system + c1.children_user + c1.children_system) - (c0.user + c0.system + c0.children_user + c0.children_system)
        res[k].append(((t1 - t0) / N * 1000, cpu / N * 1000))
for k, v in res.items():
    print(f"{k:20s} wall ms/run {sorted(x[0] for x in v)[1]:6.2f}   cpu ms/run (self+children) {sorted(x[1] for x in v)[1]:6.2f}")
