/**
 * A class the question names by its name, asked how it works out or decides something
 * ("How is the wait computed for wait_exponential?"): the class's own code that does the
 * work — the method with the deciding lines (`wait_exponential.__call__`), not its
 * constructor storing the settings — comes up right below the class. A class declares;
 * its working method answers.
 */
import "server-only";
import { symbolsInFile, type SymbolRecord } from "../../db/code-graph.ts";
import type { SourceReader } from "../context.ts";
import type { FocusQuery } from "../focus.ts";
import { decidingWeights } from "./deciding-neighbours.ts";
import { isCodeFunction, type Ranked } from "./shared.ts";

/** How far down the ranking a named class is looked for. */
const CLASS_PLACES = 3;
/** How many working methods of one class come up. */
const MEMBERS = 2;
/** Where a member comes up: just below its class. */
const BELOW = 0.999;

const CLASS_KINDS = new Set(["class", "struct"]);

/** Constructors and initialisers store what they are given; they decide nothing asked. */
const INITIALISER = /^(?:__init__|__new__|__post_init__|constructor|__construct|initialize|init|new)$/;

export async function withNamedClassMembers(
  generationId: string,
  reader: SourceReader,
  ranked: Ranked[],
  query: FocusQuery,
): Promise<Ranked[]> {
  const classes = ranked.slice(0, CLASS_PLACES).filter((r) => {
    const s = r.candidate.symbol;
    return !!s && CLASS_KINDS.has(s.kind) && query.names.has(s.name.toLowerCase());
  });
  if (classes.length === 0) return ranked;
  const out = ranked.map((r) => ({ ...r, reasons: [...r.reasons] }));
  const byId = new Map(out.map((r) => [r.candidate.symbol?.qualifiedId ?? r.candidate.key, r]));
  for (const cls of classes) {
    const owner = cls.candidate.symbol as SymbolRecord;
    const members = (await symbolsInFile(generationId, owner.path)).filter(
      (s) =>
        s.parentId === owner.qualifiedName &&
        isCodeFunction(s) &&
        s.endLine - s.startLine >= 2 &&
        !INITIALISER.test(s.name.replace(/#\d+$/, "")) &&
        s.name.replace(/#\d+$/, "") !== owner.name,
    );
    if (members.length === 0) continue;
    const weight = await decidingWeights(reader, members, query);
    const weighed = members
      .map((s) => ({ s, w: weight(s) ?? 0 }))
      .sort((a, b) => b.w - a.w || b.s.endLine - b.s.startLine - (a.s.endLine - a.s.startLine));
    // Where no member's lines carry the question's words, the longest one is where the class works.
    const carrying = weighed.filter((m) => m.w > 0);
    const working = (carrying.length ? carrying : weighed).slice(0, carrying.length ? MEMBERS : 1);
    let score = cls.score;
    for (const { s } of working) {
      score *= BELOW;
      const reason = `does the work of ${owner.name}, which the question names`;
      const existing = byId.get(s.qualifiedId);
      if (existing) {
        if (existing.score < score) {
          existing.score = score;
          existing.reasons.push(reason);
        }
        continue;
      }
      const added: Ranked = {
        candidate: { key: s.qualifiedId, symbol: s, chunk: null, reason },
        score,
        reasons: [reason],
      };
      byId.set(s.qualifiedId, added);
      out.push(added);
    }
  }
  return out.sort((a, b) => b.score - a.score);
}
