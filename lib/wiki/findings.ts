/**
 * The issues store: structural findings computed from a generation's code index,
 * each with a category, a severity and a location. Thresholds (FINDING_THRESHOLDS)
 * scale with the repository where "high" is relative — fan-in and fan-out use the
 * larger of a fixed floor and the 99th percentile, so a big codebase is held to its
 * own norm and a small one still gets its outliers flagged — and stay absolute where
 * the measure is (function length, writers of one variable, TODO density).
 *
 * Categories:
 * - god-function: fan-out (distinct callees through edges of confidence ≥ 0.5) ≥
 *   max(12, p99 over functions — the floor alone below 200 functions); high at 2× that.
 * - hotspot: fan-in (distinct callers, same edges) ≥ max(10, p99); high at 2× that.
 *   Fan and length findings located in test code are reported as low: a test helper
 *   everyone calls is not a production risk.
 * - call-cycle: functions calling each other in a loop (edges of confidence ≥ 0.5;
 *   direct recursion excluded); low inside one file, medium across files, high across folders.
 * - import-cycle: files importing each other in a loop, not counting imports made only
 *   for type checking or inside functions (the usual ways to break a cycle); medium for
 *   two files, high for more.
 * - long-function: ≥ 100 lines low, ≥ 200 medium, ≥ 400 high.
 * - swallowed-exception: `except: pass` / `except Exception: pass` high, bare `except:`
 *   without re-raise and empty catch blocks / `if err != nil {}` medium, a specific
 *   exception passed over, a comment-only catch, `.catch(() => {})`, `_ = err`, `Err(_) => {}` low.
 *   `except ImportError: pass` (optional dependencies) is not reported.
 * - module-state: one module-level variable written from ≥ 3 functions medium, ≥ 6 high.
 * - todo-density: ≥ 3 TODO/FIXME/XXX/HACK markers and ≥ 1 per 100 lines low, ≥ 10 medium.
 * Each metric category keeps its 25 strongest findings (swallowed exceptions: 60).
 */
import "server-only";
import { loadFindings } from "../db/wiki-store.ts";
import {
  callFanAboveThreshold,
  classifiedPaths,
  loadCallGraph,
  loadModuleStateWrites,
  longFunctions,
  symbolRanges,
  type FanRow,
  type ImportRow,
  type WikiFileRow,
} from "../db/wiki-inputs.ts";
import type { FileFacts, SwallowedError } from "../db/file-shapes.ts";
import { cyclePath, findCycles } from "./graph.ts";
import { code, joinCapped, nameOfId, plural } from "../answerers/markdown.ts";
import { dirOf } from "./slugs.ts";
import type { FindingDraft, Severity } from "../db/wiki-shapes.ts";

export const FINDING_THRESHOLDS = {
  godFunction: { floor: 12, percentile: 0.99 },
  hotspot: { floor: 10, percentile: 0.99 },
  fanMinConfidence: 0.5,
  /** below this many functions the percentile is just the top value: the floors apply alone */
  percentileMinFunctions: 200,
  longFunction: { low: 100, medium: 200, high: 400 },
  callCycle: { minConfidence: 0.5 },
  moduleState: { medium: 3, high: 6 },
  todoDensity: { minCount: 3, perHundredLines: 1, mediumCount: 10 },
  maxPerCategory: 25,
  maxSwallowed: 60,
  maxCycles: 20,
} as const;

export interface FindingsInput {
  generationId: string;
  /** every file and import of the generation; asked for only by categories recomputed in full */
  everything: () => Promise<{ files: WikiFileRow[]; imports: ImportRow[] }>;
  /** the facts of some files (module state reads where its variables are defined) */
  factsOf: (paths: string[]) => Promise<Map<string, FileFacts>>;
  /**
   * A previous generation with the same call graph: its call-graph findings (god
   * functions, hotspots, call cycles) still hold and are carried over with their line
   * ranges refreshed, instead of being recomputed over every call edge.
   */
  sameCallGraphAs: string | null;
  /**
   * A previous generation and the categories whose inputs are unchanged since
   * (categoriesUnchanged): those findings are copied instead of being recomputed over
   * every file or symbol.
   */
  sameFactsAs: { generationId: string; categories: CarriedCategory[] } | null;
}

/** Findings that depend only on the call graph (and where its functions are). */
const CALL_GRAPH_CATEGORIES = ["god-function", "hotspot", "call-cycle"] as const;

/** Findings computed from the facts of every file (and, for cycles, its imports). */
type FactCategory = "import-cycle" | "swallowed-exception" | "todo-density";
/** Findings whose every input belongs to one file, or to one import between files. */
export type CarriedCategory = FactCategory | "long-function" | "module-state";

/**
 * Which per-file categories cannot have changed, given the rows of the changed files
 * in both generations (the same paths: no file added or removed) and whether their
 * import edges, lines included, are the same: those where what each changed file
 * contributes is the same. Most edits touch no swallowed exception, TODO marker,
 * deferred import, long function or module-state write, so most re-indexes carry every
 * one of them over.
 */
export async function categoriesUnchanged(input: {
  previousGenerationId: string;
  generationId: string;
  before: WikiFileRow[];
  after: WikiFileRow[];
  importLinesSame: boolean;
}): Promise<CarriedCategory[]> {
  const { before, after } = input;
  const paths = after.map((f) => f.path);
  const old = new Map(before.map((f) => [f.path, f]));
  const t = FINDING_THRESHOLDS.todoDensity;
  const same = (pick: (f: WikiFileRow) => unknown) =>
    after.length === before.length &&
    after.every((f) => {
      const o = old.get(f.path);
      return o !== undefined && JSON.stringify(pick(o)) === JSON.stringify(pick(f));
    });
  const out: CarriedCategory[] = [];
  if (input.importLinesSame && same((f) => [f.facts.typeOnlyImports, f.facts.localImports]))
    out.push("import-cycle");
  if (same((f) => (f.kind === "code" ? f.facts.swallowed : []))) out.push("swallowed-exception");
  // A file below the marker count is never listed, whatever its length.
  if (same((f) => (f.kind === "code" && f.facts.todoCount >= t.minCount ? [f.facts.todos, f.lines] : null)))
    out.push("todo-density");
  const both = <T>(load: (generationId: string) => Promise<T>) =>
    Promise.all([load(input.previousGenerationId), load(input.generationId)]).then(
      ([a, b]) => JSON.stringify(a) === JSON.stringify(b),
    );
  const [longSame, writesSame] = await Promise.all([
    both((g) => longFunctions(g, FINDING_THRESHOLDS.longFunction.low, 0, paths)),
    both((g) => loadModuleStateWrites(g, paths)),
  ]);
  if (longSame) out.push("long-function");
  if (writesSame && same((f) => f.facts.state)) out.push("module-state");
  return out;
}

export async function computeFindings(input: FindingsInput): Promise<FindingDraft[]> {
  let everything: Promise<{ files: WikiFileRow[]; imports: ImportRow[] }> | null = null;
  const all = () => (everything ??= input.everything());
  const kept = new Set(input.sameFactsAs?.categories ?? []);
  // What is carried over is read in one query.
  const previous = input.sameFactsAs ? loadFindings(input.sameFactsAs.generationId, [...kept]) : null;
  const carried = async (category: CarriedCategory, compute: () => Promise<FindingDraft[]>) =>
    previous && kept.has(category) ? (await previous).filter((f) => f.category === category) : compute();
  const fromFacts = (
    category: FactCategory,
    compute: (x: { files: WikiFileRow[]; imports: ImportRow[] }) => FindingDraft[],
  ): Promise<FindingDraft[]> => carried(category, async () => compute(await all()));
  const [fromCalls, long, state, cycles, swallowed, todos] = await Promise.all([
    input.sameCallGraphAs
      ? carriedOver(input.sameCallGraphAs, input.generationId)
      : Promise.all([fanFindings(input.generationId), callCycleFindings(input.generationId)]).then((r) =>
          r.flat(),
        ),
    carried("long-function", () => longFunctionFindings(input.generationId)),
    carried("module-state", () => moduleStateFindings(input.generationId, input.factsOf)),
    fromFacts("import-cycle", (x) => importCycleFindings(x.files, x.imports)),
    fromFacts("swallowed-exception", (x) => swallowedFindings(x.files)),
    fromFacts("todo-density", (x) => todoFindings(x.files)),
  ]);
  // Vendored, generated, minified and documentation files are not the repository's to fix.
  const classified = await classifiedPaths(input.generationId);
  const own = (list: FindingDraft[], limit = Infinity) =>
    list.filter((f) => !f.path || !classified.has(f.path)).slice(0, limit);
  const perCategory = FINDING_THRESHOLDS.maxPerCategory;
  const fan = (category: string) =>
    own(
      fromCalls.filter((f) => f.category === category),
      category === "call-cycle" ? FINDING_THRESHOLDS.maxCycles : perCategory,
    );
  return [
    ...fan("god-function"),
    ...fan("hotspot"),
    ...fan("call-cycle"),
    ...own(long, perCategory),
    ...own(cycles),
    ...own(swallowed),
    ...own(state),
    ...own(todos),
  ];
}

// ------------------------------------------------------------- fan and length

const TEST_CODE =
  /(^|\/)(tests?|testing|__tests__|spec)\/|(^|\/)(test_[^/]*|conftest\.py)$|_test\.(py|go)$|\.(test|spec)\.[cm]?[jt]sx?$|Test\.java$/;

/** Test code can hold big or busy helpers without putting production at risk. */
function inTests(path: string | null, severity: Severity): Severity {
  return path && TEST_CODE.test(path) ? "low" : severity;
}

function located(r: FanRow) {
  return { path: r.path, startLine: r.startLine, endLine: r.endLine, symbolId: r.qualifiedId };
}

async function fanFindings(generationId: string): Promise<FindingDraft[]> {
  const t = FINDING_THRESHOLDS;
  const [out, into] = await Promise.all([
    callFanAboveThreshold(generationId, "out", {
      minConfidence: t.fanMinConfidence,
      floor: t.godFunction.floor,
      percentile: t.godFunction.percentile,
      minPopulation: t.percentileMinFunctions,
      limit: 3 * t.maxPerCategory, // room for those in vendored or generated files, left out later
    }),
    callFanAboveThreshold(generationId, "in", {
      minConfidence: t.fanMinConfidence,
      floor: t.hotspot.floor,
      percentile: t.hotspot.percentile,
      minPopulation: t.percentileMinFunctions,
      limit: 3 * t.maxPerCategory,
    }),
  ]);
  return [
    ...out.rows.map((r): FindingDraft => ({
      category: "god-function",
      severity: inTests(r.path, r.value >= out.threshold * 2 ? "high" : "medium"),
      title: `${r.qualifiedName} calls ${r.value} different functions`,
      detail: `High fan-out (threshold ${out.threshold} for this repository): one function coordinating this much is hard to change and to test.`,
      ...located(r),
    })),
    ...into.rows.map((r): FindingDraft => ({
      category: "hotspot",
      severity: inTests(r.path, r.value >= into.threshold * 2 ? "high" : "medium"),
      title: `${r.qualifiedName} is called from ${r.value} functions`,
      detail: `High fan-in (threshold ${into.threshold} for this repository): a change here ripples to every caller.`,
      ...located(r),
    })),
  ];
}

async function longFunctionFindings(generationId: string): Promise<FindingDraft[]> {
  const t = FINDING_THRESHOLDS.longFunction;
  const rows = await longFunctions(generationId, t.low, 3 * FINDING_THRESHOLDS.maxPerCategory);
  return rows.map((r) => ({
    category: "long-function",
    severity: inTests(r.path, r.value >= t.high ? "high" : r.value >= t.medium ? "medium" : "low"),
    title: `${r.qualifiedName} is ${r.value} lines long`,
    detail: "Very long functions usually hold several responsibilities; splitting them makes each testable.",
    ...located(r),
  }));
}

// ----------------------------------------------------------------- cycles

export function cycleSeverity(paths: string[]): Severity {
  const files = new Set(paths);
  if (files.size <= 1) return "low";
  return new Set(paths.map(dirOf)).size > 1 ? "high" : "medium";
}

async function callCycleFindings(generationId: string): Promise<FindingDraft[]> {
  const graph = await loadCallGraph(generationId, FINDING_THRESHOLDS.callCycle.minConfidence);
  const edges = graph.map((e) => ({ from: e.srcId, to: e.dstId }));
  const components = findCycles([], edges).slice(0, 3 * FINDING_THRESHOLDS.maxCycles);
  if (components.length === 0) return [];
  const ranges = await symbolRanges(generationId, components.flat());
  return components.map((component) => {
    const loop = cyclePath(component, edges);
    const first = ranges.get(loop[0] ?? "");
    const paths = component.map((id) => ranges.get(id)?.path ?? id.split("::")[0] ?? id);
    const files = new Set(paths).size;
    const severity = cycleSeverity(paths);
    return {
      category: "call-cycle",
      severity,
      title: `Call cycle through ${plural(component.length, "function")}${files > 1 ? ` in ${plural(files, "file")}` : ""}`,
      detail: `${cycleMembers(component, loop, (id) => code(nameOfId(id)), "functions")}${[
        ...loop,
        loop[0] ?? "",
      ]
        .map((id) => {
          const r = ranges.get(id);
          return r ? `${code(nameOfId(id))} (${r.path}:${r.startLine}-${r.endLine})` : code(nameOfId(id));
        })
        .join(" → ")}. Functions calling each other in a loop${
        severity === "low" ? "" : " across files"
      } make the control flow hard to follow and to change.`,
      path: first?.path ?? null,
      startLine: first?.startLine ?? null,
      endLine: first?.endLine ?? null,
      symbolId: loop[0] ?? null,
    };
  });
}

/**
 * A cycle's members when the loop shown does not pass through all of them, so the
 * detail lists as many as its title counts: "All 9 files: `a`, `b`, … One loop: ".
 */
export function cycleMembers(
  component: string[],
  loop: string[],
  name: (id: string) => string,
  noun: string,
): string {
  if (new Set(loop).size >= component.length) return "";
  return `All ${component.length} ${noun} of the cycle: ${joinCapped([...component].sort().map(name), 24)}. One loop through them: `;
}

/** `name` (path:start-end) as call-cycle details cite each member. */
const CITED_MEMBER = /`([^`]+)` \(([^:)]+):\d+-\d+\)/g;

/**
 * The previous generation's call-graph findings, located anew: the functions are the
 * same, but an edit above one moves its lines (its range, and a cycle's detail).
 */
async function carriedOver(previousGenerationId: string, generationId: string): Promise<FindingDraft[]> {
  const previous = await loadFindings(previousGenerationId, CALL_GRAPH_CATEGORIES);
  const ids = new Set(previous.flatMap((f) => (f.symbolId ? [f.symbolId] : [])));
  for (const f of previous) for (const m of f.detail.matchAll(CITED_MEMBER)) ids.add(`${m[2]}::${m[1]}`);
  const ranges = await symbolRanges(generationId, [...ids]);
  return previous.map((f) => {
    const here = f.symbolId ? ranges.get(f.symbolId) : undefined;
    const detail = f.detail.replace(CITED_MEMBER, (whole, name: string, path: string) => {
      const r = ranges.get(`${path}::${name}`);
      return r ? `\`${name}\` (${path}:${r.startLine}-${r.endLine})` : whole;
    });
    return { ...f, detail, startLine: here?.startLine ?? f.startLine, endLine: here?.endLine ?? f.endLine };
  });
}

/**
 * Import cycles between files. Imports made only for type checking never run, and
 * imports inside functions run late: both are how cycles are deliberately broken, so
 * neither counts.
 */
function importCycleFindings(files: WikiFileRow[], imports: ImportRow[]): FindingDraft[] {
  const deferred = new Map(
    files.map((f) => [f.path, new Set([...f.facts.typeOnlyImports, ...f.facts.localImports])]),
  );
  const live = imports.filter((e) => !deferred.get(e.srcPath)?.has(e.line));
  const edges = live.map((e) => ({ from: e.srcPath, to: e.dstPath }));
  return findCycles([], edges)
    .slice(0, FINDING_THRESHOLDS.maxCycles)
    .map((component) => {
      const loop = cyclePath(component, edges);
      const start = loop[0] ?? component[0] ?? "";
      const firstImport = live.find((e) => e.srcPath === start && e.dstPath === loop[1 % loop.length]);
      return {
        category: "import-cycle",
        severity: component.length > 2 ? "high" : "medium",
        title: `Import cycle between ${plural(component.length, "file")}`,
        detail: `${cycleMembers(component, loop, code, "files")}${[...loop, start].map(code).join(" → ")}. Files that import each other load in a fragile order and cannot be understood or tested apart.`,
        path: start,
        startLine: firstImport?.line ?? null,
        endLine: firstImport?.line ?? null,
        symbolId: null,
      };
    });
}

// ------------------------------------------------------- swallowed exceptions

export function swallowSeverity(s: SwallowedError): Severity {
  switch (s.kind) {
    case "except-pass":
      return s.caught === null || /^\(?\s*(Base)?Exception\s*\)?$/.test(s.caught) ? "high" : "low";
    case "bare-except":
    case "empty-catch":
    case "empty-error-check":
      return "medium";
    default:
      return "low";
  }
}

function swallowTitle(s: SwallowedError): string {
  switch (s.kind) {
    case "except-pass":
      return `except${s.caught ? ` ${s.caught}` : ""}: pass`;
    case "bare-except":
      return "bare except without re-raise";
    case "empty-catch":
      return `empty catch${s.caught ? ` (${s.caught})` : ""}`;
    case "commented-catch":
      return `catch block with only a comment${s.caught ? ` (${s.caught})` : ""}`;
    case "promise-catch":
      return "promise .catch() that drops the error";
    case "blank-error":
      return `error discarded with _ = ${s.caught ?? "err"}`;
    case "empty-error-check":
      return `empty if ${s.caught ?? "err"} != nil {}`;
    case "ignored-error":
      return "Err(_) arm that does nothing";
  }
}

function swallowedFindings(files: WikiFileRow[]): FindingDraft[] {
  const drafts: FindingDraft[] = [];
  for (const f of files) {
    if (f.kind !== "code") continue;
    for (const s of f.facts.swallowed) {
      drafts.push({
        category: "swallowed-exception",
        severity: swallowSeverity(s),
        title: `${swallowTitle(s)}${s.symbol ? ` in ${s.symbol}` : " at module level"}`,
        detail:
          "The error is dropped without being handled, logged or re-raised: failures here stay silent and surface later somewhere else.",
        path: f.path,
        startLine: s.line,
        endLine: s.endLine,
        symbolId: s.symbol ? `${f.path}::${s.symbol}` : null,
      });
    }
  }
  return drafts.sort((a, b) => rank(a.severity) - rank(b.severity)).slice(0, FINDING_THRESHOLDS.maxSwallowed);
}

function rank(severity: Severity): number {
  return severity === "high" ? 0 : severity === "medium" ? 1 : 2;
}

// ------------------------------------------------------- module state, TODOs

async function moduleStateFindings(
  generationId: string,
  factsOf: FindingsInput["factsOf"],
): Promise<FindingDraft[]> {
  const t = FINDING_THRESHOLDS.moduleState;
  const writes = await loadModuleStateWrites(generationId);
  const byName = new Map<string, typeof writes>();
  for (const w of writes) {
    const key = `${w.path}\u0000${w.name}`;
    byName.set(key, [...(byName.get(key) ?? []), w]);
  }
  const written = [...byName.values()].filter(
    (list) => new Set(list.map((w) => w.qualifiedId)).size >= t.medium,
  );
  const facts = await factsOf([...new Set(written.map((list) => (list[0] as (typeof list)[number]).path))]);
  const drafts: FindingDraft[] = [];
  for (const list of byName.values()) {
    const writers = [...new Map(list.map((w) => [w.qualifiedId, w])).values()];
    if (writers.length < t.medium) continue;
    const { path, name } = list[0] as (typeof list)[number];
    const defined = facts.get(path)?.state[name];
    const first = writers[0] as (typeof writers)[number];
    drafts.push({
      category: "module-state",
      severity: writers.length >= t.high ? "high" : "medium",
      title: `Module state ${name} in ${path} is written from ${writers.length} functions`,
      detail: `Written by ${joinCapped(
        writers.map((w) => `${code(w.qualifiedName)} (${w.path}:${w.startLine}-${w.endLine})`),
        8,
      )}. Shared mutable state changed from many places couples them through hidden order dependencies.`,
      path,
      startLine: defined ?? first.startLine,
      endLine: defined ?? first.endLine,
      symbolId: defined ? null : first.qualifiedId,
    });
  }
  return drafts
    .sort((a, b) => rank(a.severity) - rank(b.severity) || (a.path ?? "").localeCompare(b.path ?? ""))
    .slice(0, FINDING_THRESHOLDS.maxPerCategory);
}

export function todoFindings(files: WikiFileRow[]): FindingDraft[] {
  const t = FINDING_THRESHOLDS.todoDensity;
  return files
    .filter((f) => f.kind === "code" && f.facts.todoCount >= t.minCount)
    .map((f) => ({ f, density: (f.facts.todoCount * 100) / Math.max(1, f.lines) }))
    .filter(({ density }) => density >= t.perHundredLines)
    .sort((a, b) => b.density - a.density)
    .slice(0, FINDING_THRESHOLDS.maxPerCategory)
    .map(({ f, density }) => {
      const tags = [...new Set(f.facts.todos.map((m) => m.tag))];
      const lines = f.facts.todos.map((m) => m.line);
      return {
        category: "todo-density" as const,
        severity: f.facts.todoCount >= t.mediumCount ? ("medium" as const) : ("low" as const),
        title: `${plural(f.facts.todoCount, "TODO/FIXME marker")} in ${f.path} (${density.toFixed(1)} per 100 lines)`,
        detail: `Markers: ${tags.join(", ")} at lines ${joinCapped(lines.map(String), 12)}. Dense markers point at unfinished or known-broken code.`,
        path: f.path,
        startLine: lines[0] ?? null,
        endLine: lines[lines.length - 1] ?? null,
        symbolId: null,
      };
    });
}
