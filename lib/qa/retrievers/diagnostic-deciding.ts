/**
 * What decides a symptom one step away from what the report's words rank first. A report
 * naming an option ("we set responseType: 'json' and decompress: false", "with
 * max_depth(0)") ranks the option's setter, whose body only stores it; what produces the
 * symptom is the code testing the stored field (`skippable`: `self.depth >
 * self.opts.max_depth`). So the reader of what each leading setter or option type stores
 * comes up just below it — the step conceptual retrieval takes, with nothing demoted: in a
 * report the option it names stays cited, and one reader each, the one testing it most
 * pointedly. A function nested in another (a closure, a local helper) brings up its
 * encloser, the named function a reader finds and a fix goes into.
 */
import "server-only";
import { symbolsByQualifiedIds, type SymbolRecord } from "../../db/code-graph.ts";
import {
  fieldReaders,
  idleFunctions,
  promoteReaders,
  testers,
  type Stored,
  type Tester,
} from "./option-readers.ts";
import { assignedFields, spanStatements } from "../../answerers/body-shape.ts";
import type { SourceReader } from "../context.ts";
import { isFunctionSymbol, isTestPath, type Ranked, type RetrievalInput } from "./shared.ts";

/**
 * The ranking with the reader of each leading option brought up (setters as bodies read
 * them, and setters named like the field they store). `leadingFiles` are where the
 * readers are looked for.
 */
export async function withOptionDeciders(
  input: RetrievalInput,
  ranked: Ranked[],
  leadingFiles: string[],
): Promise<Ranked[]> {
  const { generationId, reader } = input;
  const withSymbols = ranked.filter((r) => r.candidate.symbol);
  const { fields } = await idleFunctions(reader, withSymbols);
  for (const [id, stored] of await namedSetters(reader, withSymbols))
    if (!fields.has(id)) fields.set(id, stored);
  return withOptionReader(generationId, reader, ranked, fields, leadingFiles);
}

/** How many leading files are searched for the code reading a stored option. */
const READER_FILES = 5;

/**
 * The reader of a stored option that tests most of its fields and, among equals, tests them
 * most pointedly (the greatest share of its testing lines name them: `skippable`, whose
 * one condition compares the depth with `max_depth`, before the `next` that tests it among
 * many things), as `fieldReaders` finds them.
 */
export function pointedReader(candidates: Tester[], files: string[], stored: Stored, exclude: Set<string>) {
  const words = stored.names.map((f) => new RegExp(`(?<![\\w$])${f.replace(/[$]/g, "\\$")}(?![\\w$])`));
  const share = (s: SymbolRecord) => {
    const tests = candidates.find((c) => c.symbol.qualifiedId === s.qualifiedId)?.tests ?? [];
    return tests.filter((l) => words.some((w) => w.test(l))).length / Math.max(1, tests.length);
  };
  const named = (s: SymbolRecord) => {
    const tests = candidates.find((c) => c.symbol.qualifiedId === s.qualifiedId)?.tests ?? [];
    return words.filter((w) => tests.some((l) => w.test(l))).length;
  };
  return (
    fieldReaders(candidates, files, stored, exclude).sort(
      (a, b) => named(b) - named(a) || share(b) - share(a),
    )[0] ?? null
  );
}

/**
 * The ranking with the most pointed reader of each leading setter's or option type's
 * fields just below it (one each: in a report the option named keeps its place, and the
 * code deciding with it comes next).
 */
async function withOptionReader(
  generationId: string,
  reader: SourceReader,
  ranked: Ranked[],
  fields: Map<string, Stored>,
  leadingFiles: string[],
): Promise<Ranked[]> {
  if (fields.size === 0) return ranked;
  const files = leadingFiles.slice(0, READER_FILES).filter((f) => !isTestPath(f));
  const candidates = await testers(generationId, reader, files);
  const setters = new Set(fields.keys());
  const readers = new Map<string, SymbolRecord[]>();
  for (const [setter, stored] of fields) {
    const found = pointedReader(candidates, files, stored, setters);
    if (found) readers.set(setter, [found]);
  }
  if (readers.size === 0) return ranked;
  const before = new Map(ranked.map((r) => [r.candidate.symbol?.qualifiedId ?? r.candidate.key, r.score]));
  const name = (id: string) => id.split("::").pop() ?? id;
  return promoteReaders(
    ranked.map((r) => ({ ...r, reasons: [...r.reasons] })),
    before,
    readers,
    (setter) => `tests the option ${name(setter)} stores`,
  );
}

/** How many leading symbols are read for setters named like the field they store. */
const SETTERS = 15;

/** A setter's name without its verb (`setHost`, `with_timeout`), lower-case. */
function optionName(name: string): string {
  return name.replace(/^(?:set|with)(?=[A-Z_])_?/, "").toLowerCase();
}

/**
 * The leading functions that store a field named like themselves (`max_depth` storing
 * `self.opts.max_depth`, `set decompress(v)` storing `this.#internals.decompress`): the
 * option's setter, whatever it checks or clamps first — which a body read as a whole
 * calls deciding.
 */
export async function namedSetters(reader: SourceReader, ranked: Ranked[]): Promise<Map<string, Stored>> {
  const out = new Map<string, Stored>();
  await Promise.all(
    ranked.slice(0, SETTERS).map(async (r) => {
      const s = r.candidate.symbol;
      if (!s || !isFunctionSymbol(s)) return;
      const lines = await reader.lines(s.path);
      if (!lines) return;
      const option = optionName(s.name);
      const stored = assignedFields(spanStatements(lines, s));
      const field = stored.find((f) => f.toLowerCase() === option);
      if (field) out.set(s.qualifiedId, { names: [field], member: false });
    }),
  );
  return out;
}

/** The id of the function a symbol is nested in (same file), when its parent is a function. */
function parentId(s: Pick<SymbolRecord, "path" | "parentId">): string | null {
  return s.parentId ? `${s.path}::${s.parentId}` : null;
}

/**
 * Ranked symbols with the outermost enclosing function of each nested function right
 * after it (one place each, the first it earns): the nested one may be the very line
 * asked about (a timer's handler), its encloser is what a reader knows it by.
 */
export async function withEnclosers(generationId: string, ids: string[]): Promise<string[]> {
  const symbols = new Map((await symbolsByQualifiedIds(generationId, ids)).map((s) => [s.qualifiedId, s]));
  const encloser = new Map<string, string>();
  let frontier = [...symbols.values()].filter(isFunctionSymbol);
  // Closures nest a few deep at most (a callback in a local helper).
  for (let depth = 0; depth < 3 && frontier.length; depth++) {
    const parents = [...new Set(frontier.flatMap((s) => parentId(s) ?? []))];
    const found = new Map(
      (await symbolsByQualifiedIds(generationId, parents))
        .filter(isFunctionSymbol)
        .map((p) => [p.qualifiedId, p]),
    );
    const next: SymbolRecord[] = [];
    for (const s of frontier) {
      const parent = found.get(parentId(s) ?? "");
      if (!parent) continue;
      for (const [child, outer] of encloser)
        if (outer === s.qualifiedId) encloser.set(child, parent.qualifiedId);
      encloser.set(s.qualifiedId, parent.qualifiedId);
      next.push(parent);
    }
    frontier = next;
  }
  if (encloser.size === 0) return ids;
  return [...new Set(ids.flatMap((id) => [id, encloser.get(id) ?? id]))];
}
