/**
 * A flow that runs through stored state: one step stores a field or a registry entry and a
 * later one reads it (`compressWith` stores `this.compressionAlgorithm`, `compact` reads it;
 * `sort_by` stores `self.opts.sorter`, `push` sorts with it). No call links the two, so the
 * walk hops from a step that stores to the functions of the leading files that read what it
 * stored, the ones that test it first.
 */
import "server-only";
import type { SymbolRecord } from "../../db/code-graph.ts";
import { assignedFields, spanStatements } from "../../answerers/body-shape.ts";
import type { SourceReader } from "../context.ts";
import { fileSymbols } from "./answering.ts";
import { isConstructor } from "./conceptual.ts";
import { dirOf } from "./file-index.ts";
import { isCodeFunction } from "./shared.ts";

/** A body longer than this does its own work: what it stores is a side effect, not a hand-over. */
const MAX_STORING_STATEMENTS = 8;
/** A step storing more fields than this fills an object in rather than handing a setting on. */
const MAX_STORED_FIELDS = 2;
/** How many readers of one step's stored state join the walk. */
export const READERS_PER_STEP = 2;

/**
 * The fields (or a registry's name) a short body stores on an object, a registry or an
 * instance variable (`self.opts.sorter = …` → sorter, `this.compressionAlgorithm = alg`,
 * `@timeout = t`, `opts[:limit] = n` → limit, `methodMap[method] = mt` → methodMap): plain
 * local variables are no state a later step reads.
 */
export function storedFields(statements: readonly string[], params: ReadonlySet<string>): string[] {
  if (statements.length > MAX_STORING_STATEMENTS || params.size === 0) return [];
  const out = new Set<string>();
  for (const s of statements) {
    const target = /^([\w$@][\w$@.\->:[\]'"]*?)\s*(?:\|\||\?\?)?=(?![=>~])/.exec(s)?.[1];
    if (!target || !/[.@[]|->|::/.test(target)) continue;
    // What the step is given is what it hands on; a value it builds itself is its own work.
    if (!(s.match(/[A-Za-z_$][\w$]*/g) ?? []).some((w) => params.has(w))) continue;
    // A registry keyed by a variable is read by its own name, not the key's.
    const registry = /^(?:[\w$]+(?:\.|->))*([\w$]+)\[[A-Za-z_$][\w$]*\]$/.exec(target)?.[1];
    const names = registry ? [registry] : assignedFields([s]);
    for (const n of names) if (n.length >= 4) out.add(n);
  }
  // Several fields stored at once fill an object in (a response's status, body and headers): no
  // one setting is handed on, and readers of such common names are everywhere.
  return out.size <= MAX_STORED_FIELDS ? [...out] : [];
}

/**
 * The parameter names a function's signature declares after its name (a Go method's
 * receiver and `self`, `this`, `mut` left out): `sort_by<F>(mut self, cmp: F)` → cmp, F.
 */
export function parameterNames(signature: string, name: string): Set<string> {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const open = new RegExp(String.raw`(?<![\w$])${escaped}\s*(?:<[^>]*>)?\s*\(`).exec(signature);
  if (!open) return new Set();
  let depth = 1;
  let i = open.index + open[0].length;
  const from = i;
  for (; i < signature.length && depth > 0; i++)
    depth += signature[i] === "(" ? 1 : signature[i] === ")" ? -1 : 0;
  const words = signature.slice(from, i - 1).match(/[A-Za-z_$][\w$]*/g) ?? [];
  return new Set(words.filter((w) => !/^(?:self|this|mut|const|final|ref|in|out)$/.test(w)));
}

/** A line that tests something: a condition, a guard, a boolean expression. */
const TESTS =
  /^(?:if|elif|else\s+if|unless|while|when|case|switch|match|guard)\b|\bif\b|\?.*:|&&|\|\||[!=]==?/;

/** A function with its body's statements, read once per question. */
export interface BodyLines {
  symbol: SymbolRecord;
  statements: string[];
}

/**
 * How a function reads a stored field: 2 when a line tests it, 1 when a line only uses it
 * (`payload.setZip(compressionAlgorithm)`), 0 when it never reads it (storing it again, or
 * naming it as a key of a literal, is no read). Where `bare`, the field may be written without
 * its object (Java's implicit `this`, a Go package's registry); elsewhere only as a member
 * (`.sorter`, `->sorter`, `@sorter`).
 */
export function readsField(statements: readonly string[], field: string, bare: boolean): number {
  const name = field.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const before = bare ? String.raw`(?<![\w$])` : String.raw`(?:\.|->|@)`;
  const word = new RegExp(String.raw`${before}${name}(?![\w$])`);
  const stores = new RegExp(
    String.raw`(?:^|[.@>])${name}(?:\[[^\]]*\])?\s*(?:\|\||\?\?|[-+*/|&])?=(?![=>])|(?<![\w$:])${name}\s*:(?!:)`,
  );
  let best = 0;
  for (const line of statements) {
    if (!word.test(line) || stores.test(line)) continue;
    best = Math.max(best, TESTS.test(line) ? 2 : 1);
    if (best === 2) break;
  }
  return best;
}

/**
 * Where a field may be read without its object: in its class's own file in the languages with
 * an implicit `this` (Java, C#, C++), in a Go package's or a C program's files for a global.
 * Elsewhere, and always in Python, Ruby, JavaScript, PHP and Rust, a read names its object.
 */
function bareReads(step: SymbolRecord, reader: SymbolRecord): boolean {
  if (IMPLICIT_THIS.has(step.language)) return reader.path === step.path;
  if (PACKAGE_GLOBALS.has(step.language)) return dirOf(reader.path) === dirOf(step.path);
  return false;
}

const IMPLICIT_THIS = new Set(["java", "csharp", "cpp"]);
const PACKAGE_GLOBALS = new Set(["go", "c"]);

/**
 * The readers of what a step stores, from its own file and the leading files: those that
 * test a stored field before those that only use it, working functions before leaves, then
 * in file order. Constructors, the step itself and what the walk has already seen are left
 * out, and so are readers no closer than one the walk has already reached.
 */
export function stateReaders(
  step: SymbolRecord,
  fields: readonly string[],
  bodies: readonly BodyLines[],
  seen: ReadonlySet<string>,
): SymbolRecord[] {
  if (fields.length === 0) return [];
  const found: { symbol: SymbolRecord; reads: number; order: number }[] = [];
  let reached = 0;
  bodies.forEach(({ symbol, statements }, order) => {
    if (symbol.qualifiedId === step.qualifiedId || isConstructor(symbol)) return;
    const bare = bareReads(step, symbol);
    const reads = Math.max(...fields.map((f) => readsField(statements, f, bare)));
    if (seen.has(symbol.qualifiedId)) reached = Math.max(reached, reads);
    else if (reads > 0) found.push({ symbol, reads, order });
  });
  // The flow already reaches code reading it as closely (`handle_entry` testing `follow_root_links`):
  // the other readers (a `Debug` formatter listing every option) are no step of it.
  return found
    .filter((f) => f.reads > reached)
    .sort(
      (a, b) =>
        b.reads - a.reads || Number(b.symbol.fanOut > 0) - Number(a.symbol.fanOut > 0) || a.order - b.order,
    )
    .slice(0, READERS_PER_STEP)
    .map((f) => f.symbol);
}

/**
 * What a walk asks of stored state: the readers of what a step stores, its own file and the
 * leading files searched, each file's functions and bodies read once for the whole walk.
 */
export function stateHop(
  generationId: string,
  reader: SourceReader,
  leadingFiles: readonly string[],
  walks: (path: string) => boolean,
): (step: SymbolRecord, seen: ReadonlySet<string>) => Promise<SymbolRecord[]> {
  const bodies = new Map<string, Promise<BodyLines[]>>();
  const bodiesOf = (path: string) => {
    let found = bodies.get(path);
    if (!found) {
      found = readBodies(generationId, reader, path);
      bodies.set(path, found);
    }
    return found;
  };
  return async (step, seen) => {
    if (!isCodeFunction(step) || isConstructor(step)) return [];
    const own = (await bodiesOf(step.path)).find((b) => b.symbol.qualifiedId === step.qualifiedId);
    const fields = storedFields(own?.statements ?? [], parameterNames(step.signature, step.name));
    if (fields.length === 0) return [];
    const files = [...new Set([step.path, ...leadingFiles])].filter(walks);
    const all = (await Promise.all(files.map(bodiesOf))).flat();
    return stateReaders(step, fields, all, seen);
  };
}

async function readBodies(generationId: string, reader: SourceReader, path: string): Promise<BodyLines[]> {
  const [symbols, lines] = await Promise.all([
    fileSymbols(generationId, [path]).then((m) => m.get(path) ?? []),
    reader.lines(path),
  ]);
  if (!lines) return [];
  return symbols.filter(isCodeFunction).map((symbol) => ({
    symbol,
    statements: spanStatements(lines, symbol),
  }));
}
