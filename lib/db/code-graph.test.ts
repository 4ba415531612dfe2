/**
 * The batched call-graph reads (`callEdgesOfMany`, `symbolsWithinSpans`) answer exactly
 * what the one-symbol and one-file reads answer, limits and order included, on a
 * real index: the evidence graph switched to them to stop issuing two queries per
 * symbol, and must not see different edges for it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexRepository } from "../builds/build.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";
import {
  callEdgesOfMany,
  callersOf,
  calleesOf,
  EDGE_SELECT,
  SYMBOL_SELECT,
  symbolsByName,
  symbolsByQualifiedIds,
  symbolSpansInFiles,
  symbolsInFile,
  symbolsWithinSpans,
} from "./code-graph.ts";
import { db } from "./client.ts";
import { getFileContent } from "./index-reads.ts";
import { snapshotOf, visibleIn } from "./snapshot.ts";

let t: TempEnv;
/** A span's end past any fixture file's last line. */
const WHOLE_FILE = 10_000;
let generationId: string;

// `helper` has many callers (more than the caller limit below) and `pipeline` many
// callees, so the per-symbol limits really cut.
const callers = Array.from(
  { length: 7 },
  (_, i) => `def caller_${i}(x):\n    return helper(x) + helper(x + 1)\n`,
).join("\n");
const pipeline = [
  "def pipeline(x):",
  "    a = step_one(x)",
  "    b = step_two(a)",
  "    c = step_three(b)",
  "    d = helper(c)",
  "    return step_four(d)",
  "",
].join("\n");
const steps = ["step_one", "step_two", "step_three", "step_four"]
  .map((name) => `def ${name}(x):\n    return helper(x)\n`)
  .join("\n");

beforeAll(async () => {
  t = await setupTempEnv();
  const root = t.makeRepo({
    "pkg/core.py": `def helper(x):\n    return x * 2\n\n${steps}`,
    "pkg/flow.py": `from pkg.core import helper, step_one, step_two, step_three, step_four\n\n${pipeline}`,
    "pkg/users.py": `from pkg.core import helper\n\n${callers}`,
    "pkg/empty.py": "VALUE = 1\n",
  });
  const { repository } = await indexRepository(root, { name: "graph" });
  generationId = repository.activeGenerationId!;
});
afterAll(async () => {
  await t?.cleanup();
});

async function allSymbolIds(): Promise<string[]> {
  const client = await db();
  const rows = await client.symbol.findMany({
    where: visibleIn(await snapshotOf(generationId)),
    select: { qualifiedId: true },
  });
  return rows.map((r) => r.qualifiedId);
}

describe("batched call-graph reads", () => {
  it("give each symbol the callees and callers the one-symbol reads give", async () => {
    const ids = await allSymbolIds();
    expect(ids.length).toBeGreaterThan(10);
    const limits = { callees: 3, callers: 4 };
    const batched = await callEdgesOfMany(generationId, ids, limits);
    let cutCallers = 0;
    let cutCallees = 0;
    for (const id of ids) {
      const calleesOne = await calleesOf(generationId, id, limits.callees);
      const callersOne = await callersOf(generationId, id, limits.callers);
      expect(batched.callees.get(id) ?? [], `callees of ${id}`).toEqual(calleesOne);
      // Callers come by confidence; among equal confidences any order is a valid answer.
      const key = (e: { srcId: string; line: number }) => `${e.srcId}:${e.line}`;
      const batchedCallers = batched.callers.get(id) ?? [];
      expect(batchedCallers.map((e) => e.confidence)).toEqual(callersOne.map((e) => e.confidence));
      if (callersOne.length < limits.callers) {
        expect(batchedCallers.map(key).sort()).toEqual(callersOne.map(key).sort());
      }
      if (callersOne.length === limits.callers) cutCallers++;
      if (calleesOne.length === limits.callees) cutCallees++;
    }
    // The fixture exercises both limits.
    expect(cutCallers).toBeGreaterThan(0);
    expect(cutCallees).toBeGreaterThan(0);
    const helper = ids.find((id) => id.endsWith("helper"))!;
    expect(batched.callers.get(helper)).toHaveLength(limits.callers);
  });

  it("answer nothing for no ids and for ids of no symbol", async () => {
    const none = await callEdgesOfMany(generationId, [], { callees: 5, callers: 5 });
    expect(none.callees.size + none.callers.size).toBe(0);
    const unknown = await callEdgesOfMany(generationId, ["pkg/nowhere.py::ghost"], {
      callees: 5,
      callers: 5,
    });
    expect(unknown.callees.size + unknown.callers.size).toBe(0);
  });

  it("symbolsWithinSpans over whole files gives each file the symbols symbolsInFile gives, and unknown files none", async () => {
    const paths = ["pkg/core.py", "pkg/flow.py", "pkg/users.py", "pkg/empty.py", "pkg/missing.py"];
    const batched = await symbolsWithinSpans(
      generationId,
      paths.map((path) => ({ path, startLine: 1, endLine: WHOLE_FILE })),
    );
    expect([...batched.keys()].sort()).toEqual([...paths].sort());
    for (const p of paths) expect(batched.get(p), p).toEqual(await symbolsInFile(generationId, p));
    expect(batched.get("pkg/core.py")!.length).toBe(5);
    expect(batched.get("pkg/missing.py")).toEqual([]);
  });

  it("symbolsWithinSpans keeps only symbols wholly inside a span", async () => {
    const core = await symbolsInFile(generationId, "pkg/core.py");
    const second = core[1]!;
    const third = core[2]!;
    const spans = [
      // exactly two functions of core.py, and one line that holds no whole symbol
      { path: "pkg/core.py", startLine: second.startLine, endLine: third.endLine },
      { path: "pkg/core.py", startLine: 1, endLine: 1 },
      { path: "pkg/flow.py", startLine: 1, endLine: WHOLE_FILE },
      { path: "pkg/missing.py", startLine: 1, endLine: 100 },
    ];
    const within = await symbolsWithinSpans(generationId, spans);
    expect(within.get("pkg/core.py")!.map((s) => s.qualifiedId)).toEqual([
      second.qualifiedId,
      third.qualifiedId,
    ]);
    expect(within.get("pkg/flow.py")).toEqual(await symbolsInFile(generationId, "pkg/flow.py"));
    expect(within.get("pkg/missing.py")).toEqual([]);
    expect(within.has("pkg/users.py")).toBe(false);
  });

  it("symbolSpansInFiles gives the line spans of every symbol of each file", async () => {
    const spans = await symbolSpansInFiles(generationId, ["pkg/users.py", "pkg/missing.py"]);
    const users = await symbolsInFile(generationId, "pkg/users.py");
    expect(spans.get("pkg/users.py")).toEqual(
      users.map((s) => ({ qualifiedId: s.qualifiedId, startLine: s.startLine, endLine: s.endLine })),
    );
    expect(spans.get("pkg/missing.py")).toEqual([]);
  });
});

describe("question reads on SQLite (straight from the connection, rows kept by id)", () => {
  it("give the rows, types and order Prisma's reads give", async () => {
    const client = await db();
    const where = visibleIn(await snapshotOf(generationId));
    const ids = await allSymbolIds();
    const byPrisma = await client.symbol.findMany({
      where: { ...where, qualifiedId: { in: ids } },
      select: SYMBOL_SELECT,
    });
    expect(await symbolsByQualifiedIds(generationId, ids)).toEqual(byPrisma);
    expect(byPrisma.some((s) => s.exported === true)).toBe(true);
    expect(await symbolsInFile(generationId, "pkg/core.py")).toEqual(
      await client.symbol.findMany({
        where: { ...where, path: "pkg/core.py" },
        select: SYMBOL_SELECT,
        orderBy: { startLine: "asc" },
      }),
    );
    expect(await symbolsByName(generationId, "helper")).toEqual(
      await client.symbol.findMany({ where: { ...where, name: "helper" }, select: SYMBOL_SELECT, take: 20 }),
    );
    const helper = ids.find((id) => id.endsWith("helper"))!;
    const edges = await client.edge.findMany({
      where: { ...where, kind: "calls", dstId: helper },
      select: EDGE_SELECT,
      orderBy: { confidence: "desc" },
      take: 5,
    });
    expect(await callersOf(generationId, helper, 5)).toEqual(edges);
  });

  it("read a kept row again when its fan counts changed, and give each caller its own copy", async () => {
    const client = await db();
    const helper = (await allSymbolIds()).find((id) => id.endsWith("helper"))!;
    const [first] = await symbolsByQualifiedIds(generationId, [helper]);
    expect(first!.fanIn).toBeGreaterThan(0);
    first!.name = "changed by a caller";
    const [again] = await symbolsByQualifiedIds(generationId, [helper]);
    expect(again!.name).toBe("helper");
    await client.symbol.update({ where: { id: first!.id }, data: { fanIn: { increment: 100 } } });
    try {
      const [updated] = await symbolsByQualifiedIds(generationId, [helper]);
      expect(updated!.fanIn).toBe(again!.fanIn + 100);
    } finally {
      await client.symbol.update({ where: { id: first!.id }, data: { fanIn: { decrement: 100 } } });
    }
  });

  it("give a file's text, again from the kept text, and null for a file the generation lacks", async () => {
    const text = await getFileContent(generationId, "pkg/flow.py");
    expect(text).toContain("def pipeline(x):");
    expect(await getFileContent(generationId, "pkg/flow.py")).toBe(text);
    expect(await getFileContent(generationId, "pkg/missing.py")).toBeNull();
  });
});
