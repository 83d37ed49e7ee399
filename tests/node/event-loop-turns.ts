// What a test sees of the event loop's turns while some work runs: a
// "tick" each time the loop goes round, between the work's own events.

/** Events in order, with "tick" for each turn of the event loop while `work` runs. */
export async function withTicks(work: (seen: string[]) => Promise<unknown>) {
  const seen: string[] = [];
  let ticking = true;
  const tick = () => {
    seen.push("tick");
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  await work(seen);
  ticking = false;
  return seen;
}

/** Whether every two events other than ticks have a tick between them. */
export const turnsBetween = (seen: string[]) => {
  const at = seen.flatMap((event, i) => (event === "tick" ? [] : [i]));
  return at.every((i, k) => k === 0 || seen.slice(at[k - 1], i).includes("tick"));
};
