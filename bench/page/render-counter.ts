// Counts how often chosen components really render, in a production build:
// a minimal React DevTools hook that looks at each commit. A component that
// rendered in a commit is a new fiber with the PerformedWork flag; one that
// bailed out (or was not visited) is not.
type Fiber = {
  elementType: unknown;
  memoizedProps: Record<string, unknown> | null;
  flags: number;
  child: Fiber | null;
  sibling: Fiber | null;
};

const PERFORMED_WORK = 1;
let target: unknown = null;
let keyOf: (props: Record<string, unknown>) => string | null = () => null;
const seen = new Map<string, Fiber>();
export const renders = new Map<string, number>();

export function countRendersOf(component: unknown, key: (props: Record<string, unknown>) => string | null): void {
  target = component;
  keyOf = key;
  seen.clear();
  renders.clear();
}

function visit(fiber: Fiber | null): void {
  for (let node = fiber; node; node = node.sibling) {
    if (target && node.elementType === target && node.memoizedProps) {
      const key = keyOf(node.memoizedProps);
      if (key !== null) {
        if (seen.get(key) !== node && node.flags & PERFORMED_WORK) renders.set(key, (renders.get(key) ?? 0) + 1);
        seen.set(key, node);
      }
    }
    visit(node.child);
  }
}

(window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown }).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
  supportsFiber: true,
  renderers: new Map(),
  inject: () => 1,
  onScheduleFiberRoot: () => undefined,
  // Only in the scenario that counts: walking every fiber of every commit would weigh on the others' figures.
  onCommitFiberRoot: (_id: number, root: { current: Fiber }) => {
    if (target) visit(root.current);
  },
  onCommitFiberUnmount: () => undefined,
  onPostCommitFiberRoot: () => undefined,
  checkDCE: () => undefined,
};
