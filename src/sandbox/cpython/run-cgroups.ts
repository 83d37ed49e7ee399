import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  type Group,
  type Hierarchy,
  PREFIX,
  read,
  removeTree,
  type RunLimits,
  v1Groups,
  v2Groups,
} from "./cgroup-hierarchies.js";
import { errorMessage } from "../../contract/error-message.js";

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
  /** Whether each run is a CPU group of its own, so that runs share the cores equally. */
  cpu: boolean;
  /** The folders runs' groups are made in. */
  paths: string[];
  /** A group for one run: an empty one a run before used, or a new one. */
  acquire(limits: RunLimits): RunCgroup;
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

// Each set of groups has a folder of its own: executors in one process come and go apart.
let made = 0;

/**
 * Control groups for runs, where this process may make them: cgroup v2's
 * `memory.max` and `pids.max` under its own group where that hierarchy is
 * writable (delegated), or v1's memory and pids controllers (as on hosts
 * that mount both). A group bounds what a run's processes hold together:
 * memory held in memfd or tmpfs files, which no per-process limit counts.
 * Where the cpu controller can be written too, each run is a CPU group of
 * its own, and runs share the cores equally however many processes each
 * starts.
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
      return { available: true, cgroups: pooled(v2Groups(join(root, unified), name)) };
    } catch (error) {
      reasons.push(`cgroup v2 at ${join(root, unified)}: ${errorMessage(error)}`);
    }
  }
  const memory = v1("memory");
  const pids = v1("pids");
  const cpu = v1("cpu");
  if (memory !== undefined && pids !== undefined && existsSync(join(root, "memory", "memory.usage_in_bytes"))) {
    const cpuParent =
      cpu !== undefined && existsSync(join(root, "cpu", "cpu.shares")) ? join(root, "cpu", cpu) : undefined;
    try {
      return {
        available: true,
        cgroups: pooled(v1Groups(join(root, "memory", memory), join(root, "pids", pids), name, cpuParent)),
      };
    } catch (error) {
      reasons.push(`cgroup v1 under ${join(root, "memory", memory)}: ${errorMessage(error)}`);
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
function pooled({ version, paths, cpu, make }: Hierarchy): RunCgroups {
  // A trial group with limits, so that a host where writes fail says so at start, not at a run.
  try {
    make("trial", { memoryBytes: 64 << 20, processes: 4 }).remove();
  } catch (error) {
    for (const path of paths) removeTree(path);
    throw error;
  }
  const idle = new Map<string, Group[]>();
  let made = 0;
  return {
    version,
    paths,
    cpu,
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
      for (const path of paths) removeTree(path);
    },
  };
}
