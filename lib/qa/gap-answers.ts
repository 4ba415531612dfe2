/**
 * Gaps a user fills: for a gap the loop could not resolve, the user names where it is
 * (a file, a folder, a symbol, or `path:start-end`) or pastes a short excerpt. A named
 * location is looked up in the answer's index generation like any citation is checked
 * (it must exist there; nothing outside the index is ever read) and becomes context
 * with its source lines; an excerpt becomes context marked "provided by the user, not
 * verified", with no location, so no answer can cite it as verified source.
 */
import "server-only";
import { z } from "zod";
import { normalizeGap, parseGapTarget } from "../answerers/gap-format.ts";
import type { ContextItem } from "../answerers/contract.ts";
import {
  countFilesUnder,
  filesBySuffix,
  symbolByQualifiedId,
  symbolsByName,
  symbolsByQualifiedName,
  symbolsByQualifiedIds,
  symbolsInFile,
  type SymbolRecord,
} from "../db/code-graph.ts";
import { getFile } from "../db/index-reads.ts";
import { WayfinderError } from "../errors.ts";
import { isSafeRelativePath } from "../paths.ts";
import { lexicalSearch } from "../search/hybrid.ts";
import { countTokens, truncateToTokens } from "./budget.ts";
import { symbolItem, textItem, type SourceReader } from "./context.ts";
import { MAX_GAP_EXCERPT_CHARS, type GapReport } from "./types.ts";

export const MAX_GAP_ANSWERS = 8;
export const UNVERIFIED_EXCERPT = "provided by the user, not verified";

export const gapAnswerSchema = z
  .object({
    /** the gap as the answer named it */
    gap: z.string().trim().min(1).max(300),
    /** a file, folder or symbol of the indexed repository, or `path:start-end` */
    location: z.string().trim().min(1).max(400).optional(),
    /** a short code excerpt (provided by the user, not verified) */
    excerpt: z
      .string()
      .max(
        MAX_GAP_EXCERPT_CHARS,
        `An excerpt is at most ${MAX_GAP_EXCERPT_CHARS.toLocaleString("en-US")} characters.`,
      )
      .optional(),
  })
  .strict()
  .refine((a) => Number(Boolean(a.location)) + Number(Boolean(a.excerpt?.trim())) === 1, {
    message: "Name a file, folder or symbol, or paste an excerpt (one of the two).",
  });

export const gapAnswersSchema = z.array(gapAnswerSchema).min(1).max(MAX_GAP_ANSWERS);

export type GapAnswer = z.infer<typeof gapAnswerSchema>;

export interface LocateContext {
  generationId: string;
  reader: SourceReader;
  /** tokens the provided context may take for one gap */
  budget: number;
  pass: number;
  /** how the repository and generation are named in messages ("sinatra, generation 2") */
  indexName: string;
}

/** What a named location turned out to be, and the context it gives. */
export interface Located {
  kind: "lines" | "file" | "folder" | "symbol";
  /** `path:start-end` of each item */
  found: string[];
  items: ContextItem[];
}

const refused = (message: string) => new WayfinderError("bad_request:gap_answer", message);

function span(item: ContextItem): string {
  return `${item.path}:${item.startLine}-${item.endLine}`;
}

/** The name a gap asks for ("verify_user" for "verify_user() in auth.py"), if it names one. */
function gapName(gap: string): string | null {
  const target = parseGapTarget(gap);
  const name = target.symbol?.split(/\.|::|#/).pop();
  return name && name.length >= 2 ? name : null;
}

async function symbolItems(symbols: SymbolRecord[], gap: string, ctx: LocateContext): Promise<ContextItem[]> {
  const items: ContextItem[] = [];
  let used = 0;
  for (const s of symbols.slice(0, 2)) {
    const item = await symbolItem(
      ctx.reader,
      s,
      { reason: `named by you for ${gap}`, score: 1, origin: "user", pass: ctx.pass },
      { maxLines: 400, maxTokens: ctx.budget - used, truncate: true },
    );
    if (!item || (items.length && used + item.tokens > ctx.budget)) continue;
    items.push(item);
    used += item.tokens;
  }
  return items;
}

/** Lines of a file as context (cut to the budget, citing only the lines kept). */
function linesItem(
  path: string,
  startLine: number,
  text: string,
  gap: string,
  ctx: LocateContext,
): ContextItem {
  const endLine = startLine + text.split("\n").length - 1;
  return textItem(
    { path, startLine, endLine, title: path, text, kind: "file" },
    { reason: `named by you for ${gap}`, score: 1, origin: "user", pass: ctx.pass, maxTokens: ctx.budget },
  );
}

/** `path:10-40` or `path:10`: the lines must exist in the indexed file. */
async function locateLines(path: string, start: number, end: number, gap: string, ctx: LocateContext) {
  const file = await getFile(ctx.generationId, path);
  if (!file) throw refused(`${path} is not a file of ${ctx.indexName}.`);
  if (end < start) throw refused(`${path}:${start}-${end} is an inverted line range.`);
  if (end > file.lines) throw refused(`${path} has ${file.lines} lines; ${start}-${end} is past its end.`);
  // The exact span of a symbol is that symbol, with the facts the answerers use.
  const exact = (await symbolsInFile(ctx.generationId, path)).find(
    (s) => s.startLine === start && s.endLine === end,
  );
  if (exact) return { kind: "symbol" as const, items: await symbolItems([exact], gap, ctx) };
  const text = (await ctx.reader.slice(path, start, end)) ?? "";
  return { kind: "lines" as const, items: [linesItem(path, start, text, gap, ctx)] };
}

/** A file: the gap's definition in it when there is one, else the file from its start. */
async function locateFile(path: string, gap: string, ctx: LocateContext) {
  const name = gapName(gap);
  const symbols = await symbolsInFile(ctx.generationId, path);
  const named = name ? symbols.filter((s) => s.name === name || s.qualifiedName.endsWith(`.${name}`)) : [];
  if (named.length) return { kind: "symbol" as const, items: await symbolItems(named, gap, ctx) };
  const content = (await ctx.reader.lines(path)) ?? [];
  return { kind: "file" as const, items: [linesItem(path, 1, content.slice(0, 400).join("\n"), gap, ctx)] };
}

/** A folder: the gap's definition under it, else what under it best matches the gap. */
async function locateFolder(folder: string, gap: string, ctx: LocateContext) {
  const prefix = `${folder}/`;
  const name = gapName(gap);
  if (name) {
    const named = (await symbolsByName(ctx.generationId, name, 50)).filter((s) => s.path.startsWith(prefix));
    if (named.length) return { kind: "folder" as const, items: await symbolItems(named, gap, ctx) };
  }
  const hits = await lexicalSearch(ctx.generationId, name ?? gap, { pathPrefix: prefix, limit: 5 });
  const symbols = await symbolsByQualifiedIds(
    ctx.generationId,
    hits.flatMap((h) => (h.symbolId ? [h.symbolId] : [])),
  );
  if (symbols.length) return { kind: "folder" as const, items: await symbolItems(symbols, gap, ctx) };
  throw refused(`Nothing in ${prefix} matches "${gap}" in ${ctx.indexName}.`);
}

/** A symbol by qualified id (`path::Class.method`), qualified name (`Class.method`, `A::B#c`) or name. */
async function locateSymbol(name: string, gap: string, ctx: LocateContext) {
  if (name.includes("::") && name.split("::")[0]?.includes("/")) {
    const s = await symbolByQualifiedId(ctx.generationId, name);
    if (s) return { kind: "symbol" as const, items: await symbolItems([s], gap, ctx) };
  }
  // Ruby's `A::B#c` and C++'s `A::b` are `A.B.c` and `A.b` in the index.
  const dotted = name.replace(/::|#/g, ".").replace(/\(\)$/, "");
  const last = dotted.split(".").pop() ?? dotted;
  const qualified = dotted.includes(".") ? await symbolsByQualifiedName(ctx.generationId, dotted, 5) : [];
  const byName = qualified.length
    ? qualified
    : (await symbolsByName(ctx.generationId, last, 20)).filter(
        (s) => !dotted.includes(".") || s.qualifiedName.endsWith(dotted),
      );
  if (byName.length === 0) throw refused(`No file, folder or symbol "${name}" in ${ctx.indexName}.`);
  return { kind: "symbol" as const, items: await symbolItems(byName, gap, ctx) };
}

/**
 * Looks a named location up in the generation and returns its context; a location
 * that is not there is refused with a message that says what was looked for.
 */
export async function locate(location: string, gap: string, ctx: LocateContext): Promise<Located> {
  const raw = location.trim().replace(/^`|`$/g, "").replace(/^\.\//, "");
  const lines = /^(.+\.[A-Za-z0-9]+):(\d+)(?:\s*[-–]\s*(\d+))?$/.exec(raw);
  const pathLike = lines?.[1] ?? raw.replace(/\/+$/, "");
  if ((lines || raw.includes("/")) && !isSafeRelativePath(pathLike))
    throw refused(`${raw} is not a path inside ${ctx.indexName}; only indexed files are read.`);
  let result: Omit<Located, "found">;
  if (lines) {
    const start = Number(lines[2]);
    result = await locateLines(pathLike, start, lines[3] ? Number(lines[3]) : start, gap, ctx);
  } else if (await getFile(ctx.generationId, pathLike)) {
    result = await locateFile(pathLike, gap, ctx);
  } else if ((await countFilesUnder(ctx.generationId, `${pathLike}/`)) > 0) {
    result = await locateFolder(pathLike, gap, ctx);
  } else if (raw.includes("/") || /\.[A-Za-z0-9]{1,5}$/.test(raw)) {
    // A file named without its folder: accepted when exactly one indexed file ends so.
    const candidates = await filesBySuffix(ctx.generationId, pathLike, 3);
    if (candidates.length !== 1)
      throw refused(
        candidates.length
          ? `"${raw}" matches several files (${candidates.join(", ")}); name one with its folder.`
          : `No file or folder "${raw}" in ${ctx.indexName}.`,
      );
    result = await locateFile(candidates[0] as string, gap, ctx);
  } else {
    result = await locateSymbol(raw, gap, ctx);
  }
  if (result.items.length === 0) throw refused(`"${raw}" has no source to read in ${ctx.indexName}.`);
  return { ...result, found: result.items.map(span) };
}

function excerptItem(gap: string, excerpt: string, ctx: LocateContext): ContextItem {
  const text = truncateToTokens(excerpt.replace(/\r\n/g, "\n").trimEnd(), ctx.budget);
  return {
    key: `excerpt:${normalizeGap(gap)}`,
    kind: "doc",
    path: null,
    startLine: 0,
    endLine: 0,
    title: `Excerpt for ${gap} (${UNVERIFIED_EXCERPT})`,
    text,
    tokens: countTokens(text),
    reason: UNVERIFIED_EXCERPT,
    score: 1,
    origin: "user",
    pass: ctx.pass,
    facts: null,
    truncated: text.length < excerpt.trimEnd().length,
  };
}

/**
 * The context and gap reports of a pass answered from what the user provided. Every
 * location is checked before anything is returned: one that is not in the index
 * refuses the whole request, so nothing half-applied is stored.
 */
export async function provideGapAnswers(
  answers: GapAnswer[],
  ctx: LocateContext,
): Promise<{ items: ContextItem[]; reports: GapReport[] }> {
  const items: ContextItem[] = [];
  const reports: GapReport[] = [];
  for (const answer of answers) {
    if (answer.excerpt?.trim()) {
      const item = excerptItem(answer.gap, answer.excerpt, ctx);
      items.push(item);
      reports.push({
        gap: answer.gap,
        status: "resolved",
        via: "user",
        found: [],
        searched: [],
        note: UNVERIFIED_EXCERPT,
        excerpt: item.text,
      });
      continue;
    }
    const located = await locate(answer.location ?? "", answer.gap, ctx);
    items.push(...located.items);
    reports.push({
      gap: answer.gap,
      status: "resolved",
      via: "user",
      found: located.found,
      searched: [],
      note: `named by you: ${answer.location}`,
    });
  }
  return { items, reports };
}

/** The answers behind the reports of an earlier user pass, to provide its context again. */
export function answersOf(reports: GapReport[]): GapAnswer[] {
  return reports.flatMap((r): GapAnswer[] => {
    if (r.via !== "user") return [];
    if (r.excerpt) return [{ gap: r.gap, excerpt: r.excerpt }];
    return r.found.map((location) => ({ gap: r.gap, location }));
  });
}
