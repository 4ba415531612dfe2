import { describe, expect, it } from "vitest";
import type { CitationPart, PassPart, WayfinderUIMessage } from "@/lib/qa/types";
import {
  activePassOf,
  answeredPassesOf,
  answerOf,
  draftsOf,
  gapsOf,
  matchCitation,
  parseCitation,
  passesOf,
} from "./message-parts";

function pass(overrides: Partial<PassPart>): PassPart {
  return {
    pass: 1,
    phase: "done",
    label: "",
    gapsIdentified: [],
    gaps: [],
    added: [],
    addedTokens: 0,
    contextTokens: 0,
    reasoning: null,
    durationMs: 10,
    stopReason: null,
    ...overrides,
  };
}

function message(parts: WayfinderUIMessage["parts"]): WayfinderUIMessage {
  return { id: "m", role: "assistant", parts };
}

describe("answerOf / draftsOf", () => {
  it("shows the last non-empty text part and keeps earlier drafts", () => {
    const m = message([
      { type: "text", text: "draft one" },
      { type: "text", text: "final" },
    ]);
    expect(answerOf(m)).toBe("final");
    expect(draftsOf(m)).toEqual(["draft one"]);
  });

  it("keeps the previous draft on screen while the next pass's part is still empty", () => {
    const m = message([
      { type: "text", text: "draft one" },
      { type: "text", text: "" },
    ]);
    expect(answerOf(m)).toBe("draft one");
    expect(draftsOf(m)).toEqual([]);
  });
});

describe("answeredPassesOf", () => {
  it("does not count a last retrieval that found nothing new, so the header agrees with the footer", () => {
    const m = message([
      { type: "data-pass", id: "pass-1", data: pass({ pass: 1 }) },
      { type: "data-pass", id: "pass-2", data: pass({ pass: 2, stopReason: "no-new-context" }) },
    ]);
    expect(passesOf(m)).toHaveLength(2);
    expect(answeredPassesOf(m)).toBe(1);
    expect(answeredPassesOf({ ...m, metadata: { passesUsed: 1 } as WayfinderUIMessage["metadata"] })).toBe(1);
  });
});

describe("passesOf / activePassOf", () => {
  it("orders passes and finds the running one", () => {
    const m = message([
      { type: "data-pass", id: "pass-2", data: pass({ pass: 2, phase: "retrieving" }) },
      { type: "data-pass", id: "pass-1", data: pass({ pass: 1 }) },
    ]);
    expect(passesOf(m).map((p) => p.pass)).toEqual([1, 2]);
    expect(activePassOf(m)?.pass).toBe(2);
  });
});

describe("gapsOf", () => {
  it("keeps each gap's latest outcome and lists gaps never looked up", () => {
    const m = message([
      {
        type: "data-pass",
        id: "pass-2",
        data: pass({
          pass: 2,
          gaps: [
            {
              gap: "charge_card",
              status: "resolved",
              via: "direct",
              found: ["shop/payments.py:12-20"],
              searched: [],
              note: null,
            },
            {
              gap: "Gateway",
              status: "unresolved",
              via: null,
              found: [],
              searched: ["name Gateway"],
              note: null,
            },
          ],
        }),
      },
      {
        type: "data-pass",
        id: "pass-3",
        data: pass({
          pass: 3,
          gaps: [
            {
              gap: "Gateway",
              status: "resolved",
              via: "semantic",
              found: ["shop/gw.py:1-4"],
              searched: [],
              note: null,
            },
          ],
          gapsIdentified: ["retry_policy"],
          stopReason: "max-passes",
        }),
      },
    ]);
    const gaps = gapsOf(m);
    expect(gaps.resolved.map((g) => g.gap)).toEqual(["charge_card", "Gateway"]);
    expect(gaps.unresolved).toEqual([]);
    expect(gaps.open).toEqual(["retry_policy"]);
  });
});

describe("parseCitation", () => {
  it("parses ranges, single lines and #L anchors", () => {
    expect(parseCitation("shop/api.py:12-20")).toEqual({ path: "shop/api.py", startLine: 12, endLine: 20 });
    expect(parseCitation("src/a.ts:7")).toEqual({ path: "src/a.ts", startLine: 7, endLine: 7 });
    expect(parseCitation("src/a.ts#L3-L9")).toEqual({ path: "src/a.ts", startLine: 3, endLine: 9 });
    expect(parseCitation("not a citation")).toBeNull();
  });
});

describe("matchCitation", () => {
  const part = (raw: string, startLine: number, endLine: number, alsoCites?: string[]): CitationPart => ({
    raw,
    path: "a.rb",
    startLine,
    endLine,
    verified: true,
    reason: null,
    symbol: null,
    snippet: "x",
    language: "ruby",
    ...(alsoCites ? { alsoCites } : {}),
  });

  it("finds a citation by what was written, by its lines, or in the entry it was merged into", () => {
    const merged = part("a.rb:6-55", 6, 60, ["a.rb:6-55", "a.rb:15-19"]);
    const other = part("a.rb:80-90", 80, 90);
    const at = (raw: string) => parseCitation(raw) as NonNullable<ReturnType<typeof parseCitation>>;
    expect(matchCitation([merged, other], at("a.rb:6-55"), "a.rb:6-55")).toBe(merged);
    expect(matchCitation([merged, other], at("a.rb:80-90"), "`a.rb:80-90`")).toBe(other);
    expect(matchCitation([merged, other], at("a.rb:15-19"), "a.rb:15-19")).toBe(merged);
    expect(matchCitation([merged, other], at("a.rb:20-21"), "a.rb:20-21")).toBeNull();
  });
});
