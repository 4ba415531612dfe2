/**
 * How much code of a kind each folder (or file) holds: "how many functions does each
 * folder define?", "which package has the most classes?". The kinds are read from the
 * question's noun (functions count methods too; types count classes, structs,
 * interfaces, traits and enums), the units are folders unless it asks per file.
 */
import "server-only";
import { type SymbolRecord } from "../../db/code-graph.ts";
import { definitionsOfKinds } from "../../db/structure-queries.ts";
import { inScope, moduleOf } from "../../wiki/structure.ts";
import { cite, code, joinWords, where, type Analysis, type Focus } from "./analytical-focus.ts";

const KINDS: [RegExp, string, string[]][] = [
  [/\bmethods?\b/i, "methods", ["method"]],
  [/\bfunctions?\b|\broutines?\b/i, "functions and methods", ["function", "method"]],
  [/\bclass(?:es)?\b/i, "classes", ["class"]],
  [/\bstructs?\b/i, "structs", ["struct"]],
  [/\binterfaces?\b|\btraits?\b/i, "interfaces and traits", ["interface", "trait"]],
  [/\btypes?\b/i, "types", ["class", "struct", "interface", "trait", "enum", "record"]],
];

/** Whether the question asks for a count of definitions per part ("how many classes per package"). */
export function asksCensus(question: string): boolean {
  return (
    /\bhow many (?:\w+ )?(?:functions|methods|classes|types|structs|interfaces|traits|routines)\b(?![^?]{0,60}\b(?:call|calls|use|uses|invoke|render|throw|raise|reach)\b)/i.test(
      question,
    ) ||
    /\b(?:which|what) (?:\w+ )?(?:folders?|packages?|director(?:y|ies)|modules?|namespaces?|files?|crates?) (?:has|have|holds?|contains?|defines?|declares?) the most (?:functions|methods|classes|types|structs|interfaces|traits|code)\b/i.test(
      question,
    ) ||
    /\b(?:count|number) of (?:functions|methods|classes|types|structs|interfaces) (?:per|in each|by)\b/i.test(
      question,
    )
  );
}

/** The definitions of the kind asked about per folder (or per file), the fullest first. */
export async function census(f: Focus): Promise<Analysis> {
  const [, noun, kinds] = KINDS.find(([re]) => re.test(f.question)) ?? KINDS[1]!;
  const perFile = /\b(?:each|per|every|which|what) (?:\w+ )?files?\b/i.test(f.question);
  const all = (await definitionsOfKinds(f.generationId, kinds, f.scope ?? undefined)).filter(
    (s) => f.keep(s.path) && inScope(s.path, f.scope),
  );
  const units = new Map<string, SymbolRecord[]>();
  for (const s of all) {
    const unit = perFile ? s.path : moduleOf(s.path);
    units.set(unit, [...(units.get(unit) ?? []), s]);
  }
  const ranked = [...units]
    .map(([unit, symbols]) => ({ unit, symbols, files: new Set(symbols.map((s) => s.path)).size }))
    .sort((a, b) => b.symbols.length - a.symbols.length || a.unit.localeCompare(b.unit));
  // Each part is cited by its largest definition of the kind, a span a reader can open.
  const example = (symbols: SymbolRecord[]) =>
    [...symbols].sort((a, b) => b.endLine - b.startLine - (a.endLine - a.startLine))[0] as SymbolRecord;
  const kind = perFile ? "file" : "folder";
  const top = ranked.slice(0, 5);
  const answer = top.length
    ? `${all.length} ${noun} in ${where(f)} (${f.leftOut}), by ${kind}: ${joinWords(
        top.map((r) => {
          const e = example(r.symbols);
          return `${code(r.unit)} ${r.symbols.length}${perFile ? "" : ` in ${r.files} file${r.files === 1 ? "" : "s"}`} (e.g. ${code(e.qualifiedName)}, ${cite(e)})`;
        }),
      )}${ranked.length > top.length ? ` and ${ranked.length - top.length} more ${kind}s` : ""}.`
    : `No ${noun} are defined in ${where(f)} (${f.leftOut}).`;
  return {
    answer,
    lines: ranked.slice(0, 20).map((r) => `- ${r.unit}: ${r.symbols.length} ${noun} in ${r.files} files`),
    files: top.map((r) => example(r.symbols).path),
    symbols: top.map((r) => example(r.symbols)),
    diagram: null,
    report: null,
  };
}
