/** The extraction engine against the previous per-language extractors, on every fixture file. */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compareFiles } from "../../../../scripts/compare-extraction";
import { languageForPath } from "../../parser";

const root = fileURLToPath(new URL("../../../", import.meta.url));

function fixtureFiles() {
  const out = [];
  for (const dir of ["indexer/__fixtures__", "wiki/__fixtures__"]) {
    for (const rel of fs.readdirSync(path.join(root, dir), { recursive: true }) as string[]) {
      const language = languageForPath(rel);
      if (language)
        out.push({
          path: `${dir}/${rel}`,
          language,
          source: fs.readFileSync(path.join(root, dir, rel), "utf8"),
        });
    }
  }
  return out;
}

describe("extraction engine", () => {
  it("extracts every fixture exactly as the previous extractors did", async () => {
    const files = fixtureFiles();
    const result = await compareFiles(files);
    expect(result.files).toBeGreaterThan(20);
    expect(new Set(files.map((f) => f.language)).size).toBe(7);
    expect(result.differences).toEqual([]);
  });
});
