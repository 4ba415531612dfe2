import { describe, expect, it } from "vitest";
import { foundAt, hitAt, openingAnswers, openingOf } from "./questions.ts";

describe("the first paragraph check", () => {
  const files = [["src/error.rs"]];
  const spans = [{ path: "src/error.rs", startLine: 10, endLine: 40 }];

  it("does not read a cited path as error framing", () => {
    const opening = openingOf(
      "Printing is decided in `anyhow.ErrorImpl.display` (src/error.rs:12-30): `f.write_str(msg)`.",
      files,
      spans,
    );
    expect(opening).toEqual({ citesRightFile: true, citesExpectedSymbol: true, errorFraming: false });
    expect(openingAnswers({ opening, expectedMode: "conceptual" })).toBe(true);
  });

  it("still reads error words in the prose as framing, outside a diagnostic question only", () => {
    const opening = openingOf(
      "No raise site in the index matches this error exactly; the closest is `f` (src/error.rs:12-30).",
      files,
      spans,
    );
    expect(opening.errorFraming).toBe(true);
    expect(openingAnswers({ opening, expectedMode: "conceptual" })).toBe(false);
    expect(openingAnswers({ opening, expectedMode: "diagnostic" })).toBe(true);
  });

  it("counts only citations of at most 150 lines in an expected file", () => {
    expect(openingOf("It is in `f` (src/error.rs:1-400).", files, spans).citesRightFile).toBe(false);
    expect(openingOf("It is in `g` (src/lib.rs:1-20).", files, spans).citesRightFile).toBe(false);
  });
});

describe("hit and recall over expected places", () => {
  const ranked = ["a.ts::f#2", "b.ts::g", "c.ts::h", "d.ts::i", "e.ts::j", "f.ts::k"];

  it("a hit needs every expected entry in the top k, an overload answering for its name", () => {
    expect(hitAt(ranked, ["a.ts::f", "c.ts::h"], 5)).toBe(true);
    expect(hitAt(ranked, ["a.ts::f", "f.ts::k"], 5)).toBe(false);
    expect(hitAt(ranked, [["x.ts::y", "e.ts::j"]], 5)).toBe(true);
  });

  it("recall counts each expected entry on its own", () => {
    expect(foundAt(ranked, ["a.ts::f", "f.ts::k", "z.ts::z"], 5)).toBe(1);
    expect(foundAt(ranked, ["a.ts::f", "f.ts::k", "z.ts::z"], 6)).toBe(2);
    expect(foundAt(ranked, [["x.ts::y", "b.ts::g"], "d.ts::i"], 5)).toBe(2);
  });
});
