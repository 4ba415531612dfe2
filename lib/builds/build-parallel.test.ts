/**
 * A repository built with parse workers stores the same rows, in the same order, as one
 * built in a single thread.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client.ts";
import { snapshotOf, visibleIn } from "../db/snapshot.ts";
import { fixtureFiles } from "../../test-support/parse-fixtures.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";
import { indexRepository } from "./build.ts";

let t: TempEnv;
beforeAll(async () => {
  t = await setupTempEnv();
});
afterAll(async () => {
  await t?.cleanup();
});

describe("a build with parse workers", () => {
  it(
    "stores the same rows, in the same order, as a single-threaded build",
    { timeout: 120_000 },
    async () => {
      const tree: Record<string, string> = {};
      for (const f of fixtureFiles()) tree[f.path] = f.content;
      // Enough files for several batches.
      for (let i = 0; i < 150; i++)
        tree[`gen/mod_${i}.py`] =
          `def f${i}(x):\n    return g${i % 7}(x)\n\n\ndef g${i % 7}(y):\n    return y\n`;
      const serialRoot = t.makeRepo(tree, "serial");
      const parallelRoot = t.makeRepo(tree, "parallel");
      const serial = await indexRepository(serialRoot, { name: "serial", parseThreads: 0, wikiModel: null });
      const parallel = await indexRepository(parallelRoot, {
        name: "parallel",
        parseThreads: 2,
        wikiModel: null,
      });
      expect(serial.stats.parseThreads).toBe(0);
      expect(parallel.stats.parseThreads).toBe(2);
      const client = await db();
      const rows = async (generationId: string) => {
        const where = visibleIn(await snapshotOf(generationId));
        const omit = { id: true, repositoryId: true, fromGeneration: true, toGeneration: true } as const;
        return {
          // The modification time is the stat cache's, not content: the two trees were
          // written at different moments, and a time too close to the read is not kept.
          files: await client.file.findMany({
            where,
            omit: { ...omit, mtimeNs: true },
            orderBy: { id: "asc" },
          }),
          symbols: await client.symbol.findMany({
            where,
            omit: { ...omit, fileId: true },
            orderBy: { id: "asc" },
          }),
          // Wiki pages name their repository; they are written after parsing anyway.
          chunks: await client.chunk.findMany({
            where: { ...where, kind: { not: "wiki" } },
            omit: { ...omit, fileId: true },
            orderBy: { id: "asc" },
          }),
          edges: await client.edge.findMany({ where, omit, orderBy: { id: "asc" } }),
        };
      };
      const [a, b] = await Promise.all([rows(serial.stats.generationId), rows(parallel.stats.generationId)]);
      expect(a.files.length).toBeGreaterThan(150);
      for (const table of ["files", "symbols", "chunks", "edges"] as const) {
        const [x, y] = [a[table].map((r) => JSON.stringify(r)), b[table].map((r) => JSON.stringify(r))];
        const first = x.findIndex((row, i) => row !== y[i]);
        expect({ table, first, serial: x[first], parallel: y[first] }).toEqual({
          table,
          first: -1,
          serial: undefined,
          parallel: undefined,
        });
        expect(y.length).toBe(x.length);
      }
    },
  );
});
