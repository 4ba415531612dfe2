/**
 * The code that decides, in place of what only stores a setting or hands the work on. A
 * question about an option ("with StrictSlash(true), how does the router decide to
 * redirect") names the setter (`StrictSlash`: `r.strictSlash = value`), whose body
 * decides nothing; what decides is the function that tests the stored field
 * (`if v.path.options.strictSlash`). The leading symbols' bodies are read for what they
 * do: each setter among them hands its standing to the functions of the leading files
 * that test the field it stores, an option type to those testing its fields, and a
 * wrapper of one call (`callsite_enabled` → `self.register_callsite(meta)`) to the
 * function it calls.
 */
import "server-only";
import { callEdgesOfMany, symbolsByQualifiedIds, type SymbolRecord } from "../../db/code-graph.ts";
import { assignedFields, bodyShape, bodyStatements, declaredFields } from "../../answerers/body-shape.ts";
import type { SourceReader } from "../context.ts";
import { isCodeFunction, isFunctionSymbol, isTestPath, type Ranked } from "./shared.ts";
import { fileSymbols } from "./answering.ts";

/** What a leading function's body does: stores an option, or decides nothing at all. */
export type Idleness = "setter" | "idle";

/**
 * The fields a leading setter stores or a leading option type declares: the code testing
 * them decides. A type's fields are read as members (`options.retry.limit`), and a reader
 * must test two of them, since one common field name says little.
 */
export interface Stored {
  names: string[];
  member: boolean;
}

/** How many leading symbols have their bodies read. */
const CHECKED = 40;
/** How many leading symbols may be setters handing their standing on (below, too little to hand). */
const SETTERS_HANDING = 15;
/** How many leading symbols may be option types handing their standing on. */
const TYPES_CHECKED = 10;
const OPTION_TYPES = new Set(["struct", "interface", "type"]);
/** How many leading files are searched for the code reading a stored option (those whose bodies retrieval reads anyway). */
const READER_FILES = 5;

/**
 * The leading functions whose bodies decide nothing (by qualified id), and the fields
 * the leading setters store and option types declare.
 */
export async function idleFunctions(
  reader: SourceReader,
  ranked: Ranked[],
): Promise<{ idle: Map<string, Idleness>; fields: Map<string, Stored> }> {
  const idle = new Map<string, Idleness>();
  const fields = new Map<string, Stored>();
  await Promise.all(
    ranked.slice(0, CHECKED).map(async (r, rank) => {
      const s = r.candidate.symbol;
      const type = s && rank < TYPES_CHECKED && OPTION_TYPES.has(s.kind);
      if (!s || (!isFunctionSymbol(s) && !type)) return;
      const lines = await reader.lines(s.path);
      if (!lines) return;
      const body = lines.slice(s.startLine - 1, s.endLine);
      if (type) {
        const declared = declaredFields(body);
        if (declared.length >= 2) fields.set(s.qualifiedId, { names: declared, member: true });
        return;
      }
      const shape = bodyShape(body);
      if (shape.setter) {
        idle.set(s.qualifiedId, "setter");
        const stored = rank < SETTERS_HANDING ? assignedFields(shape.statements) : [];
        if (stored.length) fields.set(s.qualifiedId, { names: stored, member: false });
      } else if (shape.handsOn) idle.set(s.qualifiedId, "idle");
    }),
  );
  return { idle, fields };
}

/** A line that tests something: a condition, a guard, a boolean expression. */
const TESTS =
  /^(?:if|elif|else\s+if|unless|while|when|case|switch|match|guard|return)\b|\?.*:|&&|\|\||[<>]=?|[!=]==?|\bif\b|\bunless\b/;

/** A function of the leading files with the lines of its body that test something. */
export interface Tester {
  symbol: SymbolRecord;
  tests: string[];
}

/** The functions of some files (tests left out) with their testing lines, read once per question. */
export async function testers(
  generationId: string,
  reader: SourceReader,
  files: string[],
): Promise<Tester[]> {
  const [byFile, texts] = await Promise.all([
    fileSymbols(generationId, files),
    Promise.all(files.map((f) => reader.lines(f))),
  ]);
  const out: Tester[] = [];
  files.forEach((path, i) => {
    const lines = texts[i];
    if (!lines) return;
    for (const s of byFile.get(path) ?? []) {
      if (!isCodeFunction(s)) continue;
      const tests = bodyStatements(lines.slice(s.startLine - 1, s.endLine)).filter((l) => TESTS.test(l));
      if (tests.length) out.push({ symbol: s, tests });
    }
  });
  return out;
}

/**
 * The functions that test the given fields, most fields tested first (setters
 * excluded): a line naming a field as a whole word (a member for a type's fields:
 * `.limit`, `->limit`, `[:limit]`, `['limit']`) that is a condition.
 */
export function fieldReaders(
  candidates: Tester[],
  files: string[],
  stored: Stored,
  exclude: Set<string>,
): SymbolRecord[] {
  if (stored.names.length === 0) return [];
  const before = stored.member ? String.raw`(?:\.|->|\[:?["']?)` : String.raw`(?<![\w$])`;
  const words = stored.names.map((f) => new RegExp(`${before}${escape(f)}(?![\\w$])`));
  const least = stored.member ? 2 : 1;
  const found: { symbol: SymbolRecord; tests: number }[] = [];
  for (const c of candidates) {
    if (exclude.has(c.symbol.qualifiedId)) continue;
    const tested = words.filter((w) => c.tests.some((l) => w.test(l))).length;
    if (tested >= least) found.push({ symbol: c.symbol, tests: tested });
  }
  // The innermost function testing it decides, not the one holding it (a closure's owner).
  const inner = found.filter(
    (f) =>
      !found.some(
        (o) =>
          o !== f &&
          o.symbol.path === f.symbol.path &&
          o.symbol.startLine >= f.symbol.startLine &&
          o.symbol.endLine <= f.symbol.endLine,
      ),
  );
  return inner
    .sort((a, b) => b.tests - a.tests || files.indexOf(a.symbol.path) - files.indexOf(b.symbol.path))
    .map((f) => f.symbol);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Each setter's standing handed to the code reading what it stores: the readers of a
 * setter's fields rank just below the setter's score before it was demoted, in the
 * order they test them. `before` holds the scores as fused, before any demotion.
 */
export function promoteReaders(
  ranked: Ranked[],
  before: Map<string, number>,
  readers: Map<string, SymbolRecord[]>,
  reason: (setter: string) => string,
): Ranked[] {
  const byId = new Map(ranked.map((r) => [r.candidate.symbol?.qualifiedId ?? r.candidate.key, r]));
  for (const [setter, symbols] of readers) {
    const standing = before.get(setter) ?? 0;
    symbols.slice(0, 3).forEach((symbol, i) => {
      const score = standing * (0.95 - 0.05 * i);
      const existing = byId.get(symbol.qualifiedId);
      if (existing) {
        if (existing.score < score) {
          existing.score = score;
          existing.reasons.push(reason(setter));
        }
        return;
      }
      const added: Ranked = {
        candidate: { key: symbol.qualifiedId, symbol, chunk: null, reason: reason(setter) },
        score,
        reasons: [reason(setter)],
      };
      byId.set(symbol.qualifiedId, added);
      ranked.push(added);
    });
  }
  return ranked.sort((a, b) => b.score - a.score);
}

/**
 * The ranking with the readers of each setter's or option type's fields, from the leading
 * files, put where the setter or type stood before it was demoted. `fused` is the ranking
 * before demotion.
 */
export async function withOptionReaders(
  generationId: string,
  reader: SourceReader,
  ranked: Ranked[],
  fused: Ranked[],
  fields: Map<string, Stored>,
  rankedFiles: string[],
): Promise<Ranked[]> {
  if (fields.size === 0) return ranked;
  const before = new Map(fused.map((r) => [r.candidate.symbol?.qualifiedId ?? r.candidate.key, r.score]));
  const setters = new Set(fields.keys());
  // Tests read every option too; the code under test decides.
  const files = rankedFiles.slice(0, READER_FILES).filter((f) => !isTestPath(f));
  const candidates = await testers(generationId, reader, files);
  const readers = new Map<string, SymbolRecord[]>();
  for (const [setter, stored] of fields) {
    const found = fieldReaders(candidates, files, stored, setters);
    if (found.length) readers.set(setter, found);
  }
  const name = (id: string) => id.split("::").pop() ?? id;
  return promoteReaders(
    ranked.map((r) => ({ ...r, reasons: [...r.reasons] })),
    before,
    readers,
    (setter) =>
      fields.get(setter)?.member
        ? `tests the fields ${name(setter)} declares`
        : `reads the option ${name(setter)} stores`,
  );
}

/** How many leading symbols may be wrappers handing their standing to what they call. */
const WRAPPERS_CHECKED = 10;

/**
 * The function each leading wrapper of one call hands the work on to (its resolved
 * callee, the most confident first), by the wrapper's qualified id.
 */
async function delegates(
  generationId: string,
  ranked: Ranked[],
  idle: Map<string, Idleness>,
): Promise<Map<string, SymbolRecord[]>> {
  const wrappers = ranked
    .slice(0, WRAPPERS_CHECKED)
    .map((r) => r.candidate.symbol?.qualifiedId ?? "")
    .filter((id) => idle.get(id) === "idle");
  const out = new Map<string, SymbolRecord[]>();
  if (wrappers.length === 0) return out;
  const { callees } = await callEdgesOfMany(generationId, wrappers, { callees: 5, callers: 0 });
  const target = new Map<string, string>();
  for (const [wrapper, edges] of callees) {
    const edge = [...edges]
      .filter((e) => e.dstId && e.dstId !== wrapper)
      .sort((a, b) => b.confidence - a.confidence)[0];
    if (edge?.dstId) target.set(wrapper, edge.dstId);
  }
  const symbols = new Map(
    (await symbolsByQualifiedIds(generationId, [...new Set(target.values())])).map((s) => [s.qualifiedId, s]),
  );
  for (const [wrapper, id] of target) {
    const callee = symbols.get(id);
    if (callee && !idle.has(callee.qualifiedId)) out.set(wrapper, [callee]);
  }
  return out;
}

/**
 * The ranking with each leading wrapper's callee put where the wrapper stood before it
 * was demoted. `fused` is the ranking before demotion.
 */
export async function withDelegates(
  generationId: string,
  ranked: Ranked[],
  fused: Ranked[],
  idle: Map<string, Idleness>,
): Promise<Ranked[]> {
  const handedTo = await delegates(generationId, fused, idle);
  if (handedTo.size === 0) return ranked;
  const before = new Map(fused.map((r) => [r.candidate.symbol?.qualifiedId ?? r.candidate.key, r.score]));
  const name = (id: string) => id.split("::").pop() ?? id;
  return promoteReaders(ranked, before, handedTo, (wrapper) => `does the work ${name(wrapper)} hands on`);
}
