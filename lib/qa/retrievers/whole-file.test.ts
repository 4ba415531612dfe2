/**
 * The whole-file lexical channel is fused by every mode: a file that only BM25 over whole
 * files can find (its words lie in module-level code far below what any chunk holds) is
 * among the top files whatever mode the question is routed to.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexRepository } from "../../builds/build.ts";
import { retrieveReport } from "../retrieve.ts";
import { setupTempEnv, type TempEnv } from "../../../test-support/temp-env.ts";
import type { QueryMode } from "../types.ts";

let t: TempEnv;
let repositoryId: string;
beforeAll(async () => {
  t = await setupTempEnv();
  const filler = Array.from({ length: 90 }, (_, i) => `SETTING_${i} = ${i}`).join("\n");
  const table = Array.from(
    { length: 12 },
    (_, i) => `RATES_${i} = {"quetzal": ${i}, "quetzal_fee": ${i * 2}}`,
  ).join("\n");
  const root = t.makeRepo({
    "money/tables.py": `${filler}\n${table}\n`,
    "money/convert.py":
      'def convert(amount, rate):\n    """Multiply an amount by a rate."""\n    return amount * rate\n',
    "money/format.py":
      'def format_amount(amount):\n    """Render an amount with two decimals."""\n    return f"{amount:.2f}"\n',
    "shop/cart.py":
      'def cart_total(items):\n    """Sum the prices of the items."""\n    return sum(i.price for i in items)\n',
  });
  ({
    repository: { id: repositoryId },
  } = await indexRepository(root));
});
afterAll(async () => {
  await t?.cleanup();
});

describe("the whole-file channel in every mode", () => {
  it.each(["conceptual", "diagnostic", "exploratory", "analytical"] as QueryMode[])(
    "%s retrieval fuses it and ranks the file it alone finds",
    async (mode) => {
      const report = await retrieveReport(repositoryId, "Where are the quetzal rates and fees kept?", {
        mode,
      });
      expect(report.mode).toBe(mode);
      expect(report.signals["whole-file"]?.[0]).toBe("money/tables.py");
      expect(report.files.slice(0, 5)).toContain("money/tables.py");
    },
  );
});
