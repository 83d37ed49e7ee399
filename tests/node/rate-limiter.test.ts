import { describe, expect, it } from "vitest";
import { createRateLimiter } from "../../src/sandbox/rate-limiter";

describe("the sliding-window rate limit", () => {
  it("allows max per window and key, says how long to wait, and lets the next one through once the oldest leaves", () => {
    let time = 0;
    const limiter = createRateLimiter({ max: 2, windowMs: 1000 }, () => time);
    expect(limiter.take("a")).toEqual({ allowed: true });
    time = 300;
    expect(limiter.take("a")).toEqual({ allowed: true });
    expect(limiter.take("a")).toEqual({ allowed: false, retryAfterMs: 700 });
    expect(limiter.take("b")).toEqual({ allowed: true });
    time = 1000;
    expect(limiter.take("a")).toEqual({ allowed: true });
  });

  it("refuses everything with a limit of 0, with a wait of one window rather than NaN", () => {
    const limiter = createRateLimiter({ max: 0, windowMs: 60_000 }, () => 5);
    expect(limiter.take("a")).toEqual({ allowed: false, retryAfterMs: 60_000 });
  });

  it("starts a key afresh after a quiet window, also once other keys have been forgotten", () => {
    let time = 0;
    const limiter = createRateLimiter({ max: 1, windowMs: 1000 }, () => time);
    for (let i = 0; i < 100; i++) limiter.take(`caller-${i}`);
    time = 5000;
    expect(limiter.take("caller-1")).toEqual({ allowed: true });
    expect(limiter.take("caller-1")).toMatchObject({ allowed: false });
  });
});
