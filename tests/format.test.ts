import { describe, expect, it } from "vitest";
import { englishLabels } from "../src";
import { germanLabels } from "../src/locales/de";
import { formatCount, formatDuration } from "../src/ui/format";

describe("numbers on the card", () => {
  it("groups digits by threes with the language's mark", () => {
    expect(formatCount(12_345_678, englishLabels.numbers)).toBe("12,345,678");
    expect(formatCount(12_345, germanLabels.numbers)).toBe("12.345");
    expect(formatCount(999, englishLabels.numbers)).toBe("999");
    expect(formatCount(0, englishLabels.numbers)).toBe("0");
  });

  it("writes durations as people read them", () => {
    expect(formatDuration(840.4, englishLabels.numbers)).toBe("840 ms");
    expect(formatDuration(3240, englishLabels.numbers)).toBe("3.2 s");
    expect(formatDuration(3240, germanLabels.numbers)).toBe("3,2 s");
    expect(formatDuration(4000, germanLabels.numbers)).toBe("4 s");
    expect(formatDuration(125_000, englishLabels.numbers)).toBe("2 min 5 s");
    expect(formatDuration(120_000, englishLabels.numbers)).toBe("2 min");
  });
});
