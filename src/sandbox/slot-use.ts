// What the run scheduler remembers of each participant and group: how much
// of the slots it has used of late, and who else has started programs.

/** Participants and groups whose use of the slots is remembered. */
const REMEMBERED = 10_000;
/** How long another participant or client counts as about: a class's session, near enough. */
const PRESENT_MS = 10 * 60_000;
/** Use of the slots counts half after this long: a heavy run weighs on its owner's turns for some minutes. */
const USE_HALF_LIFE_MS = 5 * 60_000;
/** What starting a program counts as, in slot time: of two who ran instant programs, the one who ran fewer goes first. */
const START_COST_MS = 100;

/** The two that started programs last, each a different one, and when: whether anyone besides one is about. */
export function lastTwo() {
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
 * far. A newcomer (or one forgotten: the most recently active `REMEMBERED`
 * are kept) starts as having used `newcomerMs`, which halves as use does:
 * ids are cheap to collect, and a fresh one must not go before someone who
 * has used the slots only a little.
 */
export function slotUse(now: () => number, newcomerMs = 0) {
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
    const use = uses.get(name) ?? { past: newcomerMs, at, running: 0, startedSum: 0 };
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
      if (!use) return newcomerMs;
      const at = now();
      return decayed(use, at) + Math.max(0, use.running * at - use.startedSum);
    },
  };
}
