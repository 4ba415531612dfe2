/** The build report's words: every reason says why and what to do. */
import { describe, expect, it } from "vitest";
import {
  formatBytes,
  skipAdvice,
  skipReasonText,
  unparsedAdvice,
  unparsedReasonText,
} from "./build-report.ts";

describe("the build report", () => {
  it("says why a file was skipped and what to do about it", () => {
    expect(skipReasonText({ reason: "too-large", detail: "1.5 MB, limit 1 MB" })).toBe(
      "over the file size limit (1.5 MB, limit 1 MB)",
    );
    expect(skipAdvice("too-large")).toMatch(/^Raise WAYFINDER_MAX_FILE_BYTES/);
    expect(skipAdvice("not-utf8")).toBe("Convert it to UTF-8 to index it.");
    expect(skipAdvice("symlink-outside-root")).toMatch(/copy the target in/);
  });

  it("turns a stored parse failure into words, with advice by kind", () => {
    expect(unparsedReasonText("timeout: over 30 s")).toBe("its parse took too long (over 30 s)");
    expect(unparsedReasonText("memory: the worker's 192 MB heap ran out")).toBe(
      "parsing it exhausted a parse worker's memory (the worker's 192 MB heap ran out)",
    );
    expect(unparsedReasonText("error: Maximum call stack size exceeded")).toBe(
      "parsing it failed (Maximum call stack size exceeded)",
    );
    for (const reason of ["timeout: x", "memory: x", "error: x"])
      expect(unparsedAdvice(reason)).toContain("linguist-generated or linguist-vendored");
    expect(unparsedAdvice("memory: x")).toContain("WAYFINDER_PARSE_THREADS=0");
  });

  it("writes sizes as people read them", () => {
    expect(formatBytes(900)).toBe("900 B");
    expect(formatBytes(4096)).toBe("4 KB");
    expect(formatBytes(1024 * 1024)).toBe("1 MB");
    expect(formatBytes(2.25 * 1024 * 1024)).toBe("2.3 MB");
  });
});
