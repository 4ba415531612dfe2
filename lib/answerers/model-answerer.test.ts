/**
 * The streamed path of the model answerer: whatever way the provider chunks its
 * reply, the deltas shown to the user carry only the answer text — never the
 * <answer>/<missing>/<reasoning> markup, a tag cut in half, or the gap list — and
 * the parsed answer, gaps and reasoning match the reply; a fenced mermaid diagram in
 * the answer (arrows, `<<annotations>>` and all) reaches the user intact. No database
 * needed.
 */
import { describe, expect, it } from "vitest";
import { extractAnchors } from "../search/anchors.ts";
import { scriptedModel, type Reply } from "../../test-support/qa-model.ts";
import type { AnswerInput } from "./contract.ts";
import { ModelAnswerer } from "./model-answerer.ts";

const QUESTION = "Why does charge_card raise PaymentDeclined?";
const ANSWER =
  "`charge_card` raises `PaymentDeclined` when `amount > 10_000` or the card is blocked (shop/payments.py:12-19).";
const GAP = "block_card in shop/payments.py";
// Any markup, whole or as the start of a tag, that must never reach the user.
const MARKUP =
  /<\s*\/?\s*(?:a(?:n(?:s(?:w(?:e(?:r)?)?)?)?)?|m(?:i(?:s(?:s(?:i(?:n(?:g)?)?)?)?)?)?|r(?:e(?:a(?:s(?:o(?:n(?:i(?:n(?:g)?)?)?)?)?)?)?)?)\b|answer>|missing>|reasoning>/i;

const TAGGED = `<answer>\n${ANSWER}\n</answer>\n<missing>\n- ${GAP}\n</missing>\n<reasoning>Blocking is defined elsewhere.</reasoning>`;

function input(): AnswerInput {
  return {
    question: QUESTION,
    mode: "diagnostic",
    pass: 1,
    maxPasses: 3,
    context: [],
    graph: { triples: [] },
    anchors: extractAnchors(QUESTION),
    reasoningHistory: [],
    notFound: new Set(),
    history: [],
  };
}

async function stream(reply: Reply) {
  const scripted = scriptedModel([reply]);
  const deltas: string[] = [];
  const output = await new ModelAnswerer(scripted.model, "mock:test", 5000).answer(input(), (d) =>
    deltas.push(d),
  );
  return { deltas, output, shown: deltas.join("") };
}

function splitAt(text: string, cuts: number[]): string[] {
  const points = [0, ...cuts.filter((c) => c > 0 && c < text.length).sort((a, b) => a - b), text.length];
  return points.slice(1).map((end, i) => text.slice(points[i], end));
}

describe("streamed answer text", () => {
  it("shows only the answer and parses gaps and reasoning", async () => {
    const { shown, output, deltas } = await stream({ chunks: [TAGGED] });
    expect(shown.trim()).toBe(ANSWER);
    expect(deltas.every((d) => !MARKUP.test(d))).toBe(true);
    expect(output.answer).toBe(ANSWER);
    expect(output.gaps).toEqual([GAP]);
    expect(output.reasoning).toBe("Blocking is defined elsewhere.");
    expect(output.sufficient).toBe(false);
  });

  it("never leaks markup when tags are split across chunks at any point", async () => {
    // Every two-chunk split near a tag boundary, plus runs of fixed-size chunks.
    const boundaries = [...TAGGED.matchAll(/<\/?(?:answer|missing|reasoning)>/g)].flatMap((m) => {
      const start = m.index ?? 0;
      return Array.from({ length: m[0].length + 1 }, (_, i) => start + i);
    });
    const splits = [
      ...boundaries.map((b) => [b]),
      ...[1, 2, 3, 5, 8, 13].map((size) =>
        Array.from({ length: Math.ceil(TAGGED.length / size) }, (_, i) => i * size),
      ),
    ];
    for (const cuts of splits) {
      const { shown, output } = await stream({ chunks: splitAt(TAGGED, cuts) });
      expect(shown, `cuts ${cuts.slice(0, 3).join(",")}…`).not.toMatch(MARKUP);
      expect(shown).not.toContain("block_card");
      expect(shown.trim()).toBe(ANSWER);
      expect(output.gaps).toEqual([GAP]);
    }
  });

  it("drops reasoning written before the answer", async () => {
    const reply = `<reasoning>I will look at payments first.</reasoning>\n${TAGGED.replace(/<reasoning>.*<\/reasoning>/, "")}`;
    for (const size of [1, 4, 9, 1000]) {
      const { shown, output } = await stream({
        chunks: splitAt(
          reply,
          Array.from({ length: reply.length }, (_, i) => i * size),
        ),
      });
      expect(shown).not.toMatch(MARKUP);
      expect(shown).not.toContain("look at payments");
      expect(output.answer).toBe(ANSWER);
      expect(output.reasoning).toBe("I will look at payments first.");
    }
  });

  it("hides legacy ANSWER:/MISSING: headers and the gap list", async () => {
    const legacy = `ANSWER:\n${ANSWER}\n\nMISSING (or "NONE" if nothing needed):\n- ${GAP}\n`;
    for (const size of [1, 3, 7, 1000]) {
      const { shown, output } = await stream({
        chunks: splitAt(
          legacy,
          Array.from({ length: legacy.length }, (_, i) => i * size),
        ),
      });
      expect(shown).not.toMatch(/ANSWER:|MISSING/);
      expect(shown).not.toContain("block_card");
      expect(shown.trim()).toBe(ANSWER);
      expect(output.gaps).toEqual([GAP]);
    }
  });

  it("keeps a '<' that belongs to the answer", async () => {
    const answer = "It raises when `amount <= 0` or when a < b for the limit (shop/payments.py:12-19).";
    const { shown, output } = await stream({
      chunks: splitAt(`<answer>${answer}</answer><missing>NONE</missing>`, [20, 21, 22, 40]),
    });
    expect(shown.trim()).toBe(answer);
    expect(output.gaps).toEqual([]);
    expect(output.sufficient).toBe(true);
  });

  it("passes a fenced mermaid diagram through intact, whatever its arrows and annotations", async () => {
    const sequence = [
      "```mermaid",
      "sequenceDiagram",
      "    participant API as create_order",
      "    API->>OrderService: place_order(cart)",
      "    OrderService-)Payments: charge_card(total)",
      "    Payments--xOrderService: PaymentDeclined",
      "    API<<->>OrderService: retry once",
      "    Note over API,OrderService: 402 when the card is declined",
      "```",
    ].join("\n");
    const states = [
      "```mermaid",
      "stateDiagram-v2",
      "    [*] --> Pending",
      "    state charged <<choice>>",
      "    Pending --> charged: charge_card()",
      "    charged --> Paid: approved",
      "    charged --> Declined: amount > 10_000",
      "```",
    ].join("\n");
    for (const diagram of [sequence, states]) {
      const answer = `\`charge_card\` runs after \`place_order\` (shop/payments.py:12-19):\n\n${diagram}\n\nA declined card stops the order.`;
      const reply = `<answer>\n${answer}\n</answer>\n<missing>NONE</missing>\n<reasoning>The flow is in context.</reasoning>`;
      for (const size of [1, 2, 5, 11, 10_000]) {
        const { shown, output } = await stream({
          chunks: splitAt(
            reply,
            Array.from({ length: reply.length }, (_, i) => i * size),
          ),
        });
        expect(shown.trim(), `chunks of ${size}`).toBe(answer);
        expect(output.answer).toBe(answer);
        expect(output.gaps).toEqual([]);
      }
    }
  });

  it("tells the model it may add one mermaid diagram about the cited code", async () => {
    const scripted = scriptedModel([{ chunks: [TAGGED] }]);
    await new ModelAnswerer(scripted.model, "mock:test", 5000).answer(input(), () => undefined);
    const prompt = scripted.prompts()[0] ?? "";
    expect(prompt).toContain("you may add ONE diagram to the answer as a fenced ```mermaid block");
    expect(prompt).toContain("Show only code you cite in the answer");
  });
});
