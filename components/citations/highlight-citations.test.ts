/**
 * Server highlighting numbers a snippet's lines as in the file: from the lines recorded
 * as shown, or for an answer stored before those were, from the span's first line.
 */
import { describe, expect, it } from "vitest";
import type { CitationPart } from "@/lib/qa/types";
import { highlightKey } from "./citation-key";
import { highlightCitations } from "./highlight-citations";

const base: CitationPart = {
  raw: "shop/payments.py:12-19",
  path: "shop/payments.py",
  startLine: 12,
  endLine: 19,
  verified: true,
  reason: null,
  symbol: "shop/payments.py::charge_card",
  snippet: "    if amount <= 0:\n        raise ValueError()",
  language: "python",
};

const numbers = (html: string | null | undefined) =>
  [...(html ?? "").matchAll(/data-line="(\d+)"/g)].map((m) => m[1]);

describe("highlightCitations", () => {
  it("numbers the shown lines as in the file", async () => {
    const shown = { ...base, shown: { startLine: 14, endLine: 15 } };
    const html = await highlightCitations([shown]);
    expect(numbers(html[highlightKey(shown)]?.[0])).toEqual(["14", "15"]);
  });

  it("numbers an answer stored without shown lines from the span's first line", async () => {
    const html = await highlightCitations([base]);
    expect(numbers(html[highlightKey(base)]?.[0])).toEqual(["12", "13"]);
  });
});
