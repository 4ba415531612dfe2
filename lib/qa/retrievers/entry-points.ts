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

/**
 * A question about a request reaching the code ("when a GET /articles/42 request arrives at the
 * router", "when Flask handles an incoming request"): the flow begins where the server hands
 * the request over, not in a helper sharing the question's words.
 */
const INBOUND =
  /\b(?:incoming|inbound)\s+(?:https?\s+)?requests?\b|\brequests?\b[^.?!]{0,40}?\b(?:arriv\w*|reach\w*|comes?\s+in|coming\s+in|hits?)\b|\b(?:handl|serv|dispatch|receiv)\w*\s+(?:an?\s+|the\s+|each\s+|every\s+)?(?:https?\s+)?requests?\b/i;

export function asksAboutInboundRequest(question: string): boolean {
  return INBOUND.test(question);
}

/**
 * The methods a server calls with each request, by the interface they implement: Go's
 * `http.Handler`, WSGI/ASGI applications, Rack's `call(env)`, Node's `(req, res)` handlers,
 * ASP.NET middleware, servlets and filters, PSR-15 handlers. The signature tells a request
 * handler from another method of the same name.
 */
const DISPATCH: { name: string; signature: RegExp }[] = [
  { name: "ServeHTTP", signature: /ResponseWriter/ },
  { name: "wsgi_app", signature: /environ/ },
  { name: "__call__", signature: /\b(?:environ|scope)\b/ },
  { name: "call", signature: /\(\s*env\s*\)|^\s*def\s+call\s+env\b/ },
  { name: "handle", signature: /\breq\w*\b[^)]*\bres\w*\b|RequestInterface|\bRequest\s+\$/ },
  { name: "Invoke", signature: /HttpContext/ },
  { name: "InvokeAsync", signature: /HttpContext/ },
  { name: "service", signature: /ServletRequest/ },
  { name: "doFilter", signature: /ServletRequest/ },
  { name: "process", signature: /RequestInterface/ },
];

/**
 * Where a request enters the repository's code, best first: the request-dispatch methods of
 * its own code (`kept`: no tests or examples), those the question names by an enclosing class or
 * module first ("the router" → `Router.ServeHTTP`, "Sinatra" → `Sinatra.Base.call`), then the
 * one of the class with the most members (the framework's core, not a middleware), then the
 * longest (a router's `ServeHTTP` before a one-line wrapper's). `ownerNamed` says whether the
 * first is named so.
 */
export async function dispatchCandidates(
  generationId: string,
  question: string,
  terms: ConceptTerm[],
  kept: (path: string) => boolean,
): Promise<{ candidates: Candidate[]; ownerNamed: boolean }> {
  if (!asksAboutInboundRequest(question)) return { candidates: [], ownerNamed: false };
  const found = (
    await Promise.all(
      DISPATCH.map(async ({ name, signature }) =>
        (await symbolsByName(generationId, name, 40)).filter(
          (s) =>
            s.kind === "method" && signature.test(s.signature ?? "") && !isTestPath(s.path) && kept(s.path),
        ),
      ),
    )
  ).flat();
  // How many members the method's class has: the framework's core class, not a middleware's.
  const paths = [...new Set(found.map((s) => s.path))];
  const inFiles = (await Promise.all(paths.map((p) => symbolsInFile(generationId, p)))).flat();
  const members = (s: SymbolRecord) =>
    inFiles.filter((m) => m.parentId === s.parentId && m.path === s.path).length;
  const named = (s: SymbolRecord) =>
    s.qualifiedName
      .split(".")
      .slice(0, -1)
      .flatMap((part) => splitIdentifier(part))
      .some((w) => terms.some((t) => sameStem(t, stem(w))))
      ? 1
      : 0;
  const lines = (s: SymbolRecord) => s.endLine - s.startLine;
  const ranked = found.sort((a, b) => named(b) - named(a) || members(b) - members(a) || lines(b) - lines(a));
  return {
    candidates: ranked
      .slice(0, 2)
      .map((s) => symbolCandidate(s, "entry point: where the server hands each request over")),
    ownerNamed: ranked[0] ? named(ranked[0]) === 1 : false,
  };
}
