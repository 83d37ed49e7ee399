/** How the sandbox shares its run slots between participants. */
export interface RunSchedule {
  /**
   * Programs running at once, across everyone.
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
   * most waiting: a flood never locks a newcomer out.
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
  grant: (release: () => void) => void;
  refuse: (error: QueueFullError) => void;
}

/**
 * Run slots shared fairly: each participant has at most `perParticipant`
 * programs running, and a free slot goes to the participants in turn (round
 * robin), not to whoever queued most. One participant's flood therefore
 * waits behind itself while everyone else's programs start, and a full queue
 * refuses the flooders, never a participant with nothing in it.
 */
export function createRunScheduler(schedule: RunSchedule = {}) {
  const maxRunning = Math.max(1, schedule.maxRunning ?? 4);
  const perParticipant = Math.max(1, schedule.perParticipant ?? 2);
  const maxQueuedPerParticipant = Math.max(0, schedule.maxQueuedPerParticipant ?? 8);
  const maxQueued = Math.max(0, schedule.maxQueued ?? 64);

  const running = new Map<string, number>();
  // Participants with programs waiting, in turn order: the one served moves to the back.
  const waiting = new Map<string, Waiter[]>();
  let runningTotal = 0;
  let queuedTotal = 0;

  const start = (key: string): (() => void) => {
    running.set(key, (running.get(key) ?? 0) + 1);
    runningTotal++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = running.get(key)! - 1;
      if (left) running.set(key, left);
      else running.delete(key);
      runningTotal--;
      grant();
    };
  };

  /** Refuses the newest waiting program of the participant with the most waiting (then the most running). */
  const refuseFlooder = () => {
    let most: Waiter[] | undefined;
    let mostKey = "";
    for (const [key, queue] of waiting) {
      const more =
        !most ||
        queue.length > most.length ||
        (queue.length === most.length && (running.get(key) ?? 0) > (running.get(mostKey) ?? 0));
      if (more) [most, mostKey] = [queue, key];
    }
    const waiter = most?.pop();
    if (!waiter) return false;
    queuedTotal--;
    if (!most!.length) waiting.delete(mostKey);
    waiter.refuse(new QueueFullError("sandbox"));
    return true;
  };

  const grant = () => {
    while (runningTotal < maxRunning) {
      const next = [...waiting].find(([key]) => (running.get(key) ?? 0) < perParticipant);
      if (!next) return;
      const [key, queue] = next;
      const waiter = queue.shift()!;
      queuedTotal--;
      waiting.delete(key);
      if (queue.length) waiting.set(key, queue);
      waiter.grant(start(key));
    }
  };

  return {
    /**
     * Waits for a slot for `key`'s program and gives the function that frees
     * it. Throws QueueFullError at once when the queue is full, and the
     * signal's reason when it aborts while the program still waits.
     * `onQueued` is called when the program has to wait.
     */
    acquire(key: string, signal: AbortSignal, onQueued?: () => void): Promise<() => void> {
      if (signal.aborted) return Promise.reject(signal.reason);
      const queue = waiting.get(key) ?? [];
      const mayStartNow = runningTotal < maxRunning && (running.get(key) ?? 0) < perParticipant && queue.length === 0;
      if (mayStartNow) return Promise.resolve(start(key));
      if (queue.length >= maxQueuedPerParticipant) return Promise.reject(new QueueFullError("participant"));
      if (queuedTotal >= maxQueued) {
        const newcomer = queue.length === 0 && !running.has(key);
        if (!newcomer || !refuseFlooder()) return Promise.reject(new QueueFullError("sandbox"));
      }
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
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
          const at = queue.indexOf(waiter);
          if (at === -1) return;
          queue.splice(at, 1);
          queuedTotal--;
          if (!queue.length) waiting.delete(key);
          reject(signal.reason);
        };
        signal.addEventListener("abort", onAbort, { once: true });
        queue.push(waiter);
        queuedTotal++;
        if (!waiting.has(key)) waiting.set(key, queue);
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
