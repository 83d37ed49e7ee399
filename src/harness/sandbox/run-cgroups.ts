import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
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
  add(pid: number): void;
  /** Kills every process in the group at once. */
  kill(): void;
  /** Whether the kernel stopped a process of the run for passing its memory limit. */
  outOfMemory(): boolean;
  /** Removes the group once its processes are gone (tried again for a while if they are still ending). */
  remove(): void;
}

/** Where this process makes its runs' control groups. */
export interface RunCgroups {
  version: "v1" | "v2";
  /** The folders runs' groups are made in. */
  paths: string[];
  create(name: string, limits: RunLimits): RunCgroup;
  /** Removes this process's folders. */
  close(): void;
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

/** Makes a trial group with limits, so that a host where writes fail says so at start, not at a run. */
function checked(cgroups: RunCgroups): RunCgroups {
  try {
    const trial = cgroups.create("trial", { memoryBytes: 64 << 20, processes: 4 });
    trial.remove();
    return cgroups;
  } catch (error) {
    cgroups.close();
    throw error;
  }
}

function v1Groups(memoryParent: string, pidsParent: string, name: string): RunCgroups {
  removeStale(memoryParent);
  removeStale(pidsParent);
  const memoryBase = join(memoryParent, name);
  const pidsBase = join(pidsParent, name);
  mkdirSync(memoryBase, { recursive: true });
  mkdirSync(pidsBase, { recursive: true });
  return checked({
    version: "v1",
    paths: [memoryBase, pidsBase],
    create(run, limits) {
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
        add(pid) {
          writeFileSync(join(memory, "cgroup.procs"), String(pid));
          writeFileSync(join(pids, "cgroup.procs"), String(pid));
        },
        kill: () => killAll(join(pids, "cgroup.procs")),
        outOfMemory: () => oomKills(read(join(memory, "memory.oom_control"))) > 0,
        remove: () => removeLater([memory, pids]),
      };
    },
    close() {
      removeTree(memoryBase);
      removeTree(pidsBase);
    },
  });
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
  return checked({
    version: "v2",
    paths: [base],
    create(run, limits) {
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
        add: (pid) => writeFileSync(join(group, "cgroup.procs"), String(pid)),
        kill() {
          try {
            writeFileSync(join(group, "cgroup.kill"), "1");
          } catch {
            killAll(join(group, "cgroup.procs"));
          }
        },
        outOfMemory: () => oomKills(read(join(group, "memory.events"))) > 0,
        remove: () => removeLater([group]),
      };
    },
    close: () => removeTree(base),
  });
}
