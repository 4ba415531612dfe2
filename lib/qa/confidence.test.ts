// Answer confidence comes from the evidence (verified citations, resolved gaps, symbols
// found) and the admin-configurable thresholds decide the label.
import { describe, expect, it } from "vitest";
import { confidenceOf } from "./ask";
import type { ContextItem } from "../answerers/contract";
import type { LoopResult } from "./loop";
import type { CitationPart } from "./types";

function loop(symbols: number, identified: string[], unresolved: string[]): LoopResult {
  const item = { facts: { qualifiedId: "x" } } as unknown as ContextItem;
  return {
    context: Array.from({ length: symbols }, () => item),
    gapsIdentified: identified,
    gapsUnresolved: unresolved,
  } as LoopResult;
}

function citation(verified: boolean): CitationPart {
  return {
    raw: "a.py:1-2",
    path: "a.py",
    startLine: 1,
    endLine: 2,
    verified,
    reason: null,
    symbol: null,
    snippet: null,
    language: null,
  };
}

const defaults = { highConfidenceThreshold: 0.8, mediumConfidenceThreshold: 0.5 };

describe("confidenceOf", () => {
  it("is high when every citation verifies and every gap was resolved", () => {
    expect(confidenceOf(loop(4, ["g"], []), [citation(true), citation(true)], defaults)).toBe("high");
  });

  it("drops with unverified citations and unresolved gaps", () => {
    expect(confidenceOf(loop(4, ["g", "h"], ["g", "h"]), [citation(true), citation(false)], defaults)).toBe(
      "low",
    );
    expect(
      confidenceOf(loop(1, ["g", "h"], ["g"]), [citation(true), citation(true), citation(false)], defaults),
    ).toBe("medium");
  });

  it("is low without evidence, whatever the thresholds", () => {
    expect(
      confidenceOf(loop(0, [], []), [], { highConfidenceThreshold: 0, mediumConfidenceThreshold: 0 }),
    ).toBe("low");
  });

  it("follows the configured thresholds", () => {
    const partial = loop(1, ["g", "h"], ["g"]);
    const cites = [citation(true), citation(true), citation(false)];
    expect(
      confidenceOf(partial, cites, { highConfidenceThreshold: 0.5, mediumConfidenceThreshold: 0.3 }),
    ).toBe("high");
    expect(
      confidenceOf(partial, cites, { highConfidenceThreshold: 0.95, mediumConfidenceThreshold: 0.9 }),
    ).toBe("low");
  });
});
