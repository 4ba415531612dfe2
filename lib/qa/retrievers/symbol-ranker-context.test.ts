/**
 * The learned ranker's leading symbols reach the answer: on a real index of the shop
 * fixture, each of the first five ranked symbols of a conceptual, diagnostic and
 * exploratory question is among the context items the answer is written from.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexFixture, setupQaHome, type IndexedFixture } from "../../../test-support/qa-env.ts";
import { PartLog } from "../../../test-support/qa-model.ts";
import { askQuestion } from "../ask.ts";
import type { QueryMode } from "../types.ts";

let shop: IndexedFixture;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-ranker-context-"));
  shop = await indexFixture();
});
afterAll(() => cleanup());

describe("the ranker's leading symbols", () => {
  it.each([
    ["conceptual", "How is the order total computed when a coupon applies?"],
    ["diagnostic", 'ValueError: "unknown coupon code" when placing an order. Where is it raised?'],
    ["exploratory", "Walk me through what happens when an order is placed, until the payment is charged."],
  ] as [QueryMode, string][])("are in the %s answer's context", async (mode, question) => {
    const result = await askQuestion(
      { repository: shop.repositoryId, question, overrides: { mode } },
      new PartLog(),
      { model: null, ephemeral: true },
    );
    const { items, rankedSymbols } = result.loop.retrieval;
    const held = new Set(items.flatMap((i) => (i.facts ? [i.facts.qualifiedId] : [])));
    const leading = rankedSymbols.slice(0, 5);
    expect(leading.length).toBeGreaterThan(0);
    expect(leading.filter((id) => !held.has(id))).toEqual([]);
  });
});
