import { describe, expect, it } from "vitest";
import { cleanSummary } from "./summaries.ts";

describe("cleanSummary", () => {
  it("keeps the prose of a summary on one line", () => {
    expect(cleanSummary("Summary: The pricing module computes\norder totals and discounts.")).toBe(
      "The pricing module computes order totals and discounts.",
    );
  });

  it("drops a fenced diagram or code block instead of flattening it into the sentence", () => {
    const text = [
      "The service places orders and charges the card.",
      "",
      "```mermaid",
      "sequenceDiagram",
      "  api->>service: place_order(cart)",
      "```",
      "",
      "Declined cards raise PaymentDeclined.",
      "~~~python",
      "place_order(cart)",
    ].join("\n");
    expect(cleanSummary(text)).toBe(
      "The service places orders and charges the card. Declined cards raise PaymentDeclined.",
    );
  });
});
