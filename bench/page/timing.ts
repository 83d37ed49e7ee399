// The page's clock for every scenario: the next frame, and a plain pause.

/** Resolves at the next animation frame, with its time. */
export const frame = () => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now())));

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
