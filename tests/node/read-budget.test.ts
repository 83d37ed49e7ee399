import { describe, expect, it } from "vitest";
import { createReadBudget } from "../../src/harness/read-budget";

describe("the chat's read budget", () => {
  it("refuses a client once its window holds its bytes, and lets it read again as they age out", () => {
    let time = 0;
    const budget = createReadBudget({ bytes: 1000, windowMs: 60_000 }, () => time);
    expect(budget.check("a")).toEqual({ allowed: true });
    budget.charge("a", 600);
    time = 10_000;
    expect(budget.check("a")).toEqual({ allowed: true });
    budget.charge("a", 600);
    time = 20_000;
    // 1,200 bytes in the window: refused until the first 600 are a minute old.
    expect(budget.check("a")).toEqual({ allowed: false, retryAfterMs: 40_000 });
    expect(budget.check("b")).toEqual({ allowed: true });
    time = 60_000;
    expect(budget.check("a")).toEqual({ allowed: true });
  });

  it("charges what was sent, so one answer larger than the budget is sent once and then refused", () => {
    let time = 0;
    const budget = createReadBudget({ bytes: 1000, windowMs: 60_000 }, () => time);
    budget.charge("a", 5000);
    time = 1;
    expect(budget.check("a")).toMatchObject({ allowed: false, retryAfterMs: 59_999 });
    budget.charge("b", 0);
    expect(budget.check("b")).toEqual({ allowed: true });
  });
});
