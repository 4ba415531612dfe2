/**
 * Pathological inputs neither crash nor stall indexing: a megabyte on one line, a
 * 50k-line file of functions, expressions nested 100k deep, a chain of thousands of
 * calls, a message of thousands of concatenated strings, non-UTF-8 and binary bytes
 * behind code extensions. Each file is parsed, or indexed as text with the reason, and
 * the build around them succeeds. (The inputs are generated: test-support/pathological.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getFileContent } from "../db/index-reads.ts";
import { lexicalSearch } from "../search/hybrid.ts";
import {
  binarySource,
  callChain,
  concatenation,
  functionsFile,
  latin1Source,
  minifiedLine,
  nestedJavaScript,
  nestedPython,
} from "../../test-support/pathological.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";
import { codeSource } from "../../test-support/parse-fixtures.ts";
import { indexRepository } from "../builds/build.ts";
import { countLines } from "./discover.ts";
import { parseFile } from "./parse-file.ts";

let t: TempEnv;
beforeAll(async () => {
  t = await setupTempEnv();
});
afterAll(async () => {
  await t?.cleanup();
});

const source = (path: string, content: string) => codeSource(path, content);

describe("pathological inputs", () => {
  it("extracts a 50k-line file of 17k functions", { timeout: 60_000 }, async () => {
    const content = functionsFile(50_000);
    expect(countLines(content)).toBe(50_000);
    const parsed = await parseFile(source("gen/steps.py", content));
    expect(parsed.file.unparsed).toBeNull();
    expect(parsed.symbols.length).toBe(16_667);
    // Each function calls the one before: calls are extracted too.
    expect(JSON.parse(parsed.symbols[5]?.calls ?? "[]")).toMatchObject([{ name: "s4" }]);
  });

  it("keeps chunks of symbols on one long line short instead of repeating the line", async () => {
    const parsed = await parseFile(source("web/app.js", minifiedLine(200_000)));
    expect(parsed.symbols.length).toBeGreaterThan(4000);
    const longest = Math.max(...parsed.chunks.map((c) => c.text.length));
    expect(longest).toBeLessThanOrEqual(24_001);
  });

  it(
    "parses deep nesting and long chains, or indexes them as text with the reason",
    { timeout: 60_000 },
    async () => {
      for (const [path, content] of [
        ["deep.py", nestedPython(100_000)],
        ["deep.js", nestedJavaScript(100_000)],
        ["message.py", concatenation(50_000)],
      ] as const) {
        const parsed = await parseFile(source(path, content));
        expect(parsed.file.path).toBe(path);
        expect(parsed.file.unparsed === null || /^(timeout|error): /.test(parsed.file.unparsed)).toBe(true);
        expect(parsed.chunks.length).toBeGreaterThan(0);
      }
      // A chain of 20k calls made tree-sitter's query quadratic (over 13 s) before the
      // cursor's matches in progress were capped; capped, it takes under half a second, so an
      // 8 s budget separates the two even on a loaded machine.
      const chain = await parseFile(source("chain.js", callChain(20_000)), {
        budget: { baseSeconds: 8, secondsPerMb: 0 },
      });
      expect(chain.file.unparsed).toBeNull();
      expect(chain.symbols.map((s) => s.name)).toEqual(["build"]);
      const calls = JSON.parse(chain.symbols[0]?.calls ?? "[]") as { name: string }[];
      expect(new Set(calls.map((c) => c.name))).toContain("m9");
      // Whatever runs past its budget is indexed as text with the reason.
      const late = await parseFile(source("chain.js", callChain(2_000)), {
        budget: { baseSeconds: 0, secondsPerMb: 0 },
      });
      expect(late.file.unparsed).toBe("timeout: over 0 s");
      expect(late.symbols).toEqual([]);
      expect(late.chunks.map((c) => c.text).join("")).toContain("m9()");
    },
  );

  it(
    "indexes a repository of them in one build, minified code as searchable text",
    { timeout: 60_000 },
    async () => {
      const root = t.makeRepo({
        "app.py": "def main():\n    return helper()\n\ndef helper():\n    return 1\n",
        "web/bundle.js": minifiedLine(),
        "nested.py": nestedPython(10_000),
        "latin1.py": latin1Source(),
        "native.c": binarySource(),
      });
      const { stats } = await indexRepository(root);
      expect(stats.files).toBe(3);
      expect(stats.skipped["not-utf8"]).toBe(1);
      expect(stats.skipped.binary).toBe(1);
      // One dense megaline makes a file minified whatever its name: the bundle, and the nesting.
      expect(stats.fileClasses).toEqual({ minified: 2 });
      expect(stats.unparsedCount).toBe(0);
      expect(stats.symbols).toBe(2); // main and helper: nothing from the minified file
      expect(await getFileContent(stats.generationId, "web/bundle.js")).toHaveLength(minifiedLine().length);
      const hits = await lexicalSearch(stats.generationId, "f1234");
      expect(hits.map((h) => h.path)).toContain("web/bundle.js");
    },
  );
});
