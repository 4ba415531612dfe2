/**
 * The first sentence of an offline answer answers the question in its own terms, per
 * mode, on a real index of the shop fixture: what computes the thing asked about with the
 * deciding line quoted; the steps a question names, in its order; a symptom with no quoted
 * error gets the code behind it, never "no raise site matches".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { symbolsByName } from "../db/code-graph.ts";
import { indexFixture, setupQaHome, type IndexedFixture } from "../../test-support/qa-env.ts";
import { PartLog } from "../../test-support/qa-model.ts";
import { askQuestion } from "./ask.ts";
import type { QueryMode } from "./types.ts";

let shop: IndexedFixture;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-openings-"));
  shop = await indexFixture();
});
afterAll(() => cleanup());

async function opening(question: string, mode: QueryMode): Promise<string> {
  const result = await askQuestion(
    { repository: shop.repositoryId, question, overrides: { mode } },
    new PartLog(),
    { model: null, ephemeral: true },
  );
  return result.loop.answer.split("\n")[0] ?? "";
}

async function span(name: string): Promise<string> {
  const [s] = await symbolsByName(shop.generationId, name);
  return `${s?.path}:${s?.startLine}-${s?.endLine}`;
}

describe("the first sentence", () => {
  it("says where the thing asked about is computed, quoting the formula", async () => {
    const text = await opening("How is the order total computed?", "conceptual");
    expect(text).toMatch(
      new RegExp(`^The order total is computed in \`compute_total\` \\(${await span("compute_total")}\\): `),
    );
    expect(text).toContain('`total += item["price"] * item["quantity"]`');
    expect(text).not.toMatch(/raise/i);
  });

  it("follows the calls a question names, in its order, as one chain when one calls the next", async () => {
    const text = await opening(
      "Walk me through create_order(payload) and then OrderService.place_order",
      "exploratory",
    );
    // The named calls in the question's order, then on into what `place_order` calls, each cited.
    const start =
      `It starts at \`create_order\` (${await span("create_order")}), ` +
      `then \`OrderService.place_order\` (${await span("place_order")}) → `;
    expect(text.startsWith(start)).toBe(true);
    expect(text.slice(start.length)).toMatch(
      /^`(?:compute_total|apply_coupon|charge_card|OrderRepository\.save)` \(shop\/\w+\.py:\d+-\d+\)/,
    );
  });

  it("answers a symptom with no quoted error from the code behind it", async () => {
    const text = await opening(
      "After the last deploy, orders with a coupon get a total that is too high",
      "diagnostic",
    );
    expect(text).not.toMatch(/No raise site/);
    expect(text).toMatch(/^The behaviour comes from `\w+(?:\.\w+)?` \(shop\/\w+\.py:\d+-\d+\)/);
  });
});
