// The figures of runs on a sandbox that keeps no files (Jupyter), held in
// the server's memory: each for its owner alone, and within caps that one
// student cannot use to push out everyone else's.
import { describe, expect, it } from "vitest";
import { createRunFileHolder } from "../../src/server/files/run-file-holder";

const student = (participantId: string) => ({ participantId, tenantId: "course-7" });
const png = (bytes: number) => ({ name: "figure-1.png", mediaType: "image/png", bytes: new Uint8Array(bytes) });

describe("the run file holder", () => {
  it("gives a file to its owner alone", () => {
    const holder = createRunFileHolder();
    const [kept] = holder.keep(student("ada"), [png(10)]);
    expect(holder.read(student("ada"), kept!.ref)?.bytes.length).toBe(10);
    expect(holder.read(student("eve"), kept!.ref)).toBeNull();
    expect(holder.read({ participantId: "ada", tenantId: "other" }, kept!.ref)).toBeNull();
  });

  it("makes room in a student's share from their own oldest runs", () => {
    const holder = createRunFileHolder({ maxBytesPerOwner: 100, maxBytes: 1000 });
    const [first] = holder.keep(student("ada"), [png(60)]);
    const [second] = holder.keep(student("ada"), [png(60)]);
    expect(holder.read(student("ada"), first!.ref)).toBeNull();
    expect(holder.read(student("ada"), second!.ref)).not.toBeNull();
  });

  it("past the whole cap, the student holding the most gives way, however many names they use", () => {
    const holder = createRunFileHolder({ maxBytesPerOwner: 100, maxBytes: 300 });
    const [ada] = holder.keep(student("ada"), [png(20)]);
    // One person with many cookies, each at a student's share.
    const mallory = ["m1", "m2", "m3", "m4", "m5"].map((name) => holder.keep(student(name), [png(100)])[0]!);
    expect(holder.read(student("ada"), ada!.ref)?.bytes.length).toBe(20);
    expect(holder.read(student("m5"), mallory[4]!.ref)).not.toBeNull();
    expect(mallory.filter((file, n) => holder.read(student(`m${n + 1}`), file.ref)).length).toBe(2);
  });
});
