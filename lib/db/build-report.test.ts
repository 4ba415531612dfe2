/** A generation's build report reads back safely from stored stats, old or malformed. */
import { describe, expect, it } from "vitest";
import { buildReportOf } from "./build-report.ts";

describe("the stored build report", () => {
  it("reads stats from before the lists existed, and malformed ones, without failing", () => {
    expect(buildReportOf({ skipped: { binary: 3, "too-large": 0 }, fileClasses: { vendored: 2 } })).toEqual({
      skipped: { binary: 3 },
      skippedFiles: null,
      unparsedFiles: [],
      unparsedCount: 0,
      fileClasses: { vendored: 2 },
    });
    expect(buildReportOf("not an object").skippedFiles).toBeNull();
    expect(
      buildReportOf({ skippedFiles: [{ path: 1 }, { path: "a.py", reason: "not-utf8" }] }).skippedFiles,
    ).toEqual([{ path: "a.py", reason: "not-utf8" }]);
  });
});
