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

/** A control group as the kernel has it. */
export interface Group {
  /** Off the event loop: moving a process between groups waits on the kernel for a millisecond or more. */
  add(pid: number): Promise<void>;
  kill(): void;
  /** Processes the kernel has stopped in it for memory, so far. */
  oomKills(): number;
  empty(): boolean;
  remove(): void;
}

/** Where one process makes its runs' groups, in one cgroup hierarchy. */
export interface Hierarchy {
  version: "v1" | "v2";
  /** This process's folders, made here and removed when it closes. */
  paths: string[];
  /**
   * Whether each run is a CPU group of its own: runs then share the cores
   * equally, however many processes (or sessions, which the kernel's
   * autogroups would each weigh as one) a run starts.
   */
  cpu: boolean;
  make(name: string, limits: RunLimits): Group;
}

export const PREFIX = "execute-code-ui-";

export const read = (path: string) => {
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
export function removeTree(path: string) {
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

/** A folder for this process's groups under `parent`, or null where it cannot be made. */
function optionalBase(parent: string | undefined, name: string): string | null {
  if (parent === undefined) return null;
  try {
    removeStale(parent);
    mkdirSync(join(parent, name), { recursive: true });
    return join(parent, name);
  } catch {
    return null;
  }
}

/**
 * Groups under v1's memory and pids controllers, and its cpu controller
 * where that can be written: a folder each a group.
 */
export function v1Groups(memoryParent: string, pidsParent: string, name: string, cpuParent?: string): Hierarchy {
  removeStale(memoryParent);
  removeStale(pidsParent);
  const memoryBase = join(memoryParent, name);
  const pidsBase = join(pidsParent, name);
  mkdirSync(memoryBase, { recursive: true });
  mkdirSync(pidsBase, { recursive: true });
  const cpuBase = optionalBase(cpuParent, name);
  return {
    version: "v1",
    paths: [memoryBase, pidsBase, ...(cpuBase ? [cpuBase] : [])],
    cpu: cpuBase !== null,
    make(run, limits) {
      const memory = join(memoryBase, run);
      const pids = join(pidsBase, run);
      // Equal shares (the default) for every run's group.
      const cpu = cpuBase ? join(cpuBase, run) : null;
      const folders = [memory, pids, ...(cpu ? [cpu] : [])];
      for (const folder of folders) mkdirSync(folder);
      try {
        writeFileSync(join(memory, "memory.limit_in_bytes"), String(limits.memoryBytes));
        // With swap accounting, memory and swap together: nothing pushed to swap escapes the limit.
        if (existsSync(join(memory, "memory.memsw.limit_in_bytes")))
          writeFileSync(join(memory, "memory.memsw.limit_in_bytes"), String(limits.memoryBytes));
        writeFileSync(join(pids, "pids.max"), String(limits.processes));
      } catch (error) {
        removeLater(folders);
        throw error;
      }
      return {
        add: async (pid) => {
          await Promise.all([memory, pids].map((group) => writeFile(join(group, "cgroup.procs"), String(pid))));
          // Memory and processes bound the run; a cpu group it cannot join leaves it the kernel's share.
          if (cpu) await writeFile(join(cpu, "cgroup.procs"), String(pid)).catch(() => undefined);
        },
        kill: () => killAll(join(pids, "cgroup.procs")),
        oomKills: () => oomKills(read(join(memory, "memory.oom_control"))),
        empty: () => read(join(pids, "cgroup.procs")).trim() === "",
        remove: () => removeLater(folders),
      };
    },
  };
}

/**
 * Groups under cgroup v2, below this process's own group (handing the
 * controllers down): memory and pids, and cpu where the host delegates it.
 */
export function v2Groups(own: string, name: string): Hierarchy {
  let cpu = read(join(own, "cgroup.controllers")).split(/\s+/).includes("cpu");
  const enable = (path: string) => {
    const wanted = cpu ? ["memory", "pids", "cpu"] : ["memory", "pids"];
    const enabled = read(join(path, "cgroup.subtree_control")).split(/\s+/);
    if (wanted.every((controller) => enabled.includes(controller))) return;
    try {
      writeFileSync(join(path, "cgroup.subtree_control"), wanted.map((controller) => `+${controller}`).join(" "));
    } catch (error) {
      // The kernel takes the write whole or not at all: a cpu controller it refuses leaves memory and pids.
      if (!cpu || (error as NodeJS.ErrnoException).code === "EBUSY") throw error;
      cpu = false;
      enable(path);
    }
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
  return {
    version: "v2",
    paths: [base],
    cpu,
    make(run, limits) {
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
  };
}
