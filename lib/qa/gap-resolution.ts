/**
 * Resolves the gaps an answerer named into new context, cheapest and most precise
 * first: direct lookup (`name in path`, qualified ids), a named file, a function
 * name, then a mode-specific search, and semantic search (top k) last. Each gap
 * reports how it was resolved or what was searched, and a gap that cannot be
 * resolved is remembered so it is never retried in the session.
 */
import "server-only";
import {
  calleesOf,
  filesBySuffix,
  symbolsOfQualifiedId,
  symbolsByName,
  symbolsByQualifiedIds,
  symbolsByQualifiedName,
  symbolsInFile,
  symbolsRaising,
  symbolsWithErrorString,
  type SymbolRecord,
} from "../db/code-graph.ts";
import { isSafeRelativePath } from "../paths.ts";
import { hybridSearch } from "../search/hybrid.ts";
import { queryTerms } from "../db/tokenize.ts";
import { symbolItem, textItem, type ContextSet, type SourceReader } from "./context.ts";
import { type ContextItem } from "../answerers/contract.ts";
import type { CgragConfig } from "../settings/config.ts";
import { normalizeGap, parseGapTarget, type GapTarget } from "../answerers/gap-format.ts";
import type { GapReport, QueryMode } from "./types.ts";

export interface GapResolutionInput {
  gaps: string[];
  mode: QueryMode;
  generationId: string;
  repositoryId: string;
  config: CgragConfig;
  reader: SourceReader;
  context: ContextSet;
  /** normalized gaps known to be unresolvable (session-wide) */
  notFound: Set<string>;
  pass: number;
  /** token budget for this pass's gap resolution */
  budget: number;
  /** sub-queries for fuzzy gaps (from a sufficiency judgment), keyed by gap */
  subQueries?: Map<string, string>;
}

export interface GapResolutionResult {
  items: ContextItem[];
  reports: GapReport[];
  tokens: number;
}

type Via = NonNullable<GapReport["via"]>;

/** Below this many tokens no gap can be resolved usefully, so the gap budget counts as spent. */
export const MIN_GAP_BUDGET = 60;

function skipped(gap: string, note: string): GapReport {
  return { gap, status: "skipped", via: null, found: [], searched: [], note };
}

export async function resolveGaps(input: GapResolutionInput): Promise<GapResolutionResult> {
  const items: ContextItem[] = [];
  const reports: GapReport[] = [];
  let used = 0;
  for (const gap of input.gaps) {
    const key = normalizeGap(gap);
    if (input.notFound.has(key)) {
      reports.push(skipped(gap, "already known to be unresolvable in this session"));
      continue;
    }
    const remaining = input.budget - used;
    if (remaining < MIN_GAP_BUDGET) {
      reports.push(skipped(gap, "gap budget for this pass is spent"));
      continue;
    }
    const perGap = Math.min(input.config.perGapBudget, remaining);
    const attempt = await resolveOne(gap, input, perGap);
    if (attempt.items.length === 0) {
      // Already in context counts as resolved: the answerer just has to look again.
      if (attempt.alreadyInContext.length) {
        reports.push({
          gap,
          status: "resolved",
          via: "cache",
          found: attempt.alreadyInContext,
          searched: attempt.searched,
          note: "already in the context",
        });
      } else {
        input.notFound.add(key);
        reports.push({
          gap,
          status: "unresolved",
          via: null,
          found: [],
          searched: attempt.searched,
          note: attempt.note ?? null,
        });
      }
      continue;
    }
    for (const item of attempt.items) {
      if (input.context.add(item)) {
        items.push(item);
        used += item.tokens;
      }
    }
    reports.push({
      gap,
      status: "resolved",
      via: attempt.via,
      found: attempt.items.map((i) => (i.path ? `${i.path}:${i.startLine}-${i.endLine}` : i.title)),
      searched: attempt.searched,
      note: null,
    });
  }
  return { items, reports, tokens: used };
}

interface Attempt {
  items: ContextItem[];
  via: Via | null;
  searched: string[];
  alreadyInContext: string[];
  note?: string;
}

const OUTSIDE_NOTE = "names a path outside the repository; only indexed files are read";

/** A gap being looked up: what it names, what was searched, and how found symbols become items. */
interface GapLookup {
  gap: string;
  target: GapTarget;
  input: GapResolutionInput;
  budget: number;
  searched: string[];
  /** the locations of definitions found that the context already holds */
  already: string[];
  toItems: ToItems;
}

type ToItems = (symbols: SymbolRecord[], via: Via, reason: string) => Promise<Attempt | null>;

async function resolveOne(gap: string, input: GapResolutionInput, budget: number): Promise<Attempt> {
  const target = parseGapTarget(gap);
  // A model naming "../x.py" or "C:\\x.py" names nothing in the index: nothing is looked up.
  if (target.path && !isSafeRelativePath(target.path.replace(/^\.?\//, "").split("::")[0] ?? "")) {
    return { items: [], via: null, searched: [], alreadyInContext: [], note: OUTSIDE_NOTE };
  }
  const searched: string[] = [];
  const already: string[] = [];
  const lookup: GapLookup = {
    gap,
    target,
    input,
    budget,
    searched,
    already,
    toItems: (symbols, via, reason) => symbolsToItems(lookup, symbols, via, reason),
  };
  return (
    (await lookupDirect(lookup)) ??
    (await lookupFile(lookup)) ??
    (await lookupByName(lookup)) ??
    (await MODE_LOOKUPS[input.mode]?.(gap, input, searched, lookup.toItems)) ??
    (await lookupSemantic(lookup))
  );
}

/** Up to three found definitions not yet in context, as items within the gap's budget; null if none fit. */
async function symbolsToItems(
  { gap, input, budget, searched, already }: GapLookup,
  symbols: SymbolRecord[],
  via: Via,
  reason: string,
): Promise<Attempt | null> {
  const fresh = symbols.filter((s) => {
    if (input.context.has(s.qualifiedId) || input.context.covers(s.path, s.startLine, s.endLine)) {
      already.push(`${s.path}:${s.startLine}-${s.endLine}`);
      return false;
    }
    return true;
  });
  const items: ContextItem[] = [];
  let used = 0;
  for (const s of fresh.slice(0, 3)) {
    const item = await symbolItem(
      input.reader,
      s,
      { reason: `${reason} (gap: ${gap})`, score: 0.5, origin: "gap", pass: input.pass },
      { maxLines: input.config.maxSourceLinesPerFunction, maxTokens: budget - used, truncate: true },
    );
    if (!item || used + item.tokens > budget) continue;
    items.push(item);
    used += item.tokens;
  }
  return items.length ? { items, via, searched, alreadyInContext: already } : null;
}

/** Nothing new found, though the named definition may already be in context. */
function nothingNew({ searched, already }: GapLookup): Attempt {
  return { items: [], via: null, searched, alreadyInContext: already };
}

/** 1. Direct lookup: qualified id, `name in path`, dotted qualified name. */
async function lookupDirect(lookup: GapLookup): Promise<Attempt | null> {
  const { gap, target, input, searched, already, toItems } = lookup;
  if (!target.symbol || !target.path) return null;
  const { generationId } = input;
  searched.push(`symbol ${target.symbol} in ${target.path}`);
  if (target.path.includes("::") || gap.includes("::")) {
    const family = await symbolsOfQualifiedId(generationId, `${target.path}::${target.symbol}`);
    const hit = family.length ? await toItems(family, "direct", "direct lookup") : null;
    if (hit) return hit;
  }
  const path = target.path;
  const files = await filesBySuffix(generationId, path.replace(/^\.?\//, ""), 5);
  const last = target.symbol.split(".").pop() ?? target.symbol;
  const candidates = (await symbolsByName(generationId, last, 30)).filter(
    (s) => files.includes(s.path) || s.path.endsWith(path) || s.path.includes(path),
  );
  const exact = candidates.filter((s) => s.qualifiedName === target.symbol || s.name === target.symbol);
  const hit = await toItems(exact.length ? exact : candidates, "direct", "direct lookup");
  if (hit) return hit;
  // The named definition is already in context: a fuzzy search would only add noise.
  return already.length ? nothingNew(lookup) : null;
}

/** 2. A file: its top-level symbols' source, or its summary when they do not fit. */
async function lookupFile(lookup: GapLookup): Promise<Attempt | null> {
  const { gap, target, input, budget, searched, already, toItems } = lookup;
  if (!target.path || target.symbol) return null;
  const { generationId } = input;
  searched.push(`file ${target.path}`);
  const files = await filesBySuffix(generationId, target.path.replace(/^\.?\//, ""), 3);
  for (const file of files) {
    const symbols = (await symbolsInFile(generationId, file)).filter((s) => !s.parentId);
    const hit = await toItems(symbols, "file", `from ${file}`);
    if (hit) return hit;
    const content = await input.reader.slice(file, 1, 80);
    if (content && !input.context.covers(file, 1, 80)) {
      const item = textItem(
        {
          path: file,
          startLine: 1,
          endLine: Math.min(80, content.split("\n").length),
          title: file,
          text: content,
          kind: "file",
        },
        {
          reason: `file named in gap: ${gap}`,
          score: 0.5,
          origin: "gap",
          pass: input.pass,
          maxTokens: budget,
        },
      );
      return { items: [item], via: "file", searched, alreadyInContext: already };
    }
  }
  return null;
}

/** 3. A function or class name, definitions close to the context first. */
async function lookupByName(lookup: GapLookup): Promise<Attempt | null> {
  const { target, input, searched, already, toItems } = lookup;
  if (!target.symbol) return null;
  const { generationId } = input;
  searched.push(`symbol named ${target.symbol}`);
  const byQualified = target.symbol.includes(".")
    ? await symbolsByQualifiedName(generationId, target.symbol, 5)
    : [];
  const byName = byQualified.length
    ? byQualified
    : await symbolsByName(generationId, target.symbol.split(".").pop() ?? target.symbol, 6);
  // Prefer definitions close to what is already in context (same files first).
  const contextPaths = new Set(input.context.list().map((i) => i.path));
  byName.sort((a, b) => Number(contextPaths.has(b.path)) - Number(contextPaths.has(a.path)));
  const hit = await toItems(byName, "function", "definition by name");
  if (hit) return hit;
  return already.length ? nothingNew(lookup) : null;
}

/** 5. Semantic search, top k: the last resort, so it always answers. */
async function lookupSemantic(lookup: GapLookup): Promise<Attempt> {
  const { gap, target, input, budget, searched, already, toItems } = lookup;
  const { generationId } = input;
  const query = input.subQueries?.get(gap) ?? gap;
  searched.push(`semantic search "${query.slice(0, 80)}" (top ${input.config.semanticTopK})`);
  // Vector search always returns its top k, however unrelated; a hit only resolves the
  // gap when it speaks of what was asked for, or nothing would ever be unresolvable.
  const speaksOf = gapMatcher(gap, target);
  const hits = (
    await hybridSearch(input.repositoryId, generationId, query, { limit: input.config.semanticTopK })
  ).filter((h) => speaksOf(`${h.path}\n${h.symbolId ?? ""}\n${h.title}\n${h.text}`.toLowerCase()));
  const symbolIds = hits.flatMap((h) => (h.symbolId ? [h.symbolId] : []));
  const symbols = await symbolsByQualifiedIds(generationId, symbolIds);
  const hit = await toItems(symbols, "semantic", "semantic match");
  if (hit) return hit;
  const textHits = hits.filter(
    (h) => !h.symbolId && !input.context.has(`${h.path}:${h.startLine}-${h.endLine}`),
  );
  if (textHits.length === 0) return nothingNew(lookup);
  const items = textHits.slice(0, 2).map((h) =>
    textItem(h, {
      reason: `semantic match (gap: ${gap})`,
      score: 0.4,
      origin: "gap",
      pass: input.pass,
      maxTokens: Math.floor(budget / 2),
    }),
  );
  return { items, via: "semantic", searched, alreadyInContext: already };
}

/** A name written as code: snake_case, camelCase, dotted or with `::`. */
const CODE_SHAPED = /[_.:]|[a-z][A-Z]/;

/**
 * What a semantic hit must contain to resolve a gap. A name written as code is matched
 * whole (as written, or its last segment when that is code-shaped too): the lookups
 * by name found no such definition, and code sharing one of its words (`apply_coupon`
 * for `apply_discount`) does not make it exist. Otherwise one word of the named file's
 * stem, the named symbol, or the gap itself is enough.
 */
function gapMatcher(gap: string, target: GapTarget): (hay: string) => boolean {
  if (target.symbol && CODE_SHAPED.test(target.symbol)) {
    const last = target.symbol.split(/\.|::/).pop() ?? target.symbol;
    const names = [target.symbol, ...(CODE_SHAPED.test(last) ? [last] : [])].map((n) => n.toLowerCase());
    return (hay) => names.some((n) => hay.includes(n));
  }
  const stem = target.path
    ?.split("/")
    .pop()
    ?.replace(/\.[^.]+$/, "");
  const terms = queryTerms(target.symbol ?? stem ?? gap).filter((t) => t.length >= 3);
  return (hay) => terms.some((t) => hay.includes(t));
}

type ModeLookup = (
  gap: string,
  input: GapResolutionInput,
  searched: string[],
  toItems: ToItems,
) => Promise<Attempt | null>;

/**
 * Each mode's own lookup for a gap: a diagnostic one looks for what raises the error it
 * names or emits its message; an exploratory one follows the call graph from the symbol
 * it names; the others have none.
 */
const MODE_LOOKUPS: Record<QueryMode, ModeLookup | null> = {
  async diagnostic(gap, { generationId }, searched, toItems) {
    const exception = gap.match(/\b([A-Z]\w*(?:Error|Exception|Declined|Failure|Fault))\b/)?.[1];
    if (exception) {
      searched.push(`functions raising ${exception}`);
      const hit = await toItems(
        await symbolsRaising(generationId, [exception], 5),
        "mode",
        `raises ${exception}`,
      );
      if (hit) return hit;
    }
    const quoted = gap.match(/["'“]([^"'”]{8,})["'”]/)?.[1];
    if (quoted || /error|exception|fail|invalid|raise|throw/i.test(gap)) {
      const fragment = quoted ?? gap.replace(/^(the|where|what|which)\s+/i, "").slice(0, 60);
      searched.push(`error strings containing "${fragment.slice(0, 50)}"`);
      const hit = await toItems(
        await symbolsWithErrorString(generationId, fragment, 5),
        "mode",
        "emits a matching error",
      );
      if (hit) return hit;
    }
    return null;
  },
  async exploratory(gap, { generationId }, searched, toItems) {
    // "what X calls" / "callees of X": follow the graph from a symbol in context.
    const name = gap.match(/\b(?:calls?|callees? of|after|from)\s+`?([A-Za-z_][\w.]*)/i)?.[1];
    if (!name) return null;
    searched.push(`callees of ${name}`);
    const origin = (await symbolsByName(generationId, name.split(".").pop() ?? name, 3))[0];
    if (!origin) return null;
    const edges = await calleesOf(generationId, origin.qualifiedId, 10);
    return toItems(
      await symbolsByQualifiedIds(
        generationId,
        edges.flatMap((e) => (e.dstId ? [e.dstId] : [])),
      ),
      "mode",
      `called by ${origin.qualifiedName}`,
    );
  },
  conceptual: null,
  analytical: null,
};
