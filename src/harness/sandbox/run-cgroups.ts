import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";

/** What one run may hold in all, whatever it does with its processes. */
export interface RunLimits {
  /** Memory of every process of the run together: anonymous, memfd, tmpfs and page cache. */
  memoryBytes: number;
  /** Processes and threads of the run at once. */
  processes: number;
}

/** One run's control group. */
export interface RunCgroup {
  /** Puts a process (a host PID) in the run's group: it and everything it starts. */
  add(pid: number): Promise<void>;
  /** Kills every process in the group at once. */
  kill(): void;
  /** Whether the kernel stopped a process of the run for passing its memory limit. */
  outOfMemory(): boolean;
  /** Gives the group back once its run has ended: a later run may use it (its limits stay), or it is removed. */
  release(): void;
}

/** Where this process makes its runs' control groups. */
export interface RunCgroups {
  version: "v1" | "v2";
  /** The folders runs' groups are made in. */
  paths: string[];
  /** A group for one run: an empty one a run before used, or a new one. */
  acquire(limits: RunLimits): RunCgroup;
  /** Removes this process's folders. */
  close(): void;
}

/** A control group as the kernel has it. */
interface Group {
  /** Off the event loop: moving a process between groups waits on the kernel for a millisecond or more. */
  add(pid: number): Promise<void>;
  kill(): void;
  /** Processes the kernel has stopped in it for memory, so far. */
  oomKills(): number;
  empty(): boolean;
  remove(): void;
}

export type RunCgroupsProbe = { available: true; cgroups: RunCgroups } | { available: false; reason: string };

export interface RunCgroupsOptions {
  /** @default "/sys/fs/cgroup" */
  root?: string;
  /** This process's membership, as /proc/self/cgroup says. @default its text */
  membership?: string;
  /** @default `execute-code-ui-<pid>-<n>` */
  name?: string;
}

const PREFIX = "execute-code-ui-";
// Each set of groups has a folder of its own: executors in one process come and go apart.
let made = 0;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

const read = (path: string) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
};

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** Removes a folder of groups and the groups in it, where their processes are gone. */
function removeTree(path: string) {
  try {
    for (const entry of readdirSync(path, { withFileTypes: true }))
      if (entry.isDirectory()) removeTree(join(path, entry.name));
    rmdirSync(path);
  } catch {
    // Still in use, or gone already.
  }
}

/** Folders left by processes that died without closing: nothing runs in them any more. */
function removeStale(parent: string) {
  for (const name of existsSync(parent) ? readdirSync(parent) : []) {
    const pid = Number(name.slice(PREFIX.length).split("-")[0]);
    if (name.startsWith(PREFIX) && Number.isInteger(pid) && pid !== process.pid && !alive(pid))
      removeTree(join(parent, name));
  }
}

function killAll(procs: string) {
  for (const pid of read(procs).split("\n").filter(Boolean).map(Number)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Ended already.
    }
  }
}

function removeLater(paths: string[], tries = 50) {
  const left = paths.filter((path) => {
    try {
      rmdirSync(path);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "EBUSY";
    }
  });
  if (left.length && tries > 0) setTimeout(() => removeLater(left, tries - 1), 100).unref();
}

const oomKills = (text: string) => Number(/^oom_kill (\d+)$/m.exec(text)?.[1] ?? 0);

/**
 * Control groups for runs, where this process may make them: cgroup v2's
 * `memory.max` and `pids.max` under its own group where that hierarchy is
 * writable (delegated), or v1's memory and pids controllers (as on hosts
 * that mount both). A group bounds what a run's processes hold together:
 * memory held in memfd or tmpfs files, which no per-process limit counts.
 */
export function probeRunCgroups(options: RunCgroupsOptions = {}): RunCgroupsProbe {
  if (process.platform !== "linux") return { available: false, reason: "control groups are a Linux feature" };
  const root = options.root ?? "/sys/fs/cgroup";
  const membership = options.membership ?? read("/proc/self/cgroup");
  const name = options.name ?? `${PREFIX}${process.pid}-${++made}`;
  const lines = membership
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [, controllers = "", path = "/"] = /^\d+:([^:]*):(.*)$/.exec(line) ?? [];
      return { controllers: controllers.split(","), path };
    });
  const v1 = (controller: string) => lines.find((line) => line.controllers.includes(controller))?.path;
  const unified = lines.find((line) => line.controllers.length === 1 && line.controllers[0] === "")?.path;
  const reasons: string[] = [];
  if (unified !== undefined && read(join(root, "cgroup.controllers")).split(/\s+/).includes("memory")) {
    try {
      return { available: true, cgroups: v2Groups(join(root, unified), name) };
    } catch (error) {
      reasons.push(`cgroup v2 at ${join(root, unified)}: ${message(error)}`);
    }
  }
  const memory = v1("memory");
  const pids = v1("pids");
  if (memory !== undefined && pids !== undefined && existsSync(join(root, "memory", "memory.usage_in_bytes"))) {
    try {
      return { available: true, cgroups: v1Groups(join(root, "memory", memory), join(root, "pids", pids), name) };
    } catch (error) {
      reasons.push(`cgroup v1 under ${join(root, "memory", memory)}: ${message(error)}`);
    }
  }
  if (!reasons.length) reasons.push("no cgroup hierarchy with the memory and pids controllers is mounted");
  return { available: false, reason: reasons.join("; ") };
}

// Groups kept for later runs, by their limits: making and removing one costs the kernel more than a small run.
const MAX_IDLE = 16;

/**
 * Runs' groups, reused: a group whose run has ended and whose processes
 * are gone goes to the next run with the same limits. A group holds no
 * data, only limits and counts, and whether a run was stopped for memory
 * is read against the count when it got the group.
 */
function pooled(
  version: RunCgroups["version"],
  paths: string[],
  make: (name: string, limits: RunLimits) => Group,
  base: string[],
): RunCgroups {
  // A trial group with limits, so that a host where writes fail says so at start, not at a run.
  try {
    make("trial", { memoryBytes: 64 << 20, processes: 4 }).remove();
  } catch (error) {
    for (const path of base) removeTree(path);
    throw error;
  }
  const idle = new Map<string, Group[]>();
  let made = 0;
  return {
    version,
    paths,
    acquire(limits) {
      const key = `${limits.memoryBytes}/${limits.processes}`;
      const group = idle.get(key)?.pop() ?? make(`run-${++made}`, limits);
      const before = group.oomKills();
      let released = false;
      return {
        add: (pid) => group.add(pid),
        kill: () => group.kill(),
        outOfMemory: () => group.oomKills() > before,
        release() {
          if (released) return;
          released = true;
          const kept = idle.get(key) ?? [];
          if (kept.length < MAX_IDLE && group.empty()) idle.set(key, [...kept, group]);
          else group.remove();
        },
      };
    },
    close() {
      idle.clear();
      for (const path of base) removeTree(path);
    },
  };
}

function v1Groups(memoryParent: string, pidsParent: string, name: string): RunCgroups {
  removeStale(memoryParent);
  removeStale(pidsParent);
  const memoryBase = join(memoryParent, name);
  const pidsBase = join(pidsParent, name);
  mkdirSync(memoryBase, { recursive: true });
  mkdirSync(pidsBase, { recursive: true });
  return pooled(
    "v1",
    [memoryBase, pidsBase],
    (run, limits) => {
      const memory = join(memoryBase, run);
      const pids = join(pidsBase, run);
      mkdirSync(memory);
      mkdirSync(pids);
      try {
        writeFileSync(join(memory, "memory.limit_in_bytes"), String(limits.memoryBytes));
        // With swap accounting, memory and swap together: nothing pushed to swap escapes the limit.
        if (existsSync(join(memory, "memory.memsw.limit_in_bytes")))
          writeFileSync(join(memory, "memory.memsw.limit_in_bytes"), String(limits.memoryBytes));
        writeFileSync(join(pids, "pids.max"), String(limits.processes));
      } catch (error) {
        removeLater([memory, pids]);
        throw error;
      }
      return {
        add: async (pid) => {
          await Promise.all([memory, pids].map((group) => writeFile(join(group, "cgroup.procs"), String(pid))));
        },
        kill: () => killAll(join(pids, "cgroup.procs")),
        oomKills: () => oomKills(read(join(memory, "memory.oom_control"))),
        empty: () => read(join(pids, "cgroup.procs")).trim() === "",
        remove: () => removeLater([memory, pids]),
      };
    },
    [memoryBase, pidsBase],
  );
}

function v2Groups(own: string, name: string): RunCgroups {
  const enable = (path: string) => {
    const enabled = read(join(path, "cgroup.subtree_control")).split(/\s+/);
    if (!enabled.includes("memory") || !enabled.includes("pids"))
      writeFileSync(join(path, "cgroup.subtree_control"), "+memory +pids");
  };
  removeStale(own);
  const base = join(own, name);
  try {
    enable(own);
  } catch (error) {
    // A group with processes in it cannot hand controllers down: where the
    // processes are this one alone, it moves into a leaf of its own first.
    const members = read(join(own, "cgroup.procs")).split("\n").filter(Boolean).map(Number);
    if ((error as NodeJS.ErrnoException).code !== "EBUSY" || members.some((pid) => pid !== process.pid)) throw error;
    const leaf = join(own, `${name}-server`);
    mkdirSync(leaf, { recursive: true });
    writeFileSync(join(leaf, "cgroup.procs"), String(process.pid));
    enable(own);
  }
  mkdirSync(base, { recursive: true });
  enable(base);
  return pooled(
    "v2",
    [base],
    (run, limits) => {
      const group = join(base, run);
      mkdirSync(group);
      try {
        writeFileSync(join(group, "memory.max"), String(limits.memoryBytes));
        if (existsSync(join(group, "memory.swap.max"))) writeFileSync(join(group, "memory.swap.max"), "0");
        writeFileSync(join(group, "pids.max"), String(limits.processes));
      } catch (error) {
        removeLater([group]);
        throw error;
      }
      return {
        add: (pid) => writeFile(join(group, "cgroup.procs"), String(pid)),
        kill() {
          try {
            writeFileSync(join(group, "cgroup.kill"), "1");
          } catch {
            killAll(join(group, "cgroup.procs"));
          }
        },
        oomKills: () => oomKills(read(join(group, "memory.events"))),
        empty: () => read(join(group, "cgroup.procs")).trim() === "",
        remove: () => removeLater([group]),
      };
    },
    [base],
  );
}
