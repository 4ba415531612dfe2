/**
 * The second place of a report: where the failure is reported is half the answer, the
 * other half is what decided it — the call whose result the report is made under
 * (`if p := cleanPath(path); p != path { w.WriteHeader(http.StatusMovedPermanently) }`,
 * `promise, err := shedder.Allow(); if err != nil { logx.Errorf("[http] dropped…") }`,
 * `raise MISSING_ADAPTER_ERROR unless adapter_set?`) — or the caller that handles the
 * error (`try { $this->load() } catch (InvalidPathException $e)`). For the leading
 * sites of a diagnostic ranking, each is found in the code and placed right after its site.
 */
import "server-only";
import {
  callEdgesOfMany,
  symbolsByQualifiedIds,
  type EdgeRecord,
  type SymbolRecord,
} from "../../db/code-graph.ts";
import type { SourceReader } from "../context.ts";
import { parseJsonList } from "../context.ts";
import { isCodeFunction } from "./shared.ts";

/** How many leading symbols are read as sites, and how many places may come up in all. */
const SITES = 3;
const ADDED = 2;
/** Lines above a report searched for the condition it is made under. */
const GUARD_REACH = 8;

/** A line that reports a failure: a raise, an error value or message, a failing status. */
const FAILURE_WORDS = /\b(?:raise|throw|panic!?|abort|bail!?|die|fail\w*|reject)\b|error|exception/i;
const FAILURE_NAMES = /\bErr[A-Z]\w*|\bErr\(|WriteHeader\(|\bhttp\.(?:Error|Redirect)\(|\bStatus[A-Z]\w+/;
/** A line opening a condition (a guard) or ending in one (Ruby's and Perl's postfix `if`/`unless`). */
const CONDITION = /^\s*(?:}\s*)?(?:if|elif|elsif|else\s+if|unless|while|guard|when|case)\b/;
const POSTFIX = /\s(?:if|unless)\s/;
const COMMENT = /^\s*(?:\/\/|#|\*|\/\*|--)/;
/** An assignment's target names (`promise, err :=`, `$result =`, `let ok =`). */
const ASSIGNED = /^\s*(?:(?:var|let|const|val|auto|my)\s+)?([\w$.,\s*&]+?)\s*(?::=|(?<![=!<>])=(?!=))/;

/** A place brought up beside a site. */
export interface SecondPlace {
  site: string;
  symbol: SymbolRecord;
  reason: string;
}

function indent(line: string): number {
  return /^\s*/.exec(line)?.[0].replace(/\t/g, "    ").length ?? 0;
}

/** Whether a line of code reports a failure. */
export function reportsFailure(line: string): boolean {
  return !COMMENT.test(line) && (FAILURE_WORDS.test(line) || FAILURE_NAMES.test(line));
}

/**
 * The lines (1-based, in `lines`) a report at line `at` is made under: the same line when
 * it holds its own condition, else the nearest enclosing condition above it, with the line
 * just above that condition when it assigns a name the condition tests.
 */
export function guardLines(lines: readonly string[], at: number, from: number): number[] {
  const line = lines[at - 1] ?? "";
  if (CONDITION.test(line) || POSTFIX.test(line)) return [at];
  const own = indent(line);
  for (let l = at - 1; l >= Math.max(from, at - GUARD_REACH); l--) {
    const text = lines[l - 1] ?? "";
    if (!text.trim() || COMMENT.test(text) || indent(text) >= own) continue;
    if (!CONDITION.test(text)) return [];
    const assigned =
      ASSIGNED.exec(lines[l - 2] ?? "")?.[1]
        ?.split(/[\s,*&]+/)
        .filter((n) => /\w/.test(n)) ?? [];
    const tested = assigned.some((n) => new RegExp(`(?:^|[^\\w$])${n.replace(/\$/g, "\\$")}\\b`).test(text));
    return tested && l - 1 >= from ? [l, l - 1] : [l];
  }
  return [];
}

/** The report lines of a body that share words with the question, those sharing most first. */
export function reportLines(lines: readonly string[], s: SymbolRecord, words: Set<string>): number[] {
  const found: { at: number; overlap: number }[] = [];
  for (let l = s.startLine + 1; l <= Math.min(s.endLine, lines.length); l++) {
    const text = lines[l - 1] ?? "";
    if (!reportsFailure(text)) continue;
    // A report the question does not speak of (another failure of the same function) decides nothing asked.
    const overlap = wordsOf(text).filter((w) => words.has(w)).length;
    if (overlap > 0) found.push({ at: l, overlap });
  }
  return found.sort((a, b) => b.overlap - a.overlap || a.at - b.at).map((f) => f.at);
}

/** Lower-case words of text, identifiers split at case changes and underscores. */
export function wordsOf(text: string): string[] {
  return (
    text
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .toLowerCase()
      .match(/[a-z]{3,}/g) ?? []
  ).filter((w) => w !== "err" && w !== "error");
}

/**
 * The callee a site's report is made under: among the calls on the guard lines of its
 * report lines (best matching the question first), the first resolved function of the code.
 */
function guardCallee(
  site: SymbolRecord,
  lines: readonly string[],
  edges: EdgeRecord[],
  words: Set<string>,
): EdgeRecord | null {
  for (const at of reportLines(lines, site, words)) {
    const guards = guardLines(lines, at, site.startLine + 1);
    const onGuard = edges
      .filter((e) => e.dstId && e.dstId !== site.qualifiedId && guards.includes(e.line))
      // On a line reporting under its own condition, only what the condition calls.
      .filter((e) => e.line !== at || afterCondition(lines[at - 1] ?? "", e.raw));
    if (onGuard.length) return onGuard[0] ?? null;
  }
  return null;
}

/** Whether a call's text follows a postfix or leading condition keyword on its line. */
function afterCondition(line: string, raw: string): boolean {
  const keyword = /\b(?:if|unless|elif|elsif|when|guard)\b/.exec(line);
  const call = line.indexOf(raw.split(/[.:]/).pop() ?? raw);
  return keyword !== null && call > keyword.index;
}

/** Whether a body catches one of the types (a catch, rescue or except naming it; Go's errors.Is/As). */
export function handles(body: string, types: string[]): string | null {
  for (const t of types) {
    const name = t.split(/[.\\:]/).pop() ?? t;
    if (!/^\w+$/.test(name)) continue;
    const clause = new RegExp(
      `\\b(?:catch|rescue|except)\\b[^\\n]*\\b${name}\\b|errors\\.(?:Is|As)\\([^)]*\\b${name}\\b`,
    );
    if (clause.test(body)) return name;
  }
  return null;
}

/**
 * The second places of the leading sites, at most one each and `ADDED` in all: the callee
 * each report is made under, else a caller (one or two calls up) catching what it raises.
 */
export async function secondPlaces(
  generationId: string,
  reader: SourceReader,
  leading: SymbolRecord[],
  question: { words: Set<string>; exceptionTypes: string[] },
): Promise<SecondPlace[]> {
  const sites = leading.filter(isCodeFunction).slice(0, SITES);
  if (sites.length === 0) return [];
  const { callees } = await callEdgesOfMany(
    generationId,
    sites.map((s) => s.qualifiedId),
    { callees: 80, callers: 0 },
  );
  const taken = new Set(leading.map((s) => s.qualifiedId));
  const out: SecondPlace[] = [];
  for (const site of sites) {
    if (out.length >= ADDED) break;
    const lines = await reader.lines(site.path);
    if (!lines) continue;
    const edge = guardCallee(site, lines, callees.get(site.qualifiedId) ?? [], question.words);
    const [callee] =
      edge?.dstId && !taken.has(edge.dstId) ? await symbolsByQualifiedIds(generationId, [edge.dstId]) : [];
    if (callee && isCodeFunction(callee)) {
      taken.add(callee.qualifiedId);
      out.push({
        site: site.qualifiedId,
        symbol: callee,
        reason: `decides the condition ${site.name} reports under`,
      });
      continue;
    }
    const handler = await handlingCaller(generationId, reader, site, question.exceptionTypes, taken);
    if (handler) {
      taken.add(handler.symbol.qualifiedId);
      out.push({ site: site.qualifiedId, ...handler });
    }
  }
  return out;
}

/** A caller, one or two calls up from a site, whose body catches what the site raises or the report names. */
async function handlingCaller(
  generationId: string,
  reader: SourceReader,
  site: SymbolRecord,
  reported: string[],
  taken: Set<string>,
): Promise<{ symbol: SymbolRecord; reason: string } | null> {
  const types = [...new Set([...parseJsonList(site.raises), ...reported])];
  if (types.length === 0) return null;
  let frontier = [site.qualifiedId];
  const seen = new Set(frontier);
  for (let hop = 0; hop < 2 && frontier.length; hop++) {
    const { callers } = await callEdgesOfMany(generationId, frontier, { callees: 0, callers: 20 });
    const ids = [...callers.values()]
      .flat()
      .map((e) => e.srcId)
      .filter((id) => !seen.has(id));
    ids.forEach((id) => seen.add(id));
    const symbols = (await symbolsByQualifiedIds(generationId, [...new Set(ids)])).filter(isCodeFunction);
    for (const s of symbols) {
      if (taken.has(s.qualifiedId)) continue;
      const body = await reader.slice(s.path, s.startLine, s.endLine);
      const caught = body ? handles(body, types) : null;
      if (caught) return { symbol: s, reason: `catches ${caught} raised below it` };
    }
    frontier = symbols.map((s) => s.qualifiedId);
  }
  return null;
}

/** Ranked symbol ids with each second place right after its site. */
export function withSecondPlaces(ids: string[], places: SecondPlace[]): string[] {
  const added = new Set(places.map((p) => p.symbol.qualifiedId));
  const out: string[] = [];
  for (const id of ids) {
    if (added.has(id)) continue;
    out.push(id);
    for (const p of places) if (p.site === id) out.push(p.symbol.qualifiedId);
  }
  return out;
}
