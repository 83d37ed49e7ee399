// Over 300 lines: the scheduler's rules (turns by use, the kept last slot,
// refusing floods, stopping a program to make room) share one state, kept
// in one closure; what each one has used is slot-use.ts.
import { lastTwo, slotUse } from "./slot-use.js";

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
  /**
   * With every slot taken, a program that has run a second is stopped to
   * make room for a waiting participant with nothing running, where its
   * owner has used the slots at least this much more of late (see
   * `createRunScheduler`): one person's many cookies then cannot keep
   * everyone else waiting out their time limit. A first program is never
   * stopped where this is the run time limit, `createSandbox`'s default;
   * 0 stops none.
   * @default 0
   */
  stopForUseMs?: number;
  /**
   * What a participant or group never seen (or long forgotten) counts as
   * having used, halving as use does: ids are cheap, and a fresh one must
   * not take the next slot from a student who has used the slots only a
   * little. `createSandbox` sets the run time limit: a newcomer goes before
   * anyone who has used more than a whole run of late.
   * @default 0
   */
  newcomerUseMs?: number;
}

/** What `acquire` is told besides who asks. */
export interface SlotRequest {
  /** Called when the program has to wait. */
  onQueued?: () => void;
  /** What the participant shares turns with (see `createRunScheduler`); by default, no one. */
  group?: string;
  /** Stops the program once it runs, to make room (see `RunSchedule.stopForUseMs`); it then frees its slot as usual. */
  stop?: () => void;
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
  stop?: () => void;
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
/** A program runs at least this long before it may be stopped to make room. */
const MIN_RUN_BEFORE_STOP_MS = 1_000;
/** How often a full sandbox with someone waiting looks again for a program to stop. */
const STOP_CHECK_MS = 250;

/** A program holding a slot. */
interface Holder {
  key: string;
  group: string;
  at: number;
  stop?: () => void;
  stopping: boolean;
}

export function createRunScheduler(schedule: RunSchedule = {}, now: () => number = Date.now) {
  const maxRunning = Math.max(1, schedule.maxRunning ?? 4);
  const perParticipant = Math.max(1, schedule.perParticipant ?? 2);
  const maxQueuedPerParticipant = Math.max(0, schedule.maxQueuedPerParticipant ?? 8);
  const maxQueued = Math.max(0, schedule.maxQueued ?? 64);
  const stopForUseMs = Math.max(0, schedule.stopForUseMs ?? 0);

  const running = new Map<string, number>();
  // Groups with programs waiting, in turn order, and in each its participants with programs waiting, in
  // turn order: the one served moves to the back (a Map keeps the order keys were set in).
  const waiting = new Map<string, Map<string, Waiter[]>>();
  let runningTotal = 0;
  let queuedTotal = 0;
  let arrivals = 0;
  // How much each group has used the slots of late, and how many of its programs run.
  const newcomerUseMs = Math.max(0, schedule.newcomerUseMs ?? 0);
  const groupUse = slotUse(now, newcomerUseMs);
  const runningInGroup = new Map<string, number>();
  // The same for each participant, for the turns within its group.
  const participantUse = slotUse(now, newcomerUseMs);
  // The programs holding slots, and the timer of the next look for one to stop.
  const holders = new Set<Holder>();
  let stopTimer: ReturnType<typeof setTimeout> | undefined;
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

  const start = (key: string, group: string, stop?: () => void): (() => void) => {
    running.set(key, (running.get(key) ?? 0) + 1);
    runningTotal++;
    const at = now();
    const holder: Holder = { key, group, at, stop, stopping: false };
    holders.add(holder);
    groupUse.started(group, at);
    participantUse.started(key, at);
    groupsAbout.started(group, at);
    participantsAbout.started(key, at);
    runningInGroup.set(group, (runningInGroup.get(group) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      holders.delete(holder);
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
      stopForOthers();
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

  /**
   * With every slot taken and someone with nothing running waiting, stops
   * the program, run at least MIN_RUN_BEFORE_STOP_MS, of whoever has used
   * the slots most, where that is `stopForUseMs` more than one waiting (and,
   * when their groups differ, its group `stopForUseMs` more than the
   * waiting one's: many cookies of another address do not get a student's
   * long program stopped); one at a time, its end looking again. Where none
   * is yet, looks again shortly: running programs' use grows.
   */
  const stopForOthers = () => {
    clearTimeout(stopTimer);
    stopTimer = undefined;
    if (!stopForUseMs || !queuedTotal || runningTotal < maxRunning) return;
    for (const holder of holders) if (holder.stopping) return;
    const waitingIdle: Array<{ group: string; use: number; groupUse: number }> = [];
    for (const [group, participants] of waiting)
      for (const key of participants.keys())
        if (!running.has(key)) waitingIdle.push({ group, use: participantUse.of(key), groupUse: groupUse.of(group) });
    // Everyone waiting has a program running: the next end or arrival looks again.
    if (!waitingIdle.length) return;
    const at = now();
    let chosen: Holder | undefined;
    let chosenUse = Number.NEGATIVE_INFINITY;
    for (const holder of holders) {
      if (!holder.stop || at - holder.at < MIN_RUN_BEFORE_STOP_MS) continue;
      const use = participantUse.of(holder.key);
      const usedByGroup = groupUse.of(holder.group);
      const outweighs = waitingIdle.some(
        (waiter) =>
          use - waiter.use >= stopForUseMs &&
          (waiter.group === holder.group || usedByGroup - waiter.groupUse >= stopForUseMs),
      );
      if (!outweighs) continue;
      if (use > chosenUse || (use === chosenUse && holder.at < chosen!.at)) [chosen, chosenUse] = [holder, use];
    }
    if (chosen) {
      chosen.stopping = true;
      chosen.stop!();
      return;
    }
    stopTimer = setTimeout(stopForOthers, STOP_CHECK_MS);
    stopTimer.unref?.();
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
      waiter.grant(start(key, group, waiter.stop));
    }
  };

  return {
    /**
     * Waits for a slot for `key`'s program and gives the function that frees
     * it. Throws QueueFullError at once when the queue is full, and the
     * signal's reason when it aborts while the program still waits.
     * See `SlotRequest` for the rest.
     */
    acquire(key: string, signal: AbortSignal, request: SlotRequest = {}): Promise<() => void> {
      const { onQueued, group = key, stop } = request;
      if (signal.aborted) return Promise.reject(signal.reason);
      // The last slot may have stopped being kept (no other group about): those waiting for it come first.
      grant();
      const queue = waiting.get(group)?.get(key) ?? [];
      const mayStartNow = queue.length === 0 && mayTake(key, group);
      if (mayStartNow) return Promise.resolve(start(key, group, stop));
      if (queue.length >= maxQueuedPerParticipant) return Promise.reject(new QueueFullError("participant"));
      if (queuedTotal >= maxQueued) {
        const newcomer = queue.length === 0 && !running.has(key);
        if (!newcomer || !refuseFlooder()) return Promise.reject(new QueueFullError("sandbox"));
      }
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          order: arrivals++,
          stop,
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
        stopForOthers();
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
