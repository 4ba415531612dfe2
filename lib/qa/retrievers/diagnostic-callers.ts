/**
 * The caller that decides whether a report happens. A report made in a helper is often
 * reached only under one caller's condition: `if !ok { mx.MethodNotAllowedHandler()… }`
 * after `method, ok := methodMap[m]`, `if dent.is_dir() { self.check_loop(…)? }`,
 * `if !mx.inline && mx.handler == nil { mx.updateRouteHandler() }`. That caller is half the
 * answer (what made the helper run), so it comes up right after its site — but only when
 * its condition (or its name) speaks of what the question or the site's own report
 * condition speaks of: a caller merely calling the helper on its way decides nothing asked.
 */
import "server-only";
import { callEdgesOfMany, symbolsByQualifiedIds, type SymbolRecord } from "../../db/code-graph.ts";
import type { SourceReader } from "../context.ts";
import { guardLines, reportLines, wordsOf, type SecondPlace } from "./diagnostic-deciders.ts";
import { isCodeFunction } from "./shared.ts";

/** How many leading sites have their callers read, and how many callers may come up in all. */
const SITES = 3;
const ADDED = 2;
/** Callers read per site. */
const CALLERS = 20;
/** Words every condition carries, which say nothing of what it tests. */
const CODE_WORDS = new Set([
  "self",
  "this",
  "nil",
  "null",
  "none",
  "true",
  "false",
  "not",
  "and",
  "len",
  "return",
]);

/** A caller of a site, with how much of the asked words its guard of the call carries. */
interface Guarding {
  symbol: SymbolRecord;
  overlap: number;
}

/** The words of some lines of code, condition keywords and common values aside. */
function codeWords(texts: string[]): string[] {
  return texts.flatMap((t) => wordsOf(t)).filter((w) => !CODE_WORDS.has(w));
}

/**
 * The words a site's own report is made under (`if mx.handler != nil { panic(…) }` →
 * handler): a caller's guard testing the same state decides whether the report happens.
 */
function siteGuardWords(site: SymbolRecord, lines: readonly string[], words: Set<string>): string[] {
  return reportLines(lines, site, words).flatMap((at) =>
    codeWords(guardLines(lines, at, site.startLine + 1).map((l) => lines[l - 1] ?? "")),
  );
}

/**
 * How much of `words` a caller's guard of its call at `line` carries (its own name counts:
 * `follow` for "follow_links"); null when the call is made under no condition.
 */
export function guardOverlap(
  lines: readonly string[],
  caller: Pick<SymbolRecord, "name" | "startLine">,
  line: number,
  words: Set<string>,
): number | null {
  const guards = guardLines(lines, line, caller.startLine + 1);
  if (guards.length === 0) return null;
  const said = new Set([...codeWords(guards.map((l) => lines[l - 1] ?? "")), ...wordsOf(caller.name)]);
  return [...said].filter((w) => words.has(w)).length;
}

/** The best guarding caller of one site, not among `taken`. */
async function guardingCaller(
  generationId: string,
  reader: SourceReader,
  site: SymbolRecord,
  edges: { srcId: string; line: number }[],
  words: Set<string>,
  taken: Set<string>,
): Promise<Guarding | null> {
  const ids = [
    ...new Set(edges.map((e) => e.srcId).filter((id) => id !== site.qualifiedId && !taken.has(id))),
  ];
  if (ids.length === 0) return null;
  const callers = (await symbolsByQualifiedIds(generationId, ids)).filter(isCodeFunction);
  let best: Guarding | null = null;
  for (const caller of callers) {
    const lines = await reader.lines(caller.path);
    if (!lines) continue;
    for (const e of edges) {
      if (e.srcId !== caller.qualifiedId) continue;
      const overlap = guardOverlap(lines, caller, e.line, words);
      if (overlap === null || overlap === 0) continue;
      // Equal guards: the caller more of the code goes through (`handle` under every route method).
      if (!best || overlap > best.overlap || (overlap === best.overlap && caller.fanIn > best.symbol.fanIn))
        best = { symbol: caller, overlap };
    }
  }
  return best;
}

/**
 * The guarding callers of the leading sites, at most one each and `room` in all, each to
 * stand right after its site. `taken` holds what already ranks or came up.
 */
export async function guardingCallers(
  generationId: string,
  reader: SourceReader,
  leading: SymbolRecord[],
  questionWords: Set<string>,
  taken: Set<string>,
  room = ADDED,
): Promise<SecondPlace[]> {
  const sites = leading.filter(isCodeFunction).slice(0, SITES);
  if (sites.length === 0 || room <= 0) return [];
  const { callers } = await callEdgesOfMany(
    generationId,
    sites.map((s) => s.qualifiedId),
    { callees: 0, callers: CALLERS },
  );
  const words = new Set(questionWords);
  for (const site of sites) {
    const lines = await reader.lines(site.path);
    if (lines) for (const w of siteGuardWords(site, lines, questionWords)) words.add(w);
  }
  const seen = new Set(taken);
  const out: SecondPlace[] = [];
  for (const site of sites) {
    if (out.length >= room) break;
    const found = await guardingCaller(
      generationId,
      reader,
      site,
      callers.get(site.qualifiedId) ?? [],
      words,
      seen,
    );
    if (!found) continue;
    seen.add(found.symbol.qualifiedId);
    out.push({
      site: site.qualifiedId,
      symbol: found.symbol,
      reason: `calls ${site.name} under its condition`,
    });
  }
  return out;
}
