/** How the sandbox shares its run slots between participants. */
export interface RunSchedule {
  /**
   * Programs running at once, across everyone. The last free one is kept for
   * someone with nothing running (see `createRunScheduler`).
   * @default 4
   */
  maxRunning?: number;
  /**
   * Programs one participant may have running at once; the rest wait their turn.
   * @default 2
   */
  perParticipant?: number;
  /**
   * Programs one participant may have waiting; past it the sandbox answers busy.
   * @default 8
   */
  maxQueuedPerParticipant?: number;
  /**
   * Programs waiting across everyone. Past it, a participant who already has
   * programs waiting is answered busy, and one with nothing running or
   * waiting takes the place of the newest waiting program of whoever has the
   * most waiting, where that is two or more (else the newcomer is answered
   * busy): a flood never locks a newcomer out.
   * @default 64
   */
  maxQueued?: number;
}

/** The queue is full: the program is refused, not kept waiting. */
export class QueueFullError extends Error {
  constructor(readonly scope: "participant" | "sandbox") {
    super(
      scope === "participant"
        ? "Too many of your programs are waiting to run."
        : "Too many programs are waiting to run.",
    );
  }
}

interface Waiter {
  /** When it came: the newest of a flood is the one refused. */
  order: number;
  grant: (release: () => void) => void;
  refuse: (error: QueueFullError) => void;
}

/**
 * Run slots shared fairly: each participant has at most `perParticipant`
 * programs running, and a free slot goes to the waiting group that has used
 * the slots least of late (slot time, plus a little for each start, halving
 * every five minutes; of those that have used none, the one with the fewest
 * waiting, so that floods from many addresses do not come before a newcomer
 * with one program), and within a group likewise to its participant that
 * has used them least, not to whoever queued most: a newcomer behind a busy
 * address starts with the next slot its group gets.
 * Counting slot time, not starts, is what keeps many free identities from
 * one person at bay where nothing else tells them apart: cookies that each
 * hold a slot up to the time limit have each used far more than a student
 * whose programs take milliseconds, who therefore starts with the next
 * freed slot, not after every cookie has had a turn.
 * A group is whatever many identities of one person share (the address a
 * token names as its `client`); a participant without one is a group of
 * its own. One person's flood, from one cookie or from many,
 * therefore waits behind itself while everyone else's programs start, and a
 * full queue refuses the flooders, never a participant with nothing in it.
 *
 * The last free slot is kept, while another participant has started a
 * program in the last ten minutes, for a participant with nothing running,
 * and, while another group has, for one whose group has nothing running: a
 * slot cannot be taken back from a program, so without it one person's
 * cookies could hold every slot with endless loops, and a classmate's first
 * program would wait out their time limit. A class behind one address (one
 * group) keeps every slot, and one student alone all theirs.
 */
/** Participants and groups whose use of the slots is remembered. */
const REMEMBERED = 10_000;
/** How long another participant or client counts as about: a class's session, near enough. */
const PRESENT_MS = 10 * 60_000;
/** Use of the slots counts half after this long: a heavy run weighs on its owner's turns for some minutes. */
const USE_HALF_LIFE_MS = 5 * 60_000;
/** What starting a program counts as, in slot time: of two who ran instant programs, the one who ran fewer goes first. */
const START_COST_MS = 100;

export function createRunScheduler(schedule: RunSchedule = {}, now: () => number = Date.now) {
  const maxRunning = Math.max(1, schedule.maxRunning ?? 4);
  const perParticipant = Math.max(1, schedule.perParticipant ?? 2);
  const maxQueuedPerParticipant = Math.max(0, schedule.maxQueuedPerParticipant ?? 8);
  const maxQueued = Math.max(0, schedule.maxQueued ?? 64);

  const running = new Map<string, number>();
  // Groups with programs waiting, in turn order, and in each its participants with programs waiting, in
  // turn order: the one served moves to the back (a Map keeps the order keys were set in).
  const waiting = new Map<string, Map<string, Waiter[]>>();
  let runningTotal = 0;
  let queuedTotal = 0;
  let arrivals = 0;
  // How much each group has used the slots of late, and how many of its programs run.
  const groupUse = slotUse(now);
  const runningInGroup = new Map<string, number>();
  // The same for each participant, for the turns within its group.
  const participantUse = slotUse(now);
  // Who else is about: the groups, and the participants, that started programs last.
  const groupsAbout = lastTwo();
  const participantsAbout = lastTwo();

  /** Whether `key` of `group` may take a free slot now: any but the last, which is kept (see above). */
  const mayTake = (key: string, group: string) => {
    if (runningTotal >= maxRunning || (running.get(key) ?? 0) >= perParticipant) return false;
    if (runningTotal < maxRunning - 1) return true;
    const at = now();
    if (running.has(key) && participantsAbout.besides(key, at)) return false;
    return !runningInGroup.has(group) || !groupsAbout.besides(group, at);
  };

  const waitingIn = (group: string) => [...(waiting.get(group)?.values() ?? [])].reduce((n, q) => n + q.length, 0);

  /** Takes a waiter out of its queue, and its queue and group out of turn once empty. */
  const remove = (group: string, key: string, queue: Waiter[], waiter: Waiter) => {
    const at = queue.indexOf(waiter);
    if (at === -1) return false;
    queue.splice(at, 1);
    queuedTotal--;
    const participants = waiting.get(group);
    if (!queue.length) participants?.delete(key);
    if (participants && !participants.size) waiting.delete(group);
    return true;
  };

  const start = (key: string, group: string): (() => void) => {
    running.set(key, (running.get(key) ?? 0) + 1);
    runningTotal++;
    const at = now();
    groupUse.started(group, at);
    participantUse.started(key, at);
    groupsAbout.started(group, at);
    participantsAbout.started(key, at);
    runningInGroup.set(group, (runningInGroup.get(group) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      groupUse.ended(group, at);
      participantUse.ended(key, at);
      const left = running.get(key)! - 1;
      if (left) running.set(key, left);
      else running.delete(key);
      const leftInGroup = runningInGroup.get(group)! - 1;
      if (leftInGroup) runningInGroup.set(group, leftInGroup);
      else runningInGroup.delete(group);
      runningTotal--;
      grant();
    };
  };

  /**
   * Refuses a waiting program of the group with the most waiting: the newest of its participant with the
   * most waiting (then the most running, then the newest).
   */
  const refuseFlooder = () => {
    let group: string | undefined;
    for (const candidate of waiting.keys())
      if (group === undefined || waitingIn(candidate) > waitingIn(group)) group = candidate;
    // A group with one program waiting is no flood: the newcomer, not yet told to wait, is refused instead.
    if (group === undefined || waitingIn(group) < 2) return false;
    let most: [string, Waiter[]] | undefined;
    for (const [key, queue] of waiting.get(group)!) {
      const more =
        !most ||
        queue.length > most[1].length ||
        (queue.length === most[1].length && (running.get(key) ?? 0) > (running.get(most[0]) ?? 0)) ||
        (queue.length === most[1].length &&
          (running.get(key) ?? 0) === (running.get(most[0]) ?? 0) &&
          queue.at(-1)!.order > most[1].at(-1)!.order);
      if (more) most = [key, queue];
    }
    const [key, queue] = most!;
    const waiter = queue.at(-1)!;
    remove(group, key, queue, waiter);
    waiter.refuse(new QueueFullError("sandbox"));
    return true;
  };

  const grant = () => {
    while (runningTotal < maxRunning) {
      // The group that has used the slots least of late; of those that have used none, the one with the fewest
      // waiting (a newcomer before many addresses' floods); ties in turn order.
      let next: [string, string, Waiter[]] | undefined;
      let nextUsed = Number.POSITIVE_INFINITY;
      let nextWaiting = 0;
      for (const [group, participants] of waiting) {
        const used = groupUse.of(group);
        if (used > nextUsed) continue;
        const inGroup = used === nextUsed ? waitingIn(group) : 0;
        if (used === nextUsed && inGroup >= nextWaiting) continue;
        // In the group, the same rule by participant; of those that have used none, the one with the fewest
        // waiting (a newcomer before a classmate's flood); ties in turn order.
        let found: [string, Waiter[]] | undefined;
        let foundUsed = Number.POSITIVE_INFINITY;
        for (const [key, queue] of participants) {
          if (!mayTake(key, group)) continue;
          const keyUsed = participantUse.of(key);
          if (keyUsed < foundUsed || (keyUsed === foundUsed && queue.length < found![1].length))
            [found, foundUsed] = [[key, queue], keyUsed];
        }
        if (found) [next, nextUsed, nextWaiting] = [[group, ...found], used, inGroup || waitingIn(group)];
      }
      if (!next) return;
      const [group, key, queue] = next;
      const waiter = queue[0]!;
      remove(group, key, queue, waiter);
      // Served: the participant and its group go to the back of their turns.
      const participants = waiting.get(group);
      if (queue.length && participants) {
        participants.delete(key);
        participants.set(key, queue);
      }
      if (participants) {
        waiting.delete(group);
        waiting.set(group, participants);
      }
      waiter.grant(start(key, group));
    }
  };

  return {
    /**
     * Waits for a slot for `key`'s program and gives the function that frees
     * it. Throws QueueFullError at once when the queue is full, and the
     * signal's reason when it aborts while the program still waits.
     * `onQueued` is called when the program has to wait. `group` is what
     * the participant shares turns with (see above); by default, no one.
     */
    acquire(key: string, signal: AbortSignal, onQueued?: () => void, group: string = key): Promise<() => void> {
      if (signal.aborted) return Promise.reject(signal.reason);
      // The last slot may have stopped being kept (no other group about): those waiting for it come first.
      grant();
      const queue = waiting.get(group)?.get(key) ?? [];
      const mayStartNow = queue.length === 0 && mayTake(key, group);
      if (mayStartNow) return Promise.resolve(start(key, group));
      if (queue.length >= maxQueuedPerParticipant) return Promise.reject(new QueueFullError("participant"));
      if (queuedTotal >= maxQueued) {
        const newcomer = queue.length === 0 && !running.has(key);
        if (!newcomer || !refuseFlooder()) return Promise.reject(new QueueFullError("sandbox"));
      }
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          order: arrivals++,
          grant: (release) => {
            signal.removeEventListener("abort", onAbort);
            resolve(release);
          },
          refuse: (error) => {
            signal.removeEventListener("abort", onAbort);
            reject(error);
          },
        };
        const onAbort = () => {
          if (remove(group, key, queue, waiter)) reject(signal.reason);
        };
        signal.addEventListener("abort", onAbort, { once: true });
        queue.push(waiter);
        queuedTotal++;
        const participants = waiting.get(group) ?? new Map<string, Waiter[]>();
        if (!participants.has(key)) participants.set(key, queue);
        if (!waiting.has(group)) waiting.set(group, participants);
        onQueued?.();
      });
    },
    /** Running and waiting programs, for the health check. */
    stats() {
      return {
        running: runningTotal,
        queued: queuedTotal,
        maxRunning,
        perParticipant,
        maxQueuedPerParticipant,
        maxQueued,
      };
    },
  };
}

/** The two that started programs last, each a different one, and when: whether anyone besides one is about. */
function lastTwo() {
  let latest: { name: string; at: number } | undefined;
  let before: { name: string; at: number } | undefined;
  const started = (name: string, at: number) => {
    if (latest?.name !== name) before = latest;
    latest = { name, at };
  };
  const besides = (name: string, now: number) => {
    const other = latest?.name === name ? before : latest;
    return other !== undefined && now - other.at < PRESENT_MS;
  };
  return { started, besides };
}

/**
 * How much each one has used the slots of late, in milliseconds of slot
 * time: programs that ended count what they held plus START_COST_MS, halving
 * every USE_HALF_LIFE_MS, and programs still running what they have held so
 * far. The most recently active `REMEMBERED` are kept; one forgotten counts
 * as having used nothing, as a newcomer does.
 */
function slotUse(now: () => number) {
  interface Use {
    /** Use of programs that ended, as of `at`. */
    past: number;
    at: number;
    /** Programs running, and the sum of their start times. */
    running: number;
    startedSum: number;
  }
  const uses = new Map<string, Use>();
  const decayed = (use: Use, at: number) => use.past * 2 ** (-(at - use.at) / USE_HALF_LIFE_MS);
  /** The entry for `name`, brought up to `at` and made the most recent. */
  const touch = (name: string, at: number): Use => {
    const use = uses.get(name) ?? { past: 0, at, running: 0, startedSum: 0 };
    use.past = decayed(use, at);
    use.at = at;
    uses.delete(name);
    uses.set(name, use);
    if (uses.size > REMEMBERED) {
      // The least recently active with nothing running: a running program's end must find its entry.
      for (const [other, entry] of uses)
        if (!entry.running) {
          uses.delete(other);
          break;
        }
    }
    return use;
  };
  return {
    started(name: string, at: number) {
      const use = touch(name, at);
      use.past += START_COST_MS;
      use.running++;
      use.startedSum += at;
    },
    ended(name: string, startedAt: number) {
      const at = Math.max(now(), startedAt);
      const use = touch(name, at);
      use.past += at - startedAt;
      use.running--;
      use.startedSum -= startedAt;
    },
    of(name: string): number {
      const use = uses.get(name);
      if (!use) return 0;
      const at = now();
      return decayed(use, at) + Math.max(0, use.running * at - use.startedSum);
    },
  };
}
