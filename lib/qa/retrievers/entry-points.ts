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
import { splitIdentifier, stem } from "../../db/tokenize.ts";
import { sameStem, type ConceptTerm } from "../concepts.ts";
import { generationCache } from "../generation-cache.ts";
import { isTestPath, symbolCandidate, type Candidate } from "./shared.ts";

export interface StoredEntryPoint extends EntryPoint {
  path: string;
}

/** Every entry point of a generation (read once per generation). */
export const entryPointsOf = generationCache(async (generationId): Promise<StoredEntryPoint[]> =>
  (await entryPointFacts(generationId)).flatMap((r) => {
    try {
      const facts = JSON.parse(r.facts) as { entryPoints?: EntryPoint[] };
      return (facts.entryPoints ?? []).map((e) => ({ ...e, path: r.path }));
    } catch {
      return [];
    }
  }),
);

const CLI_CUE =
  /\b(?:command(?:[- ]line)?s?|cli|console|terminal|shell|script|executable|binary|subcommand)\b/i;
const HTTP_CUE =
  /\b(?:route|endpoint|http|api|url|handler|request|get|post|put|patch|delete)\b|\s\/[\w/{}<>:-]*/i;
const MAIN_CUE = /\b(?:main|start(?:s|up)?|entry[- ]?points?|program|launch(?:es)?|boot)\b/i;

/**
 * How well an entry point fits a question. A command or script fits when the question
 * says its name ("the pylint command", "`flask run`") and talks about commands or
 * program start; a route when the question writes its path or shares its words and
 * talks about requests. Words shared with the handler's name add a little.
 */
export function entryScore(entry: EntryPoint, question: string, terms: ConceptTerm[]): number {
  const words = new Set(
    [entry.name, entry.symbol ?? "", entry.target ?? ""]
      .join(" ")
      .split(/[^A-Za-z0-9_]+/)
      .flatMap((w) => splitIdentifier(w))
      .map(stem),
  );
  const shared = terms.filter((t) => [...words].some((w) => sameStem(t, w))).length;
  const lower = question.toLowerCase();
  if (entry.kind === "http") {
    const route = entry.name.split(" ").pop() ?? "";
    const routeNamed = route.length > 1 && lower.includes(route.toLowerCase());
    if (!routeNamed && (shared < 2 || !HTTP_CUE.test(question))) return 0;
    return (routeNamed ? 3 : 0) + shared * 0.5 + (HTTP_CUE.test(question) ? 1 : 0);
  }
  const cue = CLI_CUE.test(question) || MAIN_CUE.test(question);
  const name = entry.name.toLowerCase();
  const nameNamed =
    name.length > 1 &&
    new RegExp(`(?:^|[^\\w.-])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w.-])`).test(lower);
  if (!cue || (!nameNamed && shared < 2)) return 0;
  return (nameNamed ? 3 : 0) + shared * 0.5 + 1;
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
