import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { probeRunCgroups } from "./run-cgroups.js";

/** Whether the CPython engine can run here, and if not, why. */
export type CpythonAvailability = { available: true } | { available: false; reason: string };

/** Read-only parts of the host the interpreter needs: /usr, and the /etc files the libraries read. */
const ETC_FILES = ["/etc/alternatives", "/etc/ld.so.cache", "/etc/matplotlibrc", "/etc/fonts"];

/**
 * The host user bubblewrap runs as. A harness started as root hands the
 * sandbox to `nobody`: the kernel does not count root's processes against
 * a run's process limit, and root on the host is what the run's uid maps to.
 */
export const hostUser = () => (process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {});

/**
 * Where each run is a host user of its own: a harness started as root maps
 * this range of host users into the sandbox (from its first user on), and the
 * warm parent gives each run one of them. Far above the users a host has.
 */
export const RUN_USERS = { hostBase: 2_000_000_000, count: 65_535 };

/**
 * Who the warm parent is in bubblewrap. With `runUsers` (the harness is
 * root), it is uid 0 there with the two capabilities that map a run's user,
 * and bubblewrap waits on descriptor 4 while the server writes the sandbox's
 * map (bubblewrap says its process on descriptor 5): its own host user, then
 * `RUN_USERS`. Otherwise it is uid 1000, and every run is that user too.
 */
function identity(runUsers: boolean): string[] {
  if (!runUsers) return ["--uid", "1000", "--gid", "1000"];
  return [
    "--unshare-user",
    "--userns-block-fd",
    "4",
    "--info-fd",
    "5",
    "--uid",
    "0",
    "--gid",
    "0",
    "--cap-add",
    "CAP_SETUID",
    "--cap-add",
    "CAP_SETGID",
  ];
}

export function bwrapArgs(python: string, script: string[], runUsers = false): string[] {
  return [
    "--unshare-all",
    // Its own name, not the host's: every run's UTS namespace starts from it.
    "--hostname",
    "sandbox",
    "--die-with-parent",
    "--new-session",
    "--ro-bind",
    "/usr",
    "/usr",
    // What the host installed by hand (tools, their settings and tokens) is not the interpreter's.
    ...(python.startsWith("/usr/local/") ? [] : ["--tmpfs", "/usr/local"]),
    "--symlink",
    "usr/lib",
    "/lib",
    "--symlink",
    "usr/lib64",
    "/lib64",
    "--symlink",
    "usr/bin",
    "/bin",
    ...ETC_FILES.filter((file) => existsSync(file)).flatMap((file) => ["--ro-bind", file, file]),
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--tmpfs",
    "/tmp",
    "--dir",
    "/mnt/data",
    "--chdir",
    "/mnt/data",
    ...identity(runUsers),
    // The warm parent's environment is every run's: nothing of the host's.
    "--clearenv",
    "--setenv",
    "HOME",
    "/mnt/data",
    "--setenv",
    "TMPDIR",
    "/tmp",
    "--setenv",
    "MPLBACKEND",
    "Agg",
    "--setenv",
    "MPLCONFIGDIR",
    "/tmp",
    "--setenv",
    "OPENBLAS_NUM_THREADS",
    "1",
    "--setenv",
    "OMP_NUM_THREADS",
    "1",
    "--setenv",
    "LANG",
    "C.UTF-8",
    ...script,
    // Nothing of bubblewrap's own tree is writable: a run writes only to its own /tmp, /mnt/data and /dev/shm.
    "--remount-ro",
    "/dev",
    "--remount-ro",
    "/",
    python,
    "-I",
    "-u",
  ];
}

/**
 * Finds out once whether bubblewrap and the interpreter work here, with a
 * run's own namespaces nested inside (a container may forbid them).
 * Takes about 100 ms.
 */
export function probeCpython(
  options: { python?: string; bwrap?: string; allowPerProcessMemoryLimit?: boolean; cgroupRoot?: string } = {},
): CpythonAvailability {
  const python = options.python ?? "/usr/bin/python3";
  const bwrap = options.bwrap ?? "bwrap";
  if (process.platform !== "linux") return { available: false, reason: "the CPython engine needs Linux namespaces." };
  if (!existsSync(python)) return { available: false, reason: `${python} is not installed.` };
  // What a run needs: the libraries, and namespaces of its own inside bubblewrap's.
  const trial = [
    "import ctypes, os, numpy, seccomp",
    "libc = ctypes.CDLL(None, use_errno=True)",
    "pid = os.fork()",
    "if pid == 0: os._exit(0 if libc.unshare(0x10000000 | 0x00020000 | 0x20000000 | 0x40000000) == 0 else 1)",
    "raise SystemExit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) and 'namespaces inside bubblewrap are not allowed')",
  ].join("\n");
  const result = spawnSync(bwrap, [...bwrapArgs(python, []), "-c", trial], {
    encoding: "utf8",
    timeout: 20_000,
    cwd: "/",
    ...hostUser(),
  });
  if (result.error) return { available: false, reason: `bubblewrap cannot be started (${result.error.message}).` };
  if (result.status !== 0) {
    const said = (result.stderr || "").trim().split("\n").at(-1) ?? "";
    return { available: false, reason: `bubblewrap or the interpreter refused: ${said || `exit ${result.status}`}` };
  }
  if (!options.allowPerProcessMemoryLimit) {
    const cgroups = probeRunCgroups({ root: options.cgroupRoot });
    if (!cgroups.available)
      return {
        available: false,
        reason: `no control group can be made for a run's memory and processes (${cgroups.reason}); a per-process limit does not bound memory held in memfd or tmpfs files (allowPerProcessMemoryLimit accepts that)`,
      };
    cgroups.cgroups.close();
  }
  return { available: true };
}
