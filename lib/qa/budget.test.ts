import { encode } from "gpt-tokenizer";
import { describe, expect, it } from "vitest";

import {
  BudgetTracker,
  commentLine,
  countTokens,
  fitsInTokens,
  truncateSource,
  truncateToTokens,
} from "./budget";

const PYTHON_SOURCE = [
  "@cached",
  "def load_config(",
  "    path: str,",
  "    strict: bool = False,",
  ") -> Config:",
  '    """Load the config file at path.',
  "",
  "    Raises ConfigError when strict and a key is unknown.",
  '    """',
  ...Array.from({ length: 200 }, (_, i) => `    value_${i} = compute(path, ${i})  # step ${i}`),
  "    return Config(values)",
].join("\n");

const TS_SOURCE = [
  "/** Resolves a gap by direct lookup first. */",
  "export async function resolveGap(gap: string, index: CodeIndex): Promise<Context | null> {",
  ...Array.from({ length: 150 }, (_, i) => `  const step${i} = await index.lookup(gap, ${i});`),
  "}",
].join("\n");

describe("countTokens / truncateToTokens", () => {
  it("agrees with the tokenizer and counts special-token text as plain text", () => {
    expect(countTokens("hello world")).toBe(encode("hello world").length);
    expect(countTokens("")).toBe(0);
    expect(countTokens("x = '<|endoftext|>'")).toBeGreaterThan(3);
  });

  it("keeps text within the limit untouched and cuts longer text to a prefix of at most max tokens", () => {
    expect(truncateToTokens("short", 10)).toBe("short");
    const long = "The quick brown fox jumps over the lazy dog. ".repeat(50);
    const cut = truncateToTokens(long, 25);
    expect(countTokens(cut)).toBeLessThanOrEqual(25);
    expect(countTokens(cut)).toBeGreaterThanOrEqual(23);
    expect(long.startsWith(cut)).toBe(true);
    expect(truncateToTokens(long, 0)).toBe("");
  });

  it("never leaves half a multi-byte character at the cut", () => {
    for (let max = 1; max < 12; max++)
      expect(truncateToTokens("héllo wörld 🎉🎉🎉 done", max)).not.toMatch(/\uFFFD/);
  });

  it("fitsInTokens stops early on long input", () => {
    const huge = "token ".repeat(200_000);
    const started = performance.now();
    expect(fitsInTokens(huge, 100)).toBe(false);
    expect(performance.now() - started).toBeLessThan(200);
    expect(fitsInTokens("a b c", 3)).toBe(true);
  });
});

describe("truncateSource", () => {
  it("returns source that fits unchanged", () => {
    expect(truncateSource({ source: "def f():\n    return 1", budget: 50, language: "python" })).toBe(
      "def f():\n    return 1",
    );
  });

  it.each([20, 40, 60, 100, 300, 1000])(
    "fits a budget of %i tokens and keeps a prefix of the lines",
    (budget) => {
      const result = truncateSource({ source: PYTHON_SOURCE, budget, language: "python" });
      expect(countTokens(result)).toBeLessThanOrEqual(budget);
      const lines = result.split("\n");
      const original = PYTHON_SOURCE.split("\n");
      lines.slice(0, -1).forEach((line, i) => expect(original[i]?.startsWith(line)).toBe(true));
    },
  );

  it("keeps the signature and docstring, then the head of the body, then a marker", () => {
    const result = truncateSource({
      source: PYTHON_SOURCE,
      budget: 120,
      language: "python",
      docstring: "Load the config file at path. Raises ConfigError when strict and a key is unknown.",
    });
    const lines = result.split("\n");
    expect(lines.slice(0, 9)).toEqual(PYTHON_SOURCE.split("\n").slice(0, 9));
    expect(lines[9]).toBe("    value_0 = compute(path, 0)  # step 0");
    const shown = lines.length - 1;
    expect(lines.at(-1)).toBe(`    # … truncated (${PYTHON_SOURCE.split("\n").length - shown} more lines)`);
  });

  it("writes the marker in the language's comment syntax", () => {
    expect(
      truncateSource({ source: TS_SOURCE, budget: 80, language: "typescript" }).split("\n").at(-1),
    ).toMatch(/^ {2}\/\/ … truncated \(\d+ more lines\)$/);
    expect(commentLine("x", "markdown")).toBe("<!-- x -->");
    expect(commentLine("x", "rust")).toBe("// x");
    expect(commentLine("x", "py")).toBe("# x");
  });

  it("cuts inside the signature rather than showing nothing when the budget is tiny", () => {
    const result = truncateSource({
      source: PYTHON_SOURCE,
      budget: 22,
      language: "python",
      signatureLines: 5,
    });
    expect(countTokens(result)).toBeLessThanOrEqual(22);
    expect(result.startsWith("@cached\ndef load_config(")).toBe(true);
    expect(result).toMatch(/truncated \(\d+ more lines\)$/);
  });

  it("is fast enough to run on every snippet", () => {
    const started = performance.now();
    for (let i = 0; i < 100; i++) truncateSource({ source: PYTHON_SOURCE, budget: 300, language: "python" });
    expect((performance.now() - started) / 100).toBeLessThan(10);
  });
});

describe("BudgetTracker", () => {
  it("adds within limits and refuses what would cross the total", () => {
    const tracker = new BudgetTracker({ total: 100 });
    expect(tracker.tryAdd(60, 1)).toBe(true);
    expect(tracker.tryAdd(50, 2)).toBe(false);
    expect(tracker.tryAdd(40, 2)).toBe(true);
    expect(tracker.used).toBe(100);
    expect(tracker.remaining).toBe(0);
    expect(tracker.exhausted).toBe(true);
  });

  it("enforces per-pass limits, repeating the last one for later passes", () => {
    const tracker = new BudgetTracker({ total: 10_000, passLimits: [1000, 750, 500] });
    expect(tracker.tryAdd(900, 1)).toBe(true);
    expect(tracker.tryAdd(200, 1)).toBe(false);
    expect(tracker.tryAdd(750, 2)).toBe(true);
    expect(tracker.tryAdd(1, 2)).toBe(false);
    expect(tracker.limitFor(5)).toBe(500);
    expect(tracker.remainingInPass(4)).toBe(500);
    expect(tracker.perPass).toEqual([
      { pass: 1, used: 900, limit: 1000 },
      { pass: 2, used: 750, limit: 750 },
    ]);
  });

  it("bounds a pass by what is left of the total", () => {
    const tracker = new BudgetTracker({ total: 300, passLimits: 1000 });
    tracker.tryAdd(250, 1);
    expect(tracker.remainingInPass(2)).toBe(50);
    expect(tracker.fits(60, 2)).toBe(false);
    expect(tracker.exhausted).toBe(false);
  });

  it("rejects invalid token counts and totals", () => {
    const tracker = new BudgetTracker({ total: 10 });
    expect(() => tracker.tryAdd(-1, 1)).toThrow(RangeError);
    expect(() => tracker.tryAdd(Number.NaN, 1)).toThrow(RangeError);
    expect(() => new BudgetTracker({ total: -5 })).toThrow(RangeError);
    expect(tracker.used).toBe(0);
  });
});
