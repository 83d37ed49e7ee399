import { describe, expect, it, vi } from "vitest";
import { createRunScheduler, QueueFullError } from "../../src/sandbox/run-scheduler";

const never = new AbortController().signal;

/** Acquires a slot and records when it is granted. */
function ask(scheduler: ReturnType<typeof createRunScheduler>, key: string, granted: string[], signal = never) {
  return scheduler.acquire(key, signal).then((release) => {
    granted.push(key);
    return release;
  });
}

describe("the sandbox's run slots, shared between participants", () => {
  it("one participant runs at most two programs at once, while another's starts at once", async () => {
    const scheduler = createRunScheduler({ maxRunning: 4, perParticipant: 2 });
    const granted: string[] = [];
    const a1 = ask(scheduler, "a", granted);
    const a2 = ask(scheduler, "a", granted);
    const a3 = ask(scheduler, "a", granted);
    const b1 = ask(scheduler, "b", granted);
    await Promise.all([a1, a2, b1]);
    expect(granted).toEqual(["a", "a", "b"]);
    expect(scheduler.stats()).toMatchObject({ running: 3, queued: 1 });

    (await a1)();
    await a3;
    expect(granted).toEqual(["a", "a", "b", "a"]);
  });

  it("a freed slot goes to the participants in turn, not to whoever queued most", async () => {
    const scheduler = createRunScheduler({ maxRunning: 1, perParticipant: 2 });
    const granted: string[] = [];
    const releases: Array<() => void> = [];
    const take = (key: string) => ask(scheduler, key, granted).then((release) => void releases.push(release));
    await take("a");
    const waiting = [take("a"), take("a"), take("b"), take("c")];
    // Each program ends as soon as it has its slot.
    for (let ended = 0; ended < 5; ended++) {
      await new Promise((resolve) => setImmediate(resolve));
      releases[ended]!();
    }
    await Promise.all(waiting);
    // b and c have not run yet: their turns come before a's second.
    expect(granted).toEqual(["a", "b", "c", "a", "a"]);
  });

  it("a full queue refuses at once a participant who already has programs waiting", async () => {
    const scheduler = createRunScheduler({
      maxRunning: 1,
      perParticipant: 1,
      maxQueuedPerParticipant: 1,
      maxQueued: 2,
    });
    await scheduler.acquire("a", never);
    void scheduler.acquire("a", never);
    await expect(scheduler.acquire("a", never)).rejects.toEqual(new QueueFullError("participant"));
    void scheduler.acquire("b", never);
    await expect(scheduler.acquire("b", never)).rejects.toEqual(new QueueFullError("participant"));
    expect(scheduler.stats()).toMatchObject({ running: 1, queued: 2 });
  });

  it("a newcomer gets into a full queue: the program refused is the biggest flooder's newest", async () => {
    const scheduler = createRunScheduler({
      maxRunning: 1,
      perParticipant: 1,
      maxQueuedPerParticipant: 3,
      maxQueued: 4,
    });
    const releaseA = await scheduler.acquire("a", never);
    const outcomes: string[] = [];
    const note = (label: string, pending: Promise<() => void>) =>
      pending.then(
        (release) => {
          outcomes.push(`${label} ran`);
          release();
        },
        (error: QueueFullError) => outcomes.push(`${label} refused: ${error.scope}`),
      );
    const flood = [note("a2", scheduler.acquire("a", never)), note("a3", scheduler.acquire("a", never))];
    flood.push(note("a4", scheduler.acquire("a", never)), note("b1", scheduler.acquire("b", never)));
    expect(scheduler.stats().queued).toBe(4);
    const newcomer = note("c1", scheduler.acquire("c", never));
    await new Promise((resolve) => setImmediate(resolve));
    expect(outcomes).toEqual(["a4 refused: sandbox"]);
    releaseA();
    await Promise.all([...flood, newcomer]);
    expect(outcomes).toContain("c1 ran");
    expect(outcomes.indexOf("c1 ran")).toBeLessThan(outcomes.indexOf("a3 ran"));
  });

  it("eight participants flooding the queue never lock a newcomer out", async () => {
    const scheduler = createRunScheduler();
    const releases: Array<() => void> = [];
    const granted: string[] = [];
    const take = (key: string) =>
      scheduler.acquire(key, never).then(
        (release) => {
          granted.push(key);
          releases.push(release);
        },
        () => undefined,
      );
    const flood: Array<Promise<void>> = [];
    for (let round = 0; round < 10; round++)
      for (let flooder = 0; flooder < 8; flooder++) flood.push(take(`flooder-${flooder}`));
    await new Promise((resolve) => setImmediate(resolve));
    expect(scheduler.stats().queued).toBe(64);
    const newcomer = take("newcomer");
    // Programs end one by one; the newcomer's starts within a round of turns.
    for (let ended = 0; ended < 12 && !granted.includes("newcomer"); ended++) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(granted).toContain("newcomer");
    await newcomer;
    for (const release of releases) release();
  });

  it("thirty cookies of one client take their turns as one: a newcomer from another starts with the next free slot", async () => {
    const scheduler = createRunScheduler();
    const releases: Array<() => void> = [];
    const granted: string[] = [];
    const take = (key: string, group: string) =>
      scheduler.acquire(key, never, { group: group }).then(
        (release) => {
          granted.push(key);
          releases.push(release);
        },
        () => undefined,
      );
    // One person's thirty cookies, one program each: four run, twenty-six wait.
    const flood = Array.from({ length: 30 }, (_, cookie) => take(`cookie-${cookie}`, "address-1"));
    await new Promise((resolve) => setImmediate(resolve));
    expect(scheduler.stats()).toMatchObject({ running: 4, queued: 26 });
    const newcomer = take("student", "address-2");
    // Its client has not run a program yet; the flooder's has four running.
    releases.shift()!();
    await newcomer;
    expect(granted.slice(4)).toEqual(["student"]);
    // The flooder's next turn comes after the newcomer's, not before: the queue still drains.
    for (let ended = 0; ended < 40 && releases.length; ended++) {
      releases.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(flood);
    expect(new Set(granted).size).toBe(31);
  });

  it("eight cookies of one client flood the queue: a ninth of that client starts with the next free slot", async () => {
    const scheduler = createRunScheduler();
    const releases: Array<() => void> = [];
    const granted: string[] = [];
    const take = (key: string) =>
      scheduler.acquire(key, never, { group: "address-1" }).then(
        (release) => {
          granted.push(key);
          releases.push(release);
        },
        () => undefined,
      );
    const flood: Array<Promise<void>> = [];
    for (let cookie = 0; cookie < 8; cookie++)
      for (let program = 0; program < 10; program++) flood.push(take(`cookie-${cookie}`));
    await new Promise((resolve) => setImmediate(resolve));
    expect(scheduler.stats()).toMatchObject({ running: 4, queued: 64 });
    // A class behind one address: the newcomer has nothing running or waiting, its classmates have.
    const newcomer = take("student");
    releases.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(granted.slice(4)).toEqual(["student"]);
    for (let ended = 0; ended < 80 && releases.length; ended++) {
      releases.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all([...flood, newcomer]);
  });

  it("a full queue refuses the client with the most waiting, however many cookies it spread them over", async () => {
    const scheduler = createRunScheduler({ maxRunning: 1, perParticipant: 1, maxQueued: 4 });
    const releaseFirst = await scheduler.acquire("b-0", never, { group: "b" });
    const outcomes: string[] = [];
    const note = (label: string, group: string) =>
      scheduler.acquire(label, never, { group: group }).then(
        (release) => {
          outcomes.push(`${label} ran`);
          release();
        },
        () => outcomes.push(`${label} refused`),
      );
    const waiting = [note("a-1", "a"), note("b-1", "b"), note("b-2", "b"), note("b-3", "b")];
    waiting.push(note("c-1", "c"));
    await new Promise((resolve) => setImmediate(resolve));
    // Each of b's cookies has one program waiting, as a's has: b as a whole has the most.
    expect(outcomes).toEqual(["b-3 refused"]);
    releaseFirst();
    await Promise.all(waiting);
    expect(outcomes.indexOf("c-1 ran")).toBeLessThan(outcomes.indexOf("b-2 ran"));
  });

  it("a program given up while it waits leaves the queue, and the slot goes to the next", async () => {
    const scheduler = createRunScheduler({ maxRunning: 1 });
    const granted: string[] = [];
    const release = await ask(scheduler, "a", granted);
    const stop = new AbortController();
    const gaveUp = ask(scheduler, "b", granted, stop.signal);
    const next = ask(scheduler, "c", granted);
    stop.abort(new Error("hung up"));
    await expect(gaveUp).rejects.toThrow("hung up");
    expect(scheduler.stats().queued).toBe(1);
    release();
    await next;
    expect(granted).toEqual(["a", "c"]);
  });

  it("a slot freed twice is freed once", async () => {
    const scheduler = createRunScheduler({ maxRunning: 1 });
    const release = await scheduler.acquire("a", never);
    release();
    release();
    expect(scheduler.stats().running).toBe(0);
    await scheduler.acquire("a", never);
    expect(scheduler.stats().running).toBe(1);
  });

  it("one who runs a program at a time does not come back as a newcomer ahead of someone who has run none", async () => {
    const scheduler = createRunScheduler({ maxRunning: 1 });
    const granted: string[] = [];
    const take = async (key: string) => {
      const release = await scheduler.acquire(key, never, { group: "address-1" });
      granted.push(key);
      return release;
    };
    // The looper runs a program and is done; a classmate takes the slot.
    (await take("looper"))();
    const classmate = await take("classmate");
    // The looper asks again, and then a student who has run nothing.
    void take("looper");
    void take("newcomer");
    classmate();
    await new Promise((resolve) => setImmediate(resolve));
    expect(granted).toEqual(["looper", "classmate", "newcomer"]);
  });

  it("many addresses that each queue a flood wait behind a newcomer from yet another address", async () => {
    const scheduler = createRunScheduler({ maxRunning: 4, perParticipant: 2 });
    const granted: string[] = [];
    const releases: Array<() => void> = [];
    const take = (key: string) =>
      scheduler.acquire(key, never, { group: key }).then((release) => {
        granted.push(key);
        releases.push(release);
      });
    // Six addresses, two endless programs each: a runs two, b one, and the last slot, kept for an address with
    // nothing running, goes to c; d, e and f have never started one.
    const floods = ["a", "b", "c", "d", "e", "f"].flatMap((address) => [take(address), take(address)]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(scheduler.stats()).toMatchObject({ running: 4, queued: 8 });
    const student = take("student");
    expect(granted).toEqual(["a", "a", "b", "c"]);
    // The four programs reach their time limit together; the student's starts with the first freed slot.
    for (const release of releases.splice(0, 4)) release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(granted.slice(4)).toEqual(["student", "d", "e", "f"]);
    for (let ended = 0; ended < 20 && releases.length; ended++) {
      releases.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all([...floods, student]);
  });

  it("one client's cookies cannot hold the last slot while another client is about: a classmate starts at once", async () => {
    const scheduler = createRunScheduler({ maxRunning: 4, perParticipant: 2 });
    const granted: string[] = [];
    const take = (key: string, group: string) =>
      scheduler.acquire(key, never, { group: group }).then((release) => {
        granted.push(key);
        return release;
      });
    // A classmate ran a program a moment ago.
    (await take("classmate", "address-2"))();
    // Five cookies of one address, two endless programs each: three run, and the last slot stays free.
    const flood = ["c1", "c2", "c3", "c4", "c5"].flatMap((cookie) => [
      take(cookie, "address-1"),
      take(cookie, "address-1"),
    ]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(scheduler.stats()).toMatchObject({ running: 3, queued: 7 });
    await take("classmate", "address-2");
    expect(scheduler.stats()).toMatchObject({ running: 4, queued: 7 });
    void flood;
  });

  it("a class behind one address keeps every slot, the last for a student with nothing running", async () => {
    const scheduler = createRunScheduler({ maxRunning: 4, perParticipant: 2 });
    const granted: string[] = [];
    const take = (key: string) =>
      scheduler.acquire(key, never, { group: "school" }).then((release) => {
        granted.push(key);
        return release;
      });
    const first = [take("ada"), take("ada"), take("bob"), take("bob")];
    await new Promise((resolve) => setImmediate(resolve));
    // Bob's second waits: the last slot is for whoever has nothing running.
    expect(granted).toEqual(["ada", "ada", "bob"]);
    await take("cleo");
    expect(scheduler.stats()).toMatchObject({ running: 4, queued: 1 });
    void first;
  });

  it("with no other client about for ten minutes, one client's students may use the last slot too", async () => {
    let clock = 0;
    const scheduler = createRunScheduler({ maxRunning: 2, perParticipant: 2 }, () => clock);
    (await scheduler.acquire("visitor", never, { group: "address-2" }))();
    const granted: string[] = [];
    const take = (key: string) =>
      scheduler.acquire(key, never, { group: "address-1" }).then(() => void granted.push(key));
    void [take("ada"), take("bob")];
    await new Promise((resolve) => setImmediate(resolve));
    expect(granted).toEqual(["ada"]);
    // Ten minutes on, the visitor has gone: Bob, who waited, has the last slot before anyone new.
    clock = 10 * 60_000;
    void take("cleo");
    await new Promise((resolve) => setImmediate(resolve));
    expect(granted).toEqual(["ada", "bob"]);
    expect(scheduler.stats()).toMatchObject({ running: 2, queued: 1 });
  });

  it("cookies that hold their slots to the time limit do not make a student with quick programs wait for them all", async () => {
    let clock = 0;
    const scheduler = createRunScheduler({ maxRunning: 4, perParticipant: 2 }, () => clock);
    const granted: string[] = [];
    const held: Array<{ key: string; release: () => void }> = [];
    const take = (key: string) =>
      scheduler.acquire(key, never).then((release) => {
        granted.push(key);
        held.push({ key, release });
      });
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    // Twenty-six cookies of one person, from an address that groups nothing, each with two programs that
    // sleep past the 10 s limit, and each asking again the moment one ends: for minutes, every slot is theirs.
    for (let cookie = 0; cookie < 26; cookie++) void [take(`cookie-${cookie}`), take(`cookie-${cookie}`)];
    await tick();
    const endOne = async () => {
      clock += 2_500;
      const { key, release } = held.shift()!;
      release();
      void take(key);
      await tick();
    };
    for (let ended = 0; ended < 100; ended++) await endOne();
    // A student asks five times in a row, each program taking milliseconds: each starts with the next freed
    // slot, not after every cookie has had another turn.
    for (let turn = 0; turn < 5; turn++) {
      const student = take("student");
      await tick();
      await endOne();
      await student;
      expect(granted.at(-1)).toBe("student");
      clock += 5;
      held
        .splice(
          held.findIndex((run) => run.key === "student"),
          1,
        )[0]!
        .release();
      await tick();
    }
  });

  it("with every slot held by cookies that used them for seconds, one run a second is stopped for a student", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      const scheduler = createRunScheduler({ maxRunning: 2, perParticipant: 1, stopForUseMs: 10_000 });
      const stopped: string[] = [];
      const granted: string[] = [];
      const releases = new Map<string, () => void>();
      const take = (key: string) =>
        scheduler.acquire(key, never, { stop: () => stopped.push(key) }).then((release) => {
          granted.push(key);
          releases.set(key, release);
        });
      // The student ran a quick program; two cookies each held a slot to the 10 s limit, and ask again.
      await take("student");
      releases.get("student")!();
      for (const cookie of ["c1", "c2"]) {
        await take(cookie);
        vi.advanceTimersByTime(10_000);
        releases.get(cookie)!();
      }
      await Promise.all([take("c1"), take("c2")]);
      const student = take("student");
      // Not before the cookies' programs have run a second.
      vi.advanceTimersByTime(900);
      expect(stopped).toEqual([]);
      vi.advanceTimersByTime(300);
      // One at a time, the program of the cookie that has used most of late (c2, whose use has halved least)
      // is stopped, and its end gives the student its slot.
      expect(stopped).toEqual(["c2"]);
      vi.advanceTimersByTime(1_000);
      expect(stopped).toEqual(["c2"]);
      releases.get("c2")!();
      await student;
      expect(granted.at(-1)).toBe("student");
      // With no one waiting, nothing more is stopped.
      vi.advanceTimersByTime(20_000);
      expect(stopped).toEqual(["c2"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a student's first long program is not stopped for a classmate who waits", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      const scheduler = createRunScheduler({ maxRunning: 1, stopForUseMs: 10_000 });
      const stopped: string[] = [];
      await scheduler.acquire("ada", never, { stop: () => stopped.push("ada") });
      void scheduler.acquire("bob", never, { stop: () => stopped.push("bob") });
      // Ada's program runs to the 10 s limit: it never used a whole run more than Bob.
      vi.advanceTimersByTime(9_800);
      expect(stopped).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("fresh cookies of a student's own address do not take the next slot from the student", {
    timeout: 10_000,
  }, async () => {
    let clock = 0;
    const schedule = { maxRunning: 4, perParticipant: 2, stopForUseMs: 10_000, newcomerUseMs: 10_000 };
    const scheduler = createRunScheduler(schedule, () => clock);
    const granted: string[] = [];
    const held: Array<{ key: string; release: () => void }> = [];
    const take = (key: string) =>
      scheduler.acquire(key, never, { group: "campus" }).then((release) => {
        granted.push(key);
        held.push({ key, release });
      });
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    // The student has run a quick program or two, and read the output for five minutes.
    for (let run = 0; run < 2; run++) {
      await take("student");
      clock += 50;
      held.pop()!.release();
    }
    clock += 5 * 60_000;
    // Nine fresh cookies of one classmate, behind the same campus address, each with three programs that
    // hold their slot to the time limit: every slot is theirs, and the rest wait.
    for (let cookie = 0; cookie < 9; cookie++) for (let run = 0; run < 3; run++) void take(`cookie-${cookie}`);
    await tick();
    clock += 1_000;
    const student = take("student");
    await tick();
    // The next slot freed is the student's, not a cookie's that has run nothing yet.
    clock += 9_000;
    held.shift()!.release();
    await student;
    expect(granted.at(-1)).toBe("student");
  });

  it("many cookies of other addresses do not get a student's long program stopped", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      const schedule = { maxRunning: 3, perParticipant: 1, stopForUseMs: 10_000, newcomerUseMs: 10_000 };
      const scheduler = createRunScheduler(schedule);
      const stopped: string[] = [];
      const take = (key: string, group: string) =>
        scheduler.acquire(key, never, { group, stop: () => stopped.push(key) });
      // The student ran five programs of 7 s each, one after another.
      for (let run = 0; run < 5; run++) {
        const release = await take("student", "home");
        vi.advanceTimersByTime(7_000);
        release();
      }
      // Two other addresses' cookies: each ran a loop to the 10 s limit, and now hold the other slots.
      for (const group of ["a1", "a2"]) {
        for (let cookie = 0; cookie < 6; cookie++) {
          const release = await take(`${group}-${cookie}`, group);
          vi.advanceTimersByTime(10_000);
          release();
        }
      }
      void take("student", "home");
      void take("a1-0", "a1");
      void take("a2-0", "a2");
      // Fresh cookies of those addresses wait, with nothing running.
      for (let cookie = 10; cookie < 14; cookie++) void take(`a1-${cookie}`, "a1");
      vi.advanceTimersByTime(5_000);
      // The student has used far more than a fresh cookie, but its address far less than theirs: its program
      // runs on; the cookies' own address's programs give way.
      expect(stopped).not.toContain("student");
      expect(stopped.length).toBeGreaterThan(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("one student alone on the sandbox may run as many programs as a participant may", async () => {
    const scheduler = createRunScheduler({ maxRunning: 2, perParticipant: 2 });
    await scheduler.acquire("student", never);
    await scheduler.acquire("student", never);
    expect(scheduler.stats()).toMatchObject({ running: 2, queued: 0 });
  });
});
