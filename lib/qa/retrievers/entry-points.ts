/**
 * Entry points at question time: the routes, commands, mains and manifest scripts the
 * indexer found (lib/indexer/entry-points.ts, stored with each file's facts), matched
 * against a question ("the pylint command", "flask run", "POST /api/qa") and resolved
 * to the functions that handle them, so an exploratory walk starts where execution
 * really starts.
 */
import "server-only";
import {
  entryPointFacts,
  symbolByQualifiedId,
  symbolsByName,
  symbolsInFile,
  type SymbolRecord,
} from "../../db/code-graph.ts";
import type { EntryPoint } from "../../indexer/entry-points.ts";
import { splitIdentifier, stem } from "../../search/tokenize.ts";
import type { ConceptTerm } from "../concepts.ts";
import { isTestPath, symbolCandidate, type Candidate } from "./shared.ts";

export interface StoredEntryPoint extends EntryPoint {
  path: string;
}

const CACHE_SIZE = 6;
const cache = new Map<string, Promise<StoredEntryPoint[]>>();

/** Every entry point of a generation (read once per generation). */
export function entryPointsOf(generationId: string): Promise<StoredEntryPoint[]> {
  const hit = cache.get(generationId);
  if (hit) return hit;
  const loading = entryPointFacts(generationId).then((rows) =>
    rows.flatMap((r) => {
      try {
        const facts = JSON.parse(r.facts) as { entryPoints?: EntryPoint[] };
        return (facts.entryPoints ?? []).map((e) => ({ ...e, path: r.path }));
      } catch {
        return [];
      }
    }),
  );
  loading.catch(() => cache.delete(generationId));
  cache.set(generationId, loading);
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return loading;
}

const CLI_CUE =
  /\b(?:command(?:[- ]line)?s?|cli|console|terminal|shell|script|executable|binary|subcommand)\b/i;
const HTTP_CUE =
  /\b(?:route|endpoint|http|api|url|handler|request|get|post|put|patch|delete)\b|\s\/[\w/{}<>:-]*/i;
const MAIN_CUE = /\b(?:main|start(?:s|up)?|entry[- ]?points?|program|launch(?:es)?|boot)\b/i;

/** How well an entry point fits a question: words it shares with the question, and the kind the question hints at. */
export function entryScore(entry: EntryPoint, question: string, terms: ConceptTerm[]): number {
  const words = new Set(
    [entry.name, entry.symbol ?? "", entry.target ?? ""]
      .join(" ")
      .split(/[^A-Za-z0-9_]+/)
      .flatMap((w) => splitIdentifier(w))
      .map(stem),
  );
  const shared = terms.filter((t) => t.stems.some((s) => words.has(s))).length;
  if (shared === 0) return 0;
  const cue =
    entry.kind === "http"
      ? HTTP_CUE.test(question)
      : entry.kind === "main"
        ? MAIN_CUE.test(question) || CLI_CUE.test(question)
        : CLI_CUE.test(question) || MAIN_CUE.test(question);
  const route = entry.kind === "http" && entry.name.split(" ").pop();
  const routeNamed = route && route.length > 1 && question.includes(route) ? 2 : 0;
  // One shared word (often the program's own name, as in "pytest runs …") is an entry
  // only when the question also asks about commands, routes or program start.
  if (shared < 2 && !cue && !routeNamed) return 0;
  return shared + (cue ? 1 : 0) + routeNamed;
}

/** The function that handles an entry point: in its file, or named by a `module:function` or dotted target. */
export async function resolveEntryPoint(
  generationId: string,
  entry: StoredEntryPoint,
): Promise<SymbolRecord | null> {
  if (entry.symbol) return symbolByQualifiedId(generationId, `${entry.path}::${entry.symbol}`);
  const target = entry.target ?? "";
  if (!target) return null;
  if (/\.[cm]?[jt]sx?$|\.py$|\.rs$|\.go$/.test(target)) {
    // A script that runs a file: its `main`, else its first top-level function.
    const symbols = (await symbolsInFile(generationId, target)).filter((s) => s.parentId === null);
    return symbols.find((s) => s.name === "main") ?? symbols.find((s) => s.kind === "function") ?? null;
  }
  const [module, fn] = target.includes(":")
    ? target.split(":")
    : [target.split(".").slice(0, -1).join("."), target.split(".").pop()];
  if (!fn) return null;
  const modulePath = (module ?? "").replace(/\./g, "/");
  const candidates = (await symbolsByName(generationId, fn.split(".").pop() ?? fn, 40)).filter(
    (s) => !isTestPath(s.path),
  );
  const inModule = (s: SymbolRecord) =>
    modulePath !== "" &&
    (s.path.endsWith(`${modulePath}.py`) ||
      s.path.endsWith(`${modulePath}/__init__.py`) ||
      s.path.includes(`${modulePath}/`) ||
      s.path.replace(/\.\w+$/, "").endsWith(modulePath));
  return (
    candidates.find((s) => inModule(s) && s.parentId === null) ??
    candidates.find(inModule) ??
    candidates.find((s) => s.parentId === null && s.exported) ??
    null
  );
}

/**
 * Entry points that fit the question, best first, as candidates of their handlers.
 * A script that installs a `module:function` whose function only re-exports another
 * module's is still found: the name lookup falls back to the public definition.
 */
export async function entryPointCandidates(
  generationId: string,
  question: string,
  terms: ConceptTerm[],
  limit = 4,
): Promise<Candidate[]> {
  if (terms.length === 0) return [];
  const entries = (await entryPointsOf(generationId))
    .filter((e) => !isTestPath(e.path))
    .map((e) => ({ e, score: entryScore(e, question, terms) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score);
  // Only the entry points that fit as well as the best one (a question names one route or command).
  const best = entries[0]?.score ?? 0;
  const fitting = entries.filter((x) => x.score >= best - 0.5).slice(0, limit * 2);
  const out: Candidate[] = [];
  const seen = new Set<string>();
  for (const { e } of fitting) {
    const symbol = await resolveEntryPoint(generationId, e);
    if (!symbol || seen.has(symbol.qualifiedId)) continue;
    seen.add(symbol.qualifiedId);
    out.push(
      symbolCandidate(symbol, `entry point: ${e.kind === "script" ? "installed command" : e.kind} ${e.name}`),
    );
    if (out.length >= limit) break;
  }
  return out;
}
