/**
 * What an analytical question is about once resolved (its Focus: scope, what it asks,
 * the symbols, files and folders it names, what is left out) and what an analysis returns
 * (its answer sentence, evidence lines, files, symbols, diagram); the wording helpers the
 * analyses share.
 */
import "server-only";
import { type SymbolRecord } from "../../db/code-graph.ts";
import { busiestSymbols } from "../../db/structure-queries.ts";
import { loadWikiFiles } from "../../db/wiki-inputs.ts";
import { type StructureReport } from "../../wiki/structure.ts";
import type { DiagramNode, DiagramPart } from "../types.ts";
import { type AnalyticalAsk } from "./analytical-intent.ts";

/** What an analysis found: the answer's first sentence, the evidence under it, what to rank and show. */
export interface Analysis {
  answer: string;
  lines: string[];
  files: string[];
  symbols: SymbolRecord[];
  diagram: DiagramPart | null;
  /** the general report of the scope, when the analysis is about the scope as a whole */
  report: StructureReport | null;
  /** whether the figure is a ranked list of files (the most imported, a part's dependencies), its first ones the answer */
  ranksFiles?: boolean;
  /** how many of its files lead the ranking in its order (the callers' files a question asks for) */
  leadFiles?: number;
  /** how many of its symbols lead the ranking in its order (the callers a question lists); 3 when unset */
  leadSymbols?: number;
}

export interface Focus {
  question: string;
  generationId: string;
  scope: string | null;
  asks: AnalyticalAsk[];
  /** symbols the question names, best match of each; `described` when written in prose, not by name */
  symbols: { symbol: SymbolRecord; label: string; described?: boolean }[];
  /** files the question names (not folders) */
  files: string[];
  /** folders the question names */
  folders: string[];
  /** the part whose users the question ranks ("which modules import core/logx the most") */
  used: string | null;
  /** code-shaped names the index has no definition of (a library's API the code calls) */
  external: string[];
  keep: (path: string) => boolean;
  /** whether code of that qualified name counts (a test written inside a source file does not, unless asked about) */
  keepName: (qualifiedName: string) => boolean;
  /** how the excluded code is described ("tests, examples and vendored code left out") */
  leftOut: string;
  /**
   * Two parts named as a pair by their stems ("a cycle between the middleware and the
   * authenticator") answer the pair's figure; a second figure asked beside it ("which files
   * does the authenticator depend on") is answered from the parts as they were before.
   */
  unpaired?: Pick<Focus, "files" | "folders" | "symbols">;
}

function moreNode(count: number): DiagramNode {
  return { id: "more", label: `+ ${count} more files`, path: null, startLine: null, endLine: null };
}

/** The most nodes an analytical diagram draws; the rest are grouped. */
const MAX_NODES = 12;

export function cite(s: SymbolRecord): string {
  return `${s.path}:${s.startLine}-${s.endLine}`;
}

/** A symbol named, then located right after its name (how citations are checked). */
export function named(s: SymbolRecord): string {
  return `${code(s.qualifiedName)} (${cite(s)})`;
}

export function code(text: string): string {
  return `\`${text.replace(/`/g, "")}\``;
}

export function where(f: Focus): string {
  return f.scope ? code(f.scope) : "the repository";
}

export function joinWords(items: string[]): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** The question's own word for an import: C and C++ `#include`, Ruby and Node `require`. */
export function importWord(question: string): { verb: string; past: string } {
  if (/\binclud/i.test(question)) return { verb: "include", past: "included" };
  if (/\brequir/i.test(question)) return { verb: "require", past: "required" };
  return { verb: "import", past: "imported" };
}

/** The longest span cited as what a file is used for: longer is not read at once. */
const READABLE_LINES = 150;

/**
 * How a file is cited in a figure: by its most-called symbol a reader can read at once
 * (what the others use of it; a long class by its busiest member), else as the whole file.
 */
export async function fileAnchors(
  generationId: string,
  paths: string[],
  lines: Map<string, number>,
): Promise<(path: string) => string> {
  const busiest = await busiestSymbols(generationId, paths, READABLE_LINES);
  return (path) => {
    const s = busiest.get(path);
    return s && s.endLine - s.startLine < READABLE_LINES
      ? `most used: ${code(s.qualifiedName)}, ${cite(s)}`
      : `${path}:1-${lines.get(path) ?? 1}`;
  };
}

export async function fileLines(generationId: string, paths: string[]): Promise<Map<string, number>> {
  const rows = await loadWikiFiles(generationId, { paths });
  return new Map(rows.map((r) => [r.path, Math.max(1, r.lines)]));
}

/**
 * The files' imports among themselves, the highlighted ones outlined: at most a dozen
 * nodes, the files past the first eleven grouped in one "+ N more files" node.
 */
export function importDiagram(
  title: string,
  files: string[],
  imports: { srcPath: string; dstPath: string }[],
  lines: Map<string, number>,
  highlighted: string[],
): DiagramPart | null {
  const all = [...new Set(files)];
  const nodes = all.length > MAX_NODES ? all.slice(0, MAX_NODES - 1) : all;
  if (nodes.length < 2) return null;
  const rest = new Set(all.slice(nodes.length));
  const ids = new Map(nodes.map((p, i) => [p, `f${i}`]));
  const idOf = (p: string) => ids.get(p) ?? (rest.has(p) ? "more" : undefined);
  const counts = new Map<string, number>();
  for (const e of imports) {
    const [from, to] = [idOf(e.srcPath), idOf(e.dstPath)];
    if (!from || !to || from === to) continue;
    const key = `${from} --> ${to}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const out = ["graph LR", ...nodes.map((p) => `  ${ids.get(p)}["${p.replace(/["<>]/g, "'")}"]`)];
  if (rest.size) out.push(`  more["+ ${rest.size} more files"]`);
  for (const [edge, n] of counts) out.push(`  ${edge.replace(" --> ", ` -->|${n}| `)}`);
  const marked = nodes.filter((p) => highlighted.includes(p)).map((p) => ids.get(p));
  if (marked.length)
    out.push("  classDef cycle stroke:#b42318,stroke-width:2px", `  class ${marked.join(",")} cycle`);
  return {
    kind: "dependencies",
    title,
    mermaid: out.join("\n"),
    nodes: [
      ...nodes.map((p): DiagramNode => ({
        id: ids.get(p) as string,
        label: p,
        path: p,
        startLine: 1,
        endLine: lines.get(p) ?? 1,
      })),
      ...(rest.size ? [moreNode(rest.size)] : []),
    ],
  };
}
