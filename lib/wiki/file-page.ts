/**
 * The wiki page of one source file, built from evidence only: its stated purpose,
 * public symbols with signatures and `path:start-end` citations, what each calls and
 * what calls it (resolved edges), errors raised, module state and its imports, plus a
 * small call diagram. Other files are named by path (their own pages carry their
 * line numbers), so editing a file never changes another file's page unless the
 * edges between them change.
 */
import type { FileFacts } from "../db/file-shapes.ts";
import type { PageSymbolRow } from "../db/wiki-inputs.ts";
import { fileCallDiagram, type DiagramCall } from "./diagrams.ts";
import {
  cite,
  code,
  fenceLanguage,
  firstParagraph,
  firstSentence,
  joinCapped,
  languageName,
  nameOfId,
  plural,
} from "../answerers/markdown.ts";
import { fileSlug } from "./slugs.ts";
import type { WikiPageDraft } from "../db/wiki-shapes.ts";

/** A symbol a file's page lists: its row as the wiki's inputs read it, the path aside. */
export type PageSymbol = Omit<PageSymbolRow, "path">;

export interface FilePageInput {
  path: string;
  language: string;
  lines: number;
  hash: string;
  facts: FileFacts;
  symbols: PageSymbol[];
  /** resolved calls from this file's symbols, one per caller → callee pair */
  callsOut: DiagramCall[];
  /** resolved calls into this file's symbols from other symbols */
  callsIn: DiagramCall[];
  importsOut: string[];
  importedBy: string[];
}

const MAX_NAMES = 8;
const MAX_SYMBOL_SECTIONS = 120;

/** What a file page depends on: its own content, and the edges between it and other files. */
export function filePageInputs(input: FilePageInput): unknown[] {
  return [
    "file",
    input.path,
    input.hash,
    input.callsOut.map((c) => `${c.srcId}>${c.dstId}`).sort(),
    input.callsIn.map((c) => `${c.srcId}>${c.dstId}`).sort(),
    [...input.importsOut].sort(),
    [...input.importedBy].sort(),
  ];
}

/** Public: exported itself and, for members, inside an exported parent. */
function publicSymbols(symbols: PageSymbol[]): PageSymbol[] {
  const byName = new Map(symbols.map((s) => [s.qualifiedName, s]));
  return symbols.filter((s) => {
    for (let current: PageSymbol | undefined = s; current;) {
      if (!current.exported) return false;
      current = current.parentId ? byName.get(current.parentId) : undefined;
    }
    return true;
  });
}

/**
 * The file's purpose: its own doc (module docstring or leading comment, headings and
 * underlines skipped), else what it defines, led by its main definition (a class or
 * function named like the file, else its largest class). Never the first function's
 * docstring: that describes the function, not the file.
 */
export function filePurpose(input: Pick<FilePageInput, "facts" | "symbols"> & { path?: string }): string {
  if (input.facts.doc) return firstSentence(firstParagraph(input.facts.doc) || input.facts.doc, 300);
  const top = input.symbols.filter((s) => !s.parentId);
  if (top.length === 0) return "Defines no functions or classes.";
  const stem = (input.path ?? "")
    .replace(/^.*\//, "")
    .replace(/\.\w+$/, "")
    .replace(/[_-]/g, "")
    .toLowerCase();
  const size = (s: PageSymbol) => s.endLine - s.startLine;
  const main =
    top.find((s) => stem && s.name.replace(/[_-]/g, "").toLowerCase() === stem) ??
    [...top].filter((s) => s.kind !== "function" && s.kind !== "method").sort((a, b) => size(b) - size(a))[0];
  const kinds = new Map<string, number>();
  for (const s of top) kinds.set(s.kind, (kinds.get(s.kind) ?? 0) + 1);
  const parts = [...kinds].map(([kind, n]) => plural(n, kind, kind === "class" ? "classes" : `${kind}s`));
  const defines = `Defines ${joinCapped(parts, 4)}: ${joinCapped(
    [...(main ? [main] : []), ...top.filter((s) => s !== main)].map((s) => code(s.name)),
    6,
  )}.`;
  if (!main) return defines;
  const about = main.docstring ? ` ${code(main.name)}: ${firstSentence(main.docstring, 200)}` : "";
  return `${defines}${about}`;
}

/** "`a`, `b` (`x.py`); `c` (`y.py`)": names grouped by the file they live in. */
function groupedNames(refs: { id: string; path: string }[], here: string): string {
  const byPath = new Map<string, string[]>();
  for (const r of refs) {
    const names = byPath.get(r.path) ?? [];
    const name = nameOfId(r.id);
    if (!names.includes(name)) names.push(name);
    byPath.set(r.path, names);
  }
  const groups = [...byPath].sort((a, b) =>
    a[0] === here ? -1 : b[0] === here ? 1 : a[0].localeCompare(b[0]),
  );
  let shown = 0;
  const parts: string[] = [];
  let hidden = 0;
  for (const [path, names] of groups) {
    const room = Math.max(0, MAX_NAMES - shown);
    const visible = names.slice(0, room);
    hidden += names.length - visible.length;
    shown += visible.length;
    if (visible.length === 0) continue;
    const list = visible.map(code).join(", ");
    parts.push(path === here ? list : `${list} in ${code(path)}`);
  }
  return parts.join("; ") + (hidden ? ` and ${hidden} more` : "");
}

function symbolBlock(
  s: PageSymbol,
  input: FilePageInput,
  outBySrc: Map<string, DiagramCall[]>,
  inByDst: Map<string, DiagramCall[]>,
  depth: number,
): string[] {
  const indent = "  ".repeat(depth);
  const doc = s.docstring ? ` — ${firstSentence(s.docstring)}` : "";
  const lines = [
    `${indent}- ${code(s.qualifiedName)} (${s.kind}) ${cite(input.path, s.startLine, s.endLine)}${doc}`,
  ];
  const facts: string[] = [];
  const out = outBySrc.get(s.qualifiedId) ?? [];
  if (out.length)
    facts.push(
      `calls ${groupedNames(
        out.map((c) => ({ id: c.dstId, path: c.dstPath })),
        input.path,
      )}`,
    );
  const callers = inByDst.get(s.qualifiedId) ?? [];
  if (callers.length)
    facts.push(
      `called by ${groupedNames(
        callers.map((c) => ({ id: c.srcId, path: c.srcPath })),
        input.path,
      )}`,
    );
  if (s.raises.length) facts.push(`raises ${s.raises.map(code).join(", ")}`);
  for (const fact of facts) lines.push(`${indent}  - ${fact}`);
  return lines;
}

export function buildFilePage(input: FilePageInput, inputHash: string): WikiPageDraft {
  const publics = publicSymbols(input.symbols);
  const privates = input.symbols.filter((s) => !publics.includes(s));
  const outBySrc = groupBy(input.callsOut, (c) => c.srcId);
  const inByDst = groupBy(input.callsIn, (c) => c.dstId);
  const purpose = filePurpose({ ...input, path: input.path });
  const out: string[] = [];
  out.push(`**Purpose.** ${purpose}`);
  out.push(
    "",
    `${languageName(input.language)} · ${plural(input.lines, "line")} · ${plural(publics.length, "public symbol")}, ${privates.length} private · ${cite(input.path, 1, Math.max(1, input.lines))}`,
  );

  if (publics.length) {
    out.push("", "## Public interface");
    const top = publics.filter((s) => !s.parentId || !publics.some((p) => p.qualifiedName === s.parentId));
    let sections = 0;
    for (const s of top) {
      if (sections++ >= MAX_SYMBOL_SECTIONS) {
        out.push("", `… and ${top.length - MAX_SYMBOL_SECTIONS} more top-level symbols.`);
        break;
      }
      const members = publics.filter((m) => m.parentId === s.qualifiedName);
      out.push("", `### ${code(s.qualifiedName)}`, "");
      const signatures = [s.signature, ...members.map((m) => `    ${m.signature}`)].join("\n");
      out.push(`\`\`\`${fenceLanguage(input.language)}`, signatures, "```", "");
      out.push(...symbolBlock(s, input, outBySrc, inByDst, 0));
      for (const m of members) out.push(...symbolBlock(m, input, outBySrc, inByDst, 0));
    }
  }

  const raisers = input.symbols.filter((s) => s.raises.length);
  if (raisers.length) {
    out.push("", "## Errors raised", "");
    for (const s of raisers.slice(0, 30))
      out.push(
        `- ${s.raises.map(code).join(", ")} by ${code(s.qualifiedName)} ${cite(input.path, s.startLine, s.endLine)}`,
      );
  }

  const state = Object.entries(input.facts.state)
    .map(([name, line]) => ({
      name,
      line,
      writers: input.symbols.filter((s) => s.mutates.includes(name)).map((s) => s.qualifiedName),
    }))
    .filter((s) => s.writers.length > 0);
  if (state.length) {
    out.push("", "## Module state", "");
    for (const s of state)
      out.push(
        `- ${code(s.name)} (${cite(input.path, s.line, s.line)}) is written by ${joinCapped(s.writers.map(code), MAX_NAMES)}`,
      );
  }

  const callsInto = countPaths(input.callsOut.filter((c) => c.dstPath !== input.path).map((c) => c.dstPath));
  const calledFrom = countPaths(input.callsIn.filter((c) => c.srcPath !== input.path).map((c) => c.srcPath));
  if (callsInto.length || calledFrom.length || input.importsOut.length || input.importedBy.length) {
    out.push("", "## Dependencies", "");
    if (callsInto.length)
      out.push(
        `- Calls into ${joinCapped(
          callsInto.map(([p, n]) => `${code(p)} (${n})`),
          10,
        )}`,
      );
    if (calledFrom.length)
      out.push(
        `- Called from ${joinCapped(
          calledFrom.map(([p, n]) => `${code(p)} (${n})`),
          10,
        )}`,
      );
    if (input.importsOut.length)
      out.push(`- Imports ${joinCapped([...input.importsOut].sort().map(code), 12)}`);
    if (input.importedBy.length)
      out.push(`- Imported by ${joinCapped([...input.importedBy].sort().map(code), 12)}`);
  }

  if (privates.length) {
    out.push("", "## Internal symbols", "");
    out.push(
      joinCapped(
        privates.map((s) => `${code(s.qualifiedName)} ${cite(input.path, s.startLine, s.endLine)}`),
        40,
      ),
    );
  }

  return {
    slug: fileSlug(input.path),
    kind: "file",
    title: input.path,
    sourcePath: input.path,
    summary: purpose,
    content: out.join("\n"),
    diagram: fileCallDiagram(input.path, input.symbols, input.callsOut, input.callsIn),
    inputHash,
    modelWritten: false,
    chunkEndLine: Math.max(1, input.lines),
  };
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const list = out.get(key(item)) ?? [];
    list.push(item);
    out.set(key(item), list);
  }
  return out;
}

function countPaths(paths: string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const p of paths) counts.set(p, (counts.get(p) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
