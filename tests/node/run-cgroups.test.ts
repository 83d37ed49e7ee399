// Which control groups the CPython engine makes for a run, read off a
// folder laid out as each cgroup hierarchy is (the real one is exercised by
// the CPython suite: a run's memfd memory stops at its limit).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { probeRunCgroups } from "../../src/sandbox/cpython/run-cgroups";

const limits = { memoryBytes: 256 << 20, processes: 16 };

describe("a control group per run", () => {
  it("uses cgroup v2's memory.max and pids.max under this process's own group, and hands the controllers down", async () => {
    const root = mkdtempSync(join(tmpdir(), "cgroup-v2-"));
    writeFileSync(join(root, "cgroup.controllers"), "cpu io memory pids\n");
    mkdirSync(join(root, "app"));
    writeFileSync(join(root, "app", "cgroup.subtree_control"), "");
    const probe = probeRunCgroups({ root, membership: "0::/app\n", name: "ecu" });
    if (!probe.available) throw new Error(probe.reason);
    expect(probe.cgroups.version).toBe("v2");
    expect(probe.cgroups.cpu).toBe(false);
    expect(readFileSync(join(root, "app", "cgroup.subtree_control"), "utf8")).toBe("+memory +pids");
    expect(readFileSync(join(root, "app", "ecu", "cgroup.subtree_control"), "utf8")).toBe("+memory +pids");
    const run = probe.cgroups.acquire(limits);
    await run.add(4242);
    expect(readFileSync(join(root, "app", "ecu", "run-1", "memory.max"), "utf8")).toBe(String(256 << 20));
    expect(readFileSync(join(root, "app", "ecu", "run-1", "pids.max"), "utf8")).toBe("16");
    expect(readFileSync(join(root, "app", "ecu", "run-1", "cgroup.procs"), "utf8")).toBe("4242");
    expect(run.outOfMemory()).toBe(false);
    writeFileSync(join(root, "app", "ecu", "run-1", "memory.events"), "low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n");
    expect(run.outOfMemory()).toBe(true);
    // Once its run has ended and its processes are gone, the group goes to the next run, which counts from there.
    writeFileSync(join(root, "app", "ecu", "run-1", "cgroup.procs"), "");
    run.release();
    const next = probe.cgroups.acquire(limits);
    await next.add(4343);
    expect(readFileSync(join(root, "app", "ecu", "run-1", "cgroup.procs"), "utf8")).toBe("4343");
    expect(next.outOfMemory()).toBe(false);
  });

  it("makes each run a CPU group of its own where the host delegates cgroup v2's cpu controller", () => {
    const root = mkdtempSync(join(tmpdir(), "cgroup-v2-cpu-"));
    writeFileSync(join(root, "cgroup.controllers"), "cpu io memory pids\n");
    mkdirSync(join(root, "app"));
    writeFileSync(join(root, "app", "cgroup.controllers"), "cpu memory pids\n");
    writeFileSync(join(root, "app", "cgroup.subtree_control"), "");
    const probe = probeRunCgroups({ root, membership: "0::/app\n", name: "ecu" });
    if (!probe.available) throw new Error(probe.reason);
    expect(probe.cgroups.cpu).toBe(true);
    expect(readFileSync(join(root, "app", "cgroup.subtree_control"), "utf8")).toBe("+memory +pids +cpu");
    expect(readFileSync(join(root, "app", "ecu", "cgroup.subtree_control"), "utf8")).toBe("+memory +pids +cpu");
  });

  it("uses v1's memory and pids controllers where those are what the host mounts, and its cpu controller too", async () => {
    const root = mkdtempSync(join(tmpdir(), "cgroup-v1-"));
    mkdirSync(join(root, "memory", "job"), { recursive: true });
    mkdirSync(join(root, "pids"), { recursive: true });
    writeFileSync(join(root, "memory", "memory.usage_in_bytes"), "0");
    mkdirSync(join(root, "cpu"), { recursive: true });
    writeFileSync(join(root, "cpu", "cpu.shares"), "1024");
    const membership = "9:name=systemd:/\n8:pids:/\n4:memory:/job\n1:cpu,cpuacct:/\n0::/\n";
    const probe = probeRunCgroups({ root, membership, name: "ecu" });
    if (!probe.available) throw new Error(probe.reason);
    expect(probe.cgroups.version).toBe("v1");
    expect(probe.cgroups.cpu).toBe(true);
    const run = probe.cgroups.acquire(limits);
    await run.add(4242);
    // The run's processes in its memory, pids and cpu groups alike.
    for (const controller of ["memory/job", "pids", "cpu"])
      expect(readFileSync(join(root, controller, "ecu", "run-1", "cgroup.procs"), "utf8")).toBe("4242");
    expect(readFileSync(join(root, "memory", "job", "ecu", "run-1", "memory.limit_in_bytes"), "utf8")).toBe(
      String(256 << 20),
    );
    expect(readFileSync(join(root, "pids", "ecu", "run-1", "pids.max"), "utf8")).toBe("16");
    writeFileSync(
      join(root, "memory", "job", "ecu", "run-1", "memory.oom_control"),
      "oom_kill_disable 0\noom_kill 2\n",
    );
    expect(run.outOfMemory()).toBe(true);
  });

  it("says why where no hierarchy with both controllers can be written", () => {
    const root = mkdtempSync(join(tmpdir(), "cgroup-none-"));
    const probe = probeRunCgroups({ root, membership: "0::/\n" });
    expect(probe).toMatchObject({ available: false });
    expect((probe as { reason: string }).reason).toMatch(/memory and pids controllers/);
  });
});
