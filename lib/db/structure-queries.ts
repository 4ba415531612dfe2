/**
 * Reads for structure questions that rank a generation's functions by something other
 * than fan-in and fan-out: their length (the largest functions, classes by their number
 * of methods) and the functions no resolved call reaches.
 */
import "server-only";
import { db } from "./client.ts";
import { queryRaw, textFilter } from "./dialect.ts";
import { snapshotOf, visibleIn, visibleSql } from "./snapshot.ts";
import { SYMBOL_SELECT, type SymbolRecord } from "./code-graph.ts";

/** Symbols of the given kinds under a path prefix (all when none), at most `limit` of them. */
async function symbolsOfKinds(
  generationId: string,
  kinds: string[],
  options: { prefix?: string; limit: number; uncalled?: boolean },
): Promise<SymbolRecord[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  return client.symbol.findMany({
    where: {
      ...visibleIn(snapshot),
      kind: { in: kinds },
      ...(options.prefix ? { path: textFilter("startsWith", options.prefix) } : {}),
      ...(options.uncalled ? { fanIn: 0 } : {}),
    },
    select: SYMBOL_SELECT,
    take: options.limit,
  });
}

/** Every definition of the given kinds under a prefix (a census per folder counts them). */
export async function definitionsOfKinds(
  generationId: string,
  kinds: string[],
  prefix: string | undefined,
): Promise<SymbolRecord[]> {
  return symbolsOfKinds(generationId, kinds, { prefix, limit: 20_000 });
}

/** The types (classes, interfaces, structs, enums, traits) under a prefix. */
export async function typeSymbols(generationId: string, prefix: string | undefined): Promise<SymbolRecord[]> {
  return symbolsOfKinds(generationId, [...TYPE_KINDS], { prefix, limit: 20_000 });
}

const TYPE_KINDS = new Set(["class", "interface", "struct", "enum", "trait", "record"]);

/** The longest functions and methods (by lines) under a prefix, longest first. */
export async function largestFunctions(
  generationId: string,
  prefix: string | undefined,
  limit = 400,
): Promise<SymbolRecord[]> {
  const rows = await symbolsOfKinds(generationId, ["function", "method"], { prefix, limit: 20_000 });
  return rows.sort((a, b) => b.endLine - b.startLine - (a.endLine - a.startLine)).slice(0, limit);
}

/** Classes (and structs, traits, interfaces) under a prefix with how many methods each has, most first. */
export async function classesByMethods(
  generationId: string,
  prefix: string | undefined,
  limit = 200,
): Promise<{ symbol: SymbolRecord; methods: number }[]> {
  const [types, methods] = await Promise.all([
    symbolsOfKinds(generationId, ["class", "struct", "trait", "interface"], { prefix, limit: 20_000 }),
    symbolsOfKinds(generationId, ["method", "function"], { prefix, limit: 50_000 }),
  ]);
  const count = new Map<string, number>();
  for (const m of methods)
    if (m.parentId) count.set(`${m.path}\n${m.parentId}`, (count.get(`${m.path}\n${m.parentId}`) ?? 0) + 1);
  return types
    .map((symbol) => ({ symbol, methods: count.get(`${symbol.path}\n${symbol.qualifiedName}`) ?? 0 }))
    .sort((a, b) => b.methods - a.methods || a.symbol.qualifiedName.localeCompare(b.symbol.qualifiedName))
    .slice(0, limit);
}

/** Functions and methods under a prefix that no resolved call reaches. */
export async function uncalledFunctions(
  generationId: string,
  prefix: string | undefined,
  limit = 2000,
): Promise<SymbolRecord[]> {
  return symbolsOfKinds(generationId, ["function", "method"], { prefix, limit, uncalled: true });
}

/**
 * Functions that call something named `name` (`useSyncExternalStore`,
 * `React.useSyncExternalStore`, `$this->dispatch`), as their calls are written: who calls
 * what the index has no definition of (a library's API), which resolved edges cannot say.
 */
export async function symbolsCallingName(
  generationId: string,
  name: string,
  limit = 400,
): Promise<SymbolRecord[]> {
  return symbolsCallingNames(generationId, name, (called) => called === name, limit);
}

/** Functions calling a name that starts with `prefix` and that `accept` takes (`useSyncExternalStoreWithSelector`). */
export async function symbolsCallingNames(
  generationId: string,
  prefix: string,
  accept: (name: string) => boolean,
  limit = 400,
): Promise<SymbolRecord[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const rows = await client.symbol.findMany({
    where: { ...visibleIn(snapshot), calls: textFilter("contains", `"name":"${prefix}`) },
    select: SYMBOL_SELECT,
    take: limit,
  });
  return rows.filter((r) => callNames(r.calls).some(accept));
}

/** The names a symbol's stored calls call (`[{ raw, name, receiver, line }]`). */
function callNames(json: string): string[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value)
      ? value.flatMap((c) =>
          c && typeof (c as { name?: unknown }).name === "string" ? [(c as { name: string }).name] : [],
        )
      : [];
  } catch {
    return [];
  }
}

/** For each file, its symbol with the most callers, of fewer than `maxLines` lines (none for a file without one). */
export async function busiestSymbols(
  generationId: string,
  paths: string[],
  maxLines = Number.POSITIVE_INFINITY,
): Promise<Map<string, SymbolRecord>> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const out = new Map<string, SymbolRecord>();
  for (const path of [...new Set(paths)]) {
    // The most called of the few most called that a reader can read at once (a long class gives way to its busiest method).
    const top = (
      await client.symbol.findMany({
        where: { ...visibleIn(snapshot), path, fanIn: { gt: 0 } },
        select: SYMBOL_SELECT,
        orderBy: [{ fanIn: "desc" }, { startLine: "asc" }],
        take: BUSIEST_CANDIDATES,
      })
    ).find((s) => s.endLine - s.startLine < maxLines);
    if (top) out.set(path, top);
  }
  return out;
}

const BUSIEST_CANDIDATES = 8;

/**
 * Resolved calls between different files, one row per call site, ends as paths only: what
 * coupling between folders counts, for a whole repository (about a tenth of the rows of
 * every call pair with its ids, read in one pass without grouping).
 */
export async function crossFileCalls(generationId: string): Promise<{ srcPath: string; dstPath: string }[]> {
  const [client, snapshot] = await Promise.all([db(), snapshotOf(generationId)]);
  const visible = visibleSql(snapshot);
  return queryRaw<{ srcPath: string; dstPath: string }[]>(
    client,
    `SELECT "srcPath", "dstPath" FROM "Edge"
      WHERE ${visible.sql} AND kind = 'calls' AND "dstId" IS NOT NULL AND "dstPath" != "srcPath"`,
    ...visible.params,
  );
}
