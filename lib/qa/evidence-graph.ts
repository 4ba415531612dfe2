/**
 * The evidence subgraph of a question: (subject, relation, object) triples over the
 * symbols in context — calls, called-by, raises, mutates, emits — built each pass
 * and linearized into the prompt so a model (or the offline engine) reasons over
 * structure, not only text.
 */
import "server-only";
import { callEdgesOfMany, symbolsByQualifiedIds, symbolsWithinSpans } from "../db/code-graph.ts";
import type { ContextItem, EvidenceGraph, Relation, Triple } from "../answerers/contract.ts";

const MAX_EDGES_PER_SYMBOL = 12;
/** Symbols whose edges are looked up per pass (the context's own, then nested ones). */
const MAX_SUBJECTS = 60;

export async function buildEvidenceGraph(generationId: string, items: ContextItem[]): Promise<EvidenceGraph> {
  const inContext = new Set(items.flatMap((i) => (i.facts ? [i.facts.qualifiedId] : [])));
  const triples: Triple[] = [];
  const targets = new Set<string>();
  const pending: { subject: string; relation: Relation; id: string; confidence: number }[] = [];
  const subjects: { qualifiedId: string; qualifiedName: string }[] = [];
  for (const item of items) {
    const f = item.facts;
    if (!f) continue;
    for (const r of f.raises) triples.push(triple(f.qualifiedName, "raises", r));
    for (const m of f.mutates) triples.push(triple(f.qualifiedName, "mutates", m));
    for (const e of f.errorStrings.slice(0, 4)) triples.push(triple(f.qualifiedName, "emits", e));
    subjects.push(f);
  }
  // Symbols inside an item (a class's methods, the functions of a file chunk) are in the
  // context too, and what they call is evidence the reader can follow.
  const spans = items.flatMap(({ path, startLine, endLine }) =>
    path && endLine > startLine ? [{ path, startLine, endLine }] : [],
  );
  const byFile = await symbolsWithinSpans(generationId, spans);
  for (const item of spans) {
    for (const s of byFile.get(item.path) ?? []) {
      if (inContext.has(s.qualifiedId) || s.startLine < item.startLine || s.endLine > item.endLine) continue;
      if (subjects.length >= MAX_SUBJECTS) break;
      inContext.add(s.qualifiedId);
      subjects.push(s);
    }
  }
  const edges = await callEdgesOfMany(
    generationId,
    subjects.map((f) => f.qualifiedId),
    { callees: MAX_EDGES_PER_SYMBOL * 2, callers: MAX_EDGES_PER_SYMBOL },
  );
  for (const f of subjects) {
    const callees = edges.callees.get(f.qualifiedId) ?? [];
    const callers = edges.callers.get(f.qualifiedId) ?? [];
    const seenCallee = new Set<string>();
    for (const e of callees) {
      if (!e.dstId || seenCallee.has(e.dstId) || seenCallee.size >= MAX_EDGES_PER_SYMBOL) continue;
      seenCallee.add(e.dstId);
      pending.push({ subject: f.qualifiedName, relation: "calls", id: e.dstId, confidence: e.confidence });
      targets.add(e.dstId);
    }
    for (const e of callers) {
      pending.push({
        subject: f.qualifiedName,
        relation: "called_by",
        id: e.srcId,
        confidence: e.confidence,
      });
      targets.add(e.srcId);
    }
  }
  const symbols = await symbolsByQualifiedIds(generationId, [...targets]);
  const byId = new Map(symbols.map((s) => [s.qualifiedId, s]));
  for (const p of pending) {
    const s = byId.get(p.id);
    if (!s) continue;
    triples.push({
      subject: p.subject,
      relation: p.relation,
      object: s.qualifiedName,
      objectPath: s.path,
      objectLines: [s.startLine, s.endLine],
      inContext: inContext.has(s.qualifiedId),
      confidence: p.confidence,
    });
  }
  return { triples };
}

function triple(subject: string, relation: Relation, object: string): Triple {
  return { subject, relation, object, objectPath: null, objectLines: null, inContext: true, confidence: 1 };
}
