import { describe, expect, it } from "vitest";
import { claimsOf } from "./claims.ts";
import type { CitationPart } from "./types.ts";

const cite = (path: string, startLine: number, endLine: number, verified = true): CitationPart => ({
  raw: `${path}:${startLine}-${endLine}`,
  path,
  startLine,
  endLine,
  verified,
  reason: verified ? null : "no such lines",
  symbol: null,
  snippet: verified ? "code" : null,
  language: "python",
});

describe("claimsOf", () => {
  it("splits paragraphs into sentences and keeps list items whole, each with its own citations", () => {
    const answer = [
      "`compute_total` sums the items (pricing.py:6-14). It then applies a coupon (pricing.py:16-20).",
      "",
      "- `place_order` calls it (service.py:14-22), then saves the order (repository.py:11-15).",
      "- Nothing cited here.",
      "",
      "```python",
      "x = 1  # quoted.py:1-2 is evidence shown, not a claim",
      "```",
    ].join("\n");
    const verified = [
      cite("pricing.py", 6, 14),
      cite("pricing.py", 16, 20),
      cite("service.py", 14, 22),
      cite("repository.py", 11, 15, false),
    ];
    const claims = claimsOf(answer, verified);
    expect(claims.map((c) => c.text)).toEqual([
      "`compute_total` sums the items (pricing.py:6-14).",
      "It then applies a coupon (pricing.py:16-20).",
      "`place_order` calls it (service.py:14-22), then saves the order (repository.py:11-15).",
    ]);
    expect(claims.map((c) => c.citations.map((x) => `${x.path}:${x.startLine}`))).toEqual([
      ["pricing.py:6"],
      ["pricing.py:16"],
      ["service.py:14", "repository.py:11"],
    ]);
    // A statement is verified only when every citation in it is.
    expect(claims.map((c) => c.verified)).toEqual([true, true, false]);
  });

  it("returns no claims for an answer without citations", () => {
    expect(claimsOf("No evidence was found.", [])).toEqual([]);
  });
});
