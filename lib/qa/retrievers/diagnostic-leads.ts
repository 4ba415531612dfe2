/**
 * Which of a diagnostic ranking's leading symbols lead: the sites whose deciders are
 * looked for (functions that can report, not setters or wrappers passing the work on),
 * and the context the answerer reads, which starts with the ranked symbols in their order.
 */
import "server-only";
import { symbolsByQualifiedIds, type SymbolRecord } from "../../db/code-graph.ts";
import { bodyShape } from "../../answerers/body-shape.ts";
import { reportsFailure } from "./diagnostic-deciders.ts";
import { isFunctionSymbol, symbolCandidate, type Ranked, type RetrievalInput } from "./shared.ts";

/** How many of the ranked symbols lead the context, in their order. */
const LEADS = 5;

/**
 * The fused candidates with the leading ranked symbols first, in their order: the answer
 * opens with what the ranking puts first (the site, what decided it, the caller under whose
 * condition it runs), not with what the signals alone fused highest. A leading symbol no
 * signal brought (a second place, an encloser) comes in as a candidate of its own.
 */
export async function leadsFirst(generationId: string, ranked: Ranked[], ids: string[]): Promise<Ranked[]> {
  const lead = ids.slice(0, LEADS);
  const idOf = (r: Ranked) =>
    r.candidate.symbol?.qualifiedId ?? r.candidate.chunk?.symbolId ?? r.candidate.key;
  const byId = new Map<string, Ranked>();
  for (const r of ranked) if (!byId.has(idOf(r))) byId.set(idOf(r), r);
  const missing = lead.filter((id) => !byId.has(id));
  const records = new Map(
    (await symbolsByQualifiedIds(generationId, missing)).map((s) => [s.qualifiedId, s]),
  );
  const score = ranked[0]?.score ?? 1;
  const first = lead.flatMap((id): Ranked[] => {
    const found = byId.get(id);
    if (found) return [found];
    const s = records.get(id);
    return s
      ? [{ candidate: symbolCandidate(s, "decides the report"), score, reasons: ["decides the report"] }]
      : [];
  });
  const taken = new Set(first);
  // Scores in the leads' order, above the rest: what reads them (the closest of several
  // sites) sees the same order.
  const scored = first.map((r, i) => ({ ...r, score: score * (1 + 0.01 * (first.length - i)) }));
  return [...scored, ...ranked.filter((r) => !taken.has(r))];
}

/** Leading symbols read for the sites whose deciders come up (three are taken). */
export const SITES_READ = 6;

/**
 * The first three of the leading symbols that can be a report's site: a function whose
 * body decides nothing — a setter storing the option the report names, a getter or a
 * registration handing the work on (`StrictSlash`, `Handle`) — is passed over, so the
 * code that reports under a condition (`ServeHTTP`) has what decided it brought up.
 */
export async function decidingSites(
  input: Pick<RetrievalInput, "generationId" | "reader">,
  ids: string[],
): Promise<SymbolRecord[]> {
  const byId = new Map((await symbolsByQualifiedIds(input.generationId, ids)).map((s) => [s.qualifiedId, s]));
  const out: SymbolRecord[] = [];
  for (const id of ids) {
    const s = byId.get(id);
    if (!s || out.length >= 3) continue;
    const body = isFunctionSymbol(s) ? await input.reader.slice(s.path, s.startLine, s.endLine) : null;
    if (body && passesOn(body.split("\n"))) continue;
    out.push(s);
  }
  return out;
}

/** An assignment statement, and one storing a bare name (`r.strictSlash = value`, `$this->x = $x;`). */
const ASSIGNS = /^[^=(]*[^=!<>]=(?!=)/;
const STORES_NAME = /[^=!<>]=\s*\$?[A-Za-z_]\w*;?$/;

/**
 * A body that passes the work on: a setter storing what it is given, or one call or
 * return handing on (a getter, a registration) that reports nothing. Code storing what it computes
 * (`mx.handler = http.HandlerFunc(mx.routeHTTP)`) changes the state a report tests, and stays.
 */
export function passesOn(lines: readonly string[]): boolean {
  const shape = bodyShape(lines);
  // A body that raises or reports is a site, however short.
  if (shape.decides || shape.statements.some(reportsFailure)) return false;
  const assignments = shape.statements.filter((x) => ASSIGNS.test(x));
  if (assignments.length === 0) return shape.handsOn;
  return shape.setter && assignments.every((x) => STORES_NAME.test(x));
}
