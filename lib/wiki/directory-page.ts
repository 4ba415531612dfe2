/**
 * Directory pages and the overview page: what a folder (or the repository) is for,
 * its subfolders and files with their purposes and public names, its dependencies on
 * other folders, and a diagram from import edges. Pure builders; lib/wiki/generate.ts
 * gathers their inputs from the index.
 */
import type { DiagramPart } from "../diagrams/types.ts";
import { directoryImportDiagram, moduleDiagram, type ModuleEdge } from "./diagrams.ts";
import { filePurpose, type PageSymbol } from "./file-page.ts";
import {
  cite,
  code,
  firstParagraph,
  firstSentence,
  joinCapped,
  languageName,
  plural,
} from "../answerers/markdown.ts";
import { dirOf, dirSlug, OVERVIEW_SLUG } from "./slugs.ts";
import type { WikiPageDraft } from "../db/wiki-shapes.ts";
import type { WikiFileRow } from "../db/wiki-inputs.ts";

/** A documented file with its top-level symbols (code files only). */
export type ListedFile = WikiFileRow & { symbols: PageSymbol[] };

export interface DirectoryInput {
  path: string;
  /** files directly in the directory */
  files: ListedFile[];
  /** child directories holding code, with their code-file counts (recursive) */
  subdirs: { path: string; codeFiles: number }[];
  /** file-level import edges with an end in this directory */
  imports: { srcPath: string; dstPath: string }[];
  /** text of a README directly in the directory, if any */
  readme: { path: string; content: string } | null;
}

export interface OverviewInput extends DirectoryInput {
  repositoryName: string;
  languages: Record<string, number>;
  docs: string[];
  entryPoints: { path: string; qualifiedName: string; startLine: number; endLine: number; why: string }[];
  modules: { name: string; files: number; fanIn: number; fanOut: number }[];
  moduleEdges: ModuleEdge[];
  moduleCycles: string[][];
  codeFiles: string[];
}

const PACKAGE_FILES = /(^|\/)(__init__\.py|index\.[cm]?[jt]sx?|mod\.rs|lib\.rs|doc\.go|package-info\.java)$/;

export function directoryInputs(input: DirectoryInput): unknown[] {
  return [
    "dir",
    input.path,
    input.files.map((f) => `${f.path}@${f.hash}`).sort(),
    input.subdirs.map((d) => `${d.path}#${d.codeFiles}`).sort(),
    input.imports.map((e) => `${e.srcPath}>${e.dstPath}`).sort(),
  ];
}

export function overviewInputs(input: OverviewInput): unknown[] {
  return [
    ...directoryInputs(input),
    "overview",
    input.repositoryName,
    input.languages,
    input.docs,
    input.entryPoints,
    input.modules,
    input.moduleEdges,
  ];
}

/** A folder's purpose: its package file's doc, else its README, else what it holds. */
function directoryPurpose(input: DirectoryInput): string {
  const pkg = input.files.find((f) => PACKAGE_FILES.test(f.path) && f.facts.doc);
  if (pkg) return `${firstSentence(pkg.facts.doc, 300)} (from ${code(pkg.path)})`;
  const readme = input.readme ? firstParagraph(input.readme.content, 400) : "";
  if (readme && input.readme) return `${readme} (from ${code(input.readme.path)})`;
  const code_ = input.files.filter((f) => f.kind === "code");
  const languages = [...new Set(code_.map((f) => languageName(f.language)))];
  const parts = [
    code_.length ? `${plural(code_.length, `${languages.join("/")} file`)}` : null,
    input.subdirs.length ? plural(input.subdirs.length, "subfolder") : null,
  ].filter(Boolean);
  return parts.length ? `Holds ${parts.join(" and ")}.` : "An empty folder.";
}

function listing(input: DirectoryInput): string[] {
  const out: string[] = [];
  if (input.subdirs.length) {
    out.push("", "## Subfolders", "");
    for (const d of [...input.subdirs].sort((a, b) => a.path.localeCompare(b.path)))
      out.push(`- ${code(d.path)} — ${plural(d.codeFiles, "source file")}`);
  }
  const codeFiles = input.files.filter((f) => f.kind === "code").sort((a, b) => a.path.localeCompare(b.path));
  if (codeFiles.length) {
    out.push("", "## Files", "");
    for (const f of codeFiles) {
      const names = f.symbols.filter((s) => s.exported && !s.parentId).map((s) => code(s.name));
      const publicPart = names.length ? ` Public: ${joinCapped(names, 6)}.` : "";
      out.push(`- ${code(f.path)} — ${filePurpose(f)}${publicPart}`);
    }
  }
  const texts = input.files.filter((f) => f.kind !== "code").map((f) => code(f.path));
  if (texts.length) out.push("", `Other files: ${joinCapped(texts.sort(), 12)}.`);
  return out;
}

/** Imports leaving the directory and arriving in it, aggregated per folder. */
function dependencies(input: DirectoryInput): string[] {
  const own = new Set(input.files.map((f) => f.path));
  const outCounts = new Map<string, number>();
  const inCounts = new Map<string, number>();
  for (const e of input.imports) {
    const fromHere = own.has(e.srcPath);
    const toHere = own.has(e.dstPath);
    if (fromHere && !toHere) outCounts.set(dirOf(e.dstPath), (outCounts.get(dirOf(e.dstPath)) ?? 0) + 1);
    if (toHere && !fromHere) inCounts.set(dirOf(e.srcPath), (inCounts.get(dirOf(e.srcPath)) ?? 0) + 1);
  }
  const render = (counts: Map<string, number>) =>
    joinCapped(
      [...counts]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .map(([m, n]) => `${code(m === "." ? "(root)" : m)} (${plural(n, "import")})`),
      10,
    );
  const out: string[] = [];
  if (outCounts.size || inCounts.size) out.push("", "## Dependencies", "");
  if (outCounts.size) out.push(`- Imports from ${render(outCounts)}`);
  if (inCounts.size) out.push(`- Imported by ${render(inCounts)}`);
  return out;
}

export function buildDirectoryPage(input: DirectoryInput, inputHash: string): WikiPageDraft {
  const purpose = directoryPurpose(input);
  const codeCount = input.files.filter((f) => f.kind === "code").length;
  const content = [
    `**Purpose.** ${purpose}`,
    "",
    `${plural(codeCount, "source file")} here · ${plural(input.subdirs.length, "subfolder")}`,
    ...listing(input),
    ...dependencies(input),
  ].join("\n");
  const diagram: DiagramPart | null = directoryImportDiagram(
    input.path,
    input.files.filter((f) => f.kind === "code").map((f) => f.path),
    input.imports,
  );
  return {
    slug: dirSlug(input.path),
    kind: "directory",
    title: `${input.path}/`,
    sourcePath: input.path,
    summary: purpose,
    content,
    diagram,
    inputHash,
    modelWritten: false,
    chunkEndLine: content.split("\n").length,
  };
}

export function buildOverviewPage(input: OverviewInput, inputHash: string): WikiPageDraft {
  const readme = input.readme ? firstParagraph(input.readme.content, 600) : "";
  const purpose = readme
    ? `${readme} (from ${code(input.readme?.path ?? "README")})`
    : `${input.repositoryName}: ${plural(input.codeFiles.length, "source file")} in ${plural(input.modules.length, "folder")}.`;
  const out: string[] = [`**Purpose.** ${purpose}`];
  const languages = Object.entries(input.languages).sort((a, b) => b[1] - a[1]);
  if (languages.length) {
    out.push("", "## Languages", "");
    out.push(languages.map(([l, n]) => `${languageName(l)} (${plural(n, "file")})`).join(", "));
  }
  if (input.entryPoints.length) {
    out.push("", "## Entry points", "");
    for (const e of input.entryPoints)
      out.push(`- ${code(e.qualifiedName)} ${cite(e.path, e.startLine, e.endLine)} — ${e.why}`);
  }
  if (input.modules.length) {
    out.push(
      "",
      "## Top modules",
      "",
      "| Folder | Files | Imported by | Imports |",
      "| --- | ---: | ---: | ---: |",
    );
    for (const m of input.modules.slice(0, 12))
      out.push(`| ${code(m.name === "." ? "(root)" : m.name)} | ${m.files} | ${m.fanIn} | ${m.fanOut} |`);
  }
  if (input.moduleCycles.length) {
    out.push(
      "",
      `Import cycles between folders: ${input.moduleCycles.map((c) => c.map(code).join(" ↔ ")).join("; ")}.`,
    );
  }
  if (input.docs.length) {
    out.push("", "## Documentation", "", joinCapped(input.docs.map(code), 20));
  }
  out.push(...listing(input), ...dependencies(input));
  const content = out.join("\n");
  return {
    slug: OVERVIEW_SLUG,
    kind: "overview",
    title: input.repositoryName,
    sourcePath: null,
    summary: purpose,
    content,
    diagram: moduleDiagram(input.modules, input.moduleEdges, input.codeFiles, input.moduleCycles),
    inputHash,
    modelWritten: false,
    chunkEndLine: content.split("\n").length,
  };
}
