import { describe, expect, it } from "vitest";
import { tableSummary } from "../../src/server/files/file-summary";

const csv = (text: string) => tableSummary(new TextEncoder().encode(text), "text/csv");

describe("the summary of an attached table, for the model", () => {
  it("gives the header row and how many rows follow, whatever the line ends", () => {
    expect(csv("student,score\nana,3\nbo,4\n")).toBe("header row: student,score; 2 rows below it");
    expect(csv("student,score\r\nana,3\r\n")).toBe("header row: student,score; 1 row below it");
    expect(tableSummary(new TextEncoder().encode("a\tb\n1\t2"), "text/tab-separated-values")).toBe(
      "header row: a\tb; 1 row below it",
    );
  });

  it("counts no blank lines at the end, and says nothing of an empty table or another kind of file", () => {
    expect(csv("h\n1\n\n  \r\n\n")).toBe("header row: h; 1 row below it");
    expect(csv("\n \n")).toBeUndefined();
    expect(tableSummary(new TextEncoder().encode("h\n1\n"), "text/plain")).toBeUndefined();
  });

  it("quotes at most 300 characters of a long header, whole characters", () => {
    expect(csv(`${"é".repeat(400)}\n1`)).toBe(`header row: ${"é".repeat(300)}…; 1 row below it`);
    expect(csv("😀".repeat(350))).toBe(`header row: ${"😀".repeat(150)}…; 0 rows below it`);
  });

  it("counts every row of a file of millions of short lines", () => {
    expect(csv(`n\n${"1\n".repeat(3_000_000)}`)).toBe("header row: n; 3000000 rows below it");
  });
});
