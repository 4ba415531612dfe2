/**
 * Which of a diagnostic ranking's leading symbols lead: the sites whose deciders are
 * looked for (functions that can report, not setters or wrappers passing the work on),
 * and the context the answerer reads, which starts with the ranked symbols in their order
 * (keeping a place near them for the symbol holding the quoted message).
 */
import "server-only";
import { symbolsByQualifiedIds, type SymbolRecord } from "../../db/code-graph.ts";
import { bodyShape } from "../../answerers/body-shape.ts";
import { reportsFailure } from "./diagnostic-deciders.ts";
import type { ContextItem } from "../../answerers/contract.ts";
import {
  isFunctionSymbol,
  packCandidates,
  symbolCandidate,
  type Ranked,
  type RetrievalInput,
} from "./shared.ts";

/** Lines where a quoted message is written, as a message signal found them. */
export interface MessagePlace {
  path: string;
  startLine: number;
  endLine: number;
}

/** How many of the ranked symbols lead the context, in their order. */
const LEADS = 5;

/**
 * The packed context with the leading ranked symbols first, in their order, and scored in
 * that order above the rest: the answer opens with what the ranking puts first (the site,
 * what decided it, the caller under whose condition it runs), not with what the signals
 * alone fused highest, and the closest of sibling sites of one message is the one ranked
 * first. A leading symbol the packing left out (a second place or encloser no signal
 * brought) is added from a quarter more budget, so nothing packed gives way to it.
 * `messagePlaces` are the lines the quoted message's signals found (see `leadOrder`).
 */
export async function withLeads(
  input: RetrievalInput,
  items: ContextItem[],
  ranked: Ranked[],
  ids: string[],
  budget: number,
  messagePlaces: readonly MessagePlace[] = [],
): Promise<ContextItem[]> {
  const lead = ids.slice(0, LEADS);
  const packed = new Set(items.flatMap((i) => (i.facts ? [i.facts.qualifiedId] : [])));
  const missing = lead.filter((id) => !packed.has(id));
  const byId = new Map<string, Ranked>();
  for (const r of ranked) {
    const id = r.candidate.symbol?.qualifiedId ?? r.candidate.chunk?.symbolId;
    if (id && !byId.has(id)) byId.set(id, r);
  }
  const records = new Map(
    (
      await symbolsByQualifiedIds(
        input.generationId,
        missing.filter((id) => !byId.has(id)),
      )
    ).map((s) => [s.qualifiedId, s]),
  );
  const top = ranked[0]?.score ?? 1;
  const extra = missing.flatMap((id): Ranked[] => {
    const found = byId.get(id);
    const s = found ? null : records.get(id);
    if (found) return [found];
    return s
      ? [{ candidate: symbolCandidate(s, "decides the report"), score: top, reasons: ["decides the report"] }]
      : [];
  });
  const added = extra.length
    ? await packCandidates(input, extra, Math.floor(budget / 4), { maxItems: extra.length })
    : [];
  const all = [...items, ...added.filter((a) => !items.some((i) => i.key === a.key))];
  return leadOrder(all, lead, messagePlaces);
}

/**
 * How many leading symbols keep their place ahead of the message's holder: the opening
 * reads the first three, and the answer's body cites four symbols in context order.
 */
const OPENING_LEADS = 3;

/**
 * The context in lead order, scored in that order above the rest; the symbol whose code
 * holds the quoted message (the first packed one within lines a message signal found: a
 * message written in a module's constant is packed as the function those lines narrow to) comes right
 * after the first three leads when none of them holds it, so it keeps a place among
 * what the body cites instead of being pushed down by the fourth and fifth leads.
 */
export function leadOrder(
  all: ContextItem[],
  lead: string[],
  messagePlaces: readonly MessagePlace[],
): ContextItem[] {
  const rank = (i: ContextItem) => (i.facts ? lead.indexOf(i.facts.qualifiedId) : -1);
  const leading = all.filter((i) => rank(i) >= 0).sort((a, b) => rank(a) - rank(b));
  const holds = (i: ContextItem) =>
    !!i.facts &&
    messagePlaces.some((p) => p.path === i.path && i.startLine <= p.endLine && i.endLine >= p.startLine);
  const holder = leading.slice(0, OPENING_LEADS).some(holds) ? undefined : all.find(holds);
  const block = holder
    ? [
        ...leading.slice(0, OPENING_LEADS),
        holder,
        ...leading.slice(OPENING_LEADS).filter((i) => i !== holder),
      ]
    : leading;
  const best = Math.max(1, ...all.map((i) => i.score));
  return [
    ...block.map((i, n) => ({ ...i, score: best * (1 + 0.01 * (block.length - n)) })),
    ...all.filter((i) => !block.includes(i)),
  ];
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
