/**
 * The users of names the repository defines no function for and nothing calls by that
 * name: a field, an option or a hook list ("which methods run the beforeRequest hooks?",
 * "who reads the `timeout` option?"). They are the functions whose code writes the
 * name, found through the files whose words hold it; those named after a name asked
 * about come first, then those writing more of the names.
 */
import "server-only";
import { type SymbolRecord } from "../../db/code-graph.ts";
import { filesMentioning } from "../../db/file-terms.ts";
import { inScope } from "../../wiki/structure.ts";
import { SourceReader } from "../context.ts";
import { fileSymbols } from "./answering.ts";
import { cite, code, joinWords, named, where, type Analysis, type Focus } from "./analytical-focus.ts";

/** Files read for the functions writing a name: enough for any question, bounded for a name used everywhere. */
const MAX_FILES = 12;

/** The functions whose code writes one of the names, the innermost one at each place, most names first. */
async function functionsWriting(
  f: Focus,
  names: string[],
): Promise<{ symbol: SymbolRecord; names: string[] }[]> {
  const byWord = await filesMentioning(
    f.generationId,
    names.map((n) => n.toLowerCase()),
  );
  const files = [...new Set([...byWord.values()].flat())]
    .filter((p) => f.keep(p) && inScope(p, f.scope))
    .slice(0, MAX_FILES);
  const symbols = await fileSymbols(f.generationId, files);
  const reader = new SourceReader(f.generationId);
  const patterns = names.map((n) => ({
    name: n,
    re: new RegExp(`(?<![\\w$#])${n.replace(/[$]/g, "\\$")}(?![\\w$])`),
  }));
  const found: { symbol: SymbolRecord; names: string[] }[] = [];
  for (const path of files) {
    const lines = await reader.lines(path);
    if (!lines) continue;
    const functions = (symbols.get(path) ?? []).filter((s) => s.kind === "function" || s.kind === "method");
    const hits = new Map<string, { symbol: SymbolRecord; names: Set<string> }>();
    lines.forEach((line, i) => {
      const written = patterns.filter((p) => p.re.test(line)).map((p) => p.name);
      if (written.length === 0) return;
      // The innermost function around the line: the shortest span holding it.
      const around = functions
        .filter((s) => s.startLine <= i + 1 && i + 1 <= s.endLine)
        .sort((a, b) => a.endLine - a.startLine - (b.endLine - b.startLine))[0];
      if (!around) return;
      const hit = hits.get(around.qualifiedId) ?? { symbol: around, names: new Set<string>() };
      for (const n of written) hit.names.add(n);
      hits.set(around.qualifiedId, hit);
    });
    for (const h of hits.values()) found.push({ symbol: h.symbol, names: [...h.names] });
  }
  // A function named after what it uses (`#runBeforeRequestHooks` for `beforeRequest`) is its dedicated user.
  const namedAfter = (u: { symbol: SymbolRecord; names: string[] }) =>
    u.names.some((n) => u.symbol.name.toLowerCase().includes(n.toLowerCase())) ? 1 : 0;
  return found.sort((a, b) => namedAfter(b) - namedAfter(a) || b.names.length - a.names.length);
}

/** Who uses names nothing calls (fields, options, hook lists): null when no function writes them either. */
export async function namesUsed(f: Focus, names: string[]): Promise<Analysis | null> {
  const users = await functionsWriting(f, names);
  if (users.length === 0) return null;
  const files = [...new Set(users.map((u) => u.symbol.path))];
  const list = users.map((u) => u.symbol);
  const asked = joinWords(names.map(code));
  const answer =
    `Nothing calls ${asked} by name; ${users.length} function${users.length === 1 ? "" : "s"} in ${files.length} file${files.length === 1 ? "" : "s"} ` +
    `use${users.length === 1 ? "s" : ""} ${names.length === 1 ? "it" : "them"} in ${where(f)} (${f.leftOut}): ` +
    `${joinWords(list.slice(0, 4).map((s) => `${code(s.qualifiedName)} (${cite(s)})`))}${list.length > 4 ? ` and ${list.length - 4} more` : ""}.`;
  return {
    answer,
    lines: [
      `Functions writing ${names.join(", ")}: ${users.length} in ${files.length} files`,
      ...users.slice(0, 14).map((u) => `- ${named(u.symbol)} writes ${u.names.join(", ")}`),
    ],
    files,
    symbols: list.slice(0, 8),
    diagram: null,
    report: null,
  };
}
