/**
 * Every fixture extracts as its stored snapshot says. The snapshot began as the output
 * of the per-language extractors the query engine replaced; rewrite it with
 * `npx tsx scripts/compare-extraction.ts --write` only for an intended change.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import {
  compareSnapshots,
  extractAll,
  FIXTURE_DIRS,
  FIXTURE_SNAPSHOT,
} from "../../../scripts/compare-extraction";

describe("extraction snapshot", () => {
  it("extracts every fixture as the snapshot says", async () => {
    const expected = JSON.parse(fs.readFileSync(FIXTURE_SNAPSHOT, "utf8"));
    const result = compareSnapshots(expected, await extractAll(FIXTURE_DIRS));
    expect(result.differences).toEqual([]);
    expect(result.files).toBeGreaterThanOrEqual(41);
    expect(result.symbols).toBeGreaterThan(140);
  });
});
