/**
 * Analyses over a scope: the most imported files, the functions with the highest fan-in or
 * fan-out, the largest functions, functions nothing calls, and the scope's overview with
 * its import diagram.
 */
import "server-only";
import { topSymbolsBy, type SymbolRecord } from "../../db/code-graph.ts";
import { filesMentioning } from "../../db/file-terms.ts";
import {
  classesByMethods,
  crossFileCalls,
  largestFunctions,
  typeSymbols,
  uncalledFunctions,
} from "../../db/structure-queries.ts";
import { splitIdentifier } from "../../db/tokenize.ts";
import { loadCallsTouching, loadImportEdges, loadWikiFiles } from "../../db/wiki-inputs.ts";
import { analyzeStructure, inScope, moduleOf } from "../../wiki/structure.ts";
import { ranksFolders } from "./analytical-intent.ts";
import { QUESTION_STRUCTURE_READS } from "./structure-reads.ts";
import {
  cite,
  code,
  fileAnchors,
  importDiagram,
  importWord,
  joinWords,
  named,
  where,
  type Analysis,
  type Focus,
} from "./analytical-focus.ts";

/**
 * The files (or folders, when the question asks about packages, folders or namespaces)
 * of the scope that the most other files depend on. A dependent imports the file or
 * calls into it: in Java, Go or C# a file uses its package's other files without
 * importing them, so imports alone would undercount.
 */
export async function mostImported(f: Focus, least = false): Promise<Analysis> {
  const wiki = await loadWikiFiles(f.generationId);
  const lines = new Map(wiki.map((w) => [w.path, Math.max(1, w.lines)]));
  const scoped = wiki
    .filter((w) => w.kind === "code" && f.keep(w.path) && inScope(w.path, f.scope))
    .map((w) => w.path);
  const inside = new Set(scoped);
  const [imports, calls] = await Promise.all([
    loadImportEdges(f.generationId, f.scope ? { touching: scoped } : "all"),
    f.scope ? loadCallsTouching(f.generationId, scoped) : crossFileCalls(f.generationId),
  ]);
  const folders = ranksFolders(f.question);
  const unit = (p: string) => (folders ? moduleOf(p) : p);
  const dependents = new Map<string, { importers: Set<string>; callers: Set<string> }>();
  const note = (src: string, dst: string, kind: "importers" | "callers") => {
    if (!inside.has(dst) || !f.keep(src) || unit(src) === unit(dst)) return;
    const entry = dependents.get(unit(dst)) ?? { importers: new Set(), callers: new Set() };
    entry[kind].add(unit(src));
    dependents.set(unit(dst), entry);
  };
  // "Imported/included by the most" ranks by imports; "depended on", "used", "referenced" by any use.
  let byImports =
    /\b(?:import|includ|requir)\w*/i.test(f.question) && !/\b(?:depend|used|referenc)\w*/i.test(f.question);
  // A type-only import never runs, so it makes no cycle, but the importer still depends on the file.
  // A Go import names a package, not one of its files (the index records the package's first
  // file): it counts for the package's folder, and the files of a package rank by their uses.
  const language = new Map(wiki.map((w) => [w.path, w.language]));
  for (const e of imports)
    if (folders || !PACKAGE_IMPORTS.has(language.get(e.dstPath) ?? ""))
      note(e.srcPath, e.dstPath, "importers");
  // C# `using`s name namespaces, not files: where no file imports another, imports rank nothing
  // and the files are ranked by every use instead.
  // So where no file is imported by more than one other (one entry file requiring all the
  // rest, as Ruby gems do), imports tell nothing.
  if (byImports && [...dependents.values()].every((d) => d.importers.size <= 1)) byImports = false;
  const mentions = byImports ? [] : await typeMentions(f, wiki, inside);
  for (const c of [...calls, ...mentions]) note(c.srcPath, c.dstPath, "callers");
  const counted = [...dependents].map(([name, d]) => ({
    name,
    importers: d.importers.size,
    users: new Set([...d.importers, ...d.callers]).size,
  }));
  if (least) return leastDependedOn(f, { scoped, counted, unit, byImports, lines, kind: folders });
  const ranked = counted
    // Asked what is imported the most, a file nothing imports is no part of the answer.
    .filter((r) => !byImports || r.importers > 0)
    .sort((a, b) =>
      byImports
        ? b.importers - a.importers || b.users - a.users || a.name.localeCompare(b.name)
        : b.users - a.users || b.importers - a.importers || a.name.localeCompare(b.name),
    )
    .slice(0, 8);
  // A folder is cited by its file the others use most (imports and calls from outside it).
  const fileOf = (name: string) => {
    if (!folders) return name;
    const counts = new Map<string, number>();
    for (const e of [...imports, ...calls])
      if (moduleOf(e.dstPath) === name && moduleOf(e.srcPath) !== name)
        counts.set(e.dstPath, (counts.get(e.dstPath) ?? 0) + 1);
    return (
      [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? scoped.find((p) => moduleOf(p) === name) ?? name
    );
  };
  const word = importWord(f.question);
  const kind = folders ? (/\bpackages?\b/i.test(f.question) ? "packages" : "folders") : "files";
  const count = (r: (typeof ranked)[number], first: boolean) =>
    r.users === r.importers || byImports
      ? `${first ? `${word.past} by ` : ""}${r.importers}${first ? ` other ${kind}` : ""}`
      : `${first ? "used by " : ""}${r.users}${first ? ` other ${kind}` : ""}${first ? `, ${r.importers} through ${word.verb}s` : ""}`;
  const top = ranked.slice(0, 5);
  const anchor = await fileAnchors(
    f.generationId,
    top.map((r) => fileOf(r.name)),
    lines,
  );
  const answer = top.length
    ? `${byImports ? `The most ${word.past} ${kind} in ${where(f)}` : `The ${kind} in ${where(f)} that the most others depend on`} (${f.leftOut}) are ${joinWords(
        top.map((r, i) => {
          const file = fileOf(r.name);
          return `${code(r.name)} (${count(r, i === 0)}; ${anchor(file)})`;
        }),
      )}.`
    : `No ${kind.replace(/s$/, "")} in ${where(f)} is ${word.past} or called by another (${f.leftOut}).`;
  const files = top.map((r) => fileOf(r.name));
  return {
    answer,
    lines: ranked.map((r) => {
      const file = fileOf(r.name);
      return `- ${r.name}: ${r.users} dependent ${kind} (${r.importers} ${word.verb} it) [${file}:1-${lines.get(file) ?? 1}]`;
    }),
    files,
    symbols: [],
    diagram: importDiagram(`Most depended-on ${kind}`, files, imports, lines, []),
    report: null,
    ranksFiles: true,
  };
}

/**
 * The other end of the ranking: the files (or folders) of the scope that the fewest others
 * depend on. Those nothing uses (entry points, leftovers) come first, counted and named;
 * then the ones used by the fewest others.
 */
async function leastDependedOn(
  f: Focus,
  d: {
    scoped: string[];
    counted: { name: string; importers: number; users: number }[];
    unit: (path: string) => string;
    byImports: boolean;
    lines: Map<string, number>;
    kind: boolean;
  },
): Promise<Analysis> {
  const kind = d.kind ? (/\bpackages?\b/i.test(f.question) ? "packages" : "folders") : "files";
  const word = importWord(f.question);
  const measure = (r: { importers: number; users: number }) => (d.byImports ? r.importers : r.users);
  const units = [...new Set(d.scoped.map(d.unit))];
  const counts = new Map(d.counted.map((r) => [r.name, r]));
  const ranked = units
    .map((name) => counts.get(name) ?? { name, importers: 0, users: 0 })
    .sort((a, b) => measure(a) - measure(b) || a.users - b.users || a.name.localeCompare(b.name));
  // A folder is cited by its first file.
  const fileOf = (name: string) => (d.kind ? (d.scoped.find((p) => d.unit(p) === name) ?? name) : name);
  const unused = ranked.filter((r) => measure(r) === 0);
  const used = ranked.filter((r) => measure(r) > 0).slice(0, 5);
  const top = [...unused.slice(0, 5), ...used].slice(0, 8);
  const anchor = await fileAnchors(
    f.generationId,
    top.map((r) => fileOf(r.name)),
    d.lines,
  );
  const verb = d.byImports ? word.past : "used";
  const none = unused.length
    ? `${unused.length} of the ${ranked.length} ${kind} in ${where(f)} (${f.leftOut}) ${unused.length === 1 ? "is" : "are"} ${verb} by no other: ${joinWords(
        [
          ...unused.slice(0, 5).map((r) => `${code(r.name)} (${anchor(fileOf(r.name))})`),
          ...(unused.length > 5 ? [`${unused.length - 5} more`] : []),
        ],
      )}`
    : "";
  const fewest = used.length
    ? `${none ? "; of the rest, the fewest dependents:" : `The ${kind} in ${where(f)} (${f.leftOut}) with the fewest dependents are`} ${joinWords(
        used
          .slice(0, 4)
          .map(
            (r, i) =>
              `${code(r.name)} (${measure(r)}${i === 0 ? ` other ${measure(r) === 1 ? kind.replace(/s$/, "") : kind}` : ""}; ${anchor(fileOf(r.name))})`,
          ),
      )}`
    : "";
  const answer = ranked.length
    ? `${none}${fewest}.`
    : `No ${kind.replace(/s$/, "")} in ${where(f)} to rank (${f.leftOut}).`;
  const files = top.map((r) => fileOf(r.name));
  return {
    answer,
    lines: top.map((r) => {
      const file = fileOf(r.name);
      return `- ${r.name}: ${r.users} dependent ${kind} (${r.importers} ${word.verb} it) [${file}:1-${d.lines.get(file) ?? 1}]`;
    }),
    files,
    symbols: [],
    diagram: null,
    report: null,
    ranksFiles: true,
  };
}

/** Languages whose imports name a package (a folder), not a file. */
const PACKAGE_IMPORTS = new Set(["go"]);

/** Languages whose files use the types of their package or namespace without importing them (Ruby: once required by the entry file). */
const PACKAGE_LANGUAGES = new Set(["java", "csharp", "go", "php", "ruby"]);

/**
 * Uses of the scope's types by name from other code files of such a language (`JsonParser`
 * in a parser of the same package, or under a wildcard import): a use neither an import
 * edge nor a call records. Types named by one word (`Breaker`) are left out: the word
 * alone is prose as often as code.
 */
async function typeMentions(
  f: Focus,
  wiki: { path: string; kind: string; language: string }[],
  inside: Set<string>,
): Promise<{ srcPath: string; dstPath: string }[]> {
  const language = new Map(wiki.filter((w) => w.kind === "code").map((w) => [w.path, w.language]));
  const types = (await typeSymbols(f.generationId, f.scope ?? undefined)).filter(
    (t) =>
      inside.has(t.path) &&
      !t.parentId &&
      PACKAGE_LANGUAGES.has(language.get(t.path) ?? "") &&
      splitIdentifier(t.name).length >= 2,
  );
  const word = (t: SymbolRecord) => splitIdentifier(t.name).join("");
  const mentioning = await filesMentioning(f.generationId, types.map(word));
  return types.flatMap((t) =>
    (mentioning.get(word(t)) ?? [])
      .filter((p) => p !== t.path && language.get(p) === language.get(t.path))
      .map((p) => ({ srcPath: p, dstPath: t.path })),
  );
}

export async function fanIn(f: Focus, least = false): Promise<Analysis> {
  const top = (
    await topSymbolsBy(f.generationId, "fanIn", {
      prefix: f.scope ?? undefined,
      limit: 60,
      ...(least ? { ascending: true, callable: true } : {}),
    })
  )
    .filter((s) => f.keep(s.path) && s.fanIn > 0)
    .slice(0, 8);
  if (least) return fewestCallers(f, top);
  const answer = top.length
    ? `The functions with the most callers in ${where(f)} (${f.leftOut}) are ${joinWords(top.slice(0, 4).map((s, i) => `${code(s.qualifiedName)} (${s.fanIn}${i === 0 ? " callers" : ""}; ${cite(s)})`))}.`
    : `No function in ${where(f)} is called through a resolved call.`;
  return {
    answer,
    lines: top.map((s) => `- ${named(s)}: fan-in ${s.fanIn}`),
    files: top.map((s) => s.path),
    symbols: top,
    diagram: null,
    report: null,
  };
}

/**
 * The functions of the scope with the fewest callers: those with no resolved caller first
 * (counted, the longest named), then the called ones with the fewest.
 */
async function fewestCallers(f: Focus, called: SymbolRecord[]): Promise<Analysis> {
  const uncalled = await uncalledKept(f, []);
  const parts: string[] = [];
  if (uncalled.length)
    parts.push(
      `${uncalled.length} function${uncalled.length === 1 ? "" : "s"} in ${where(f)} (${f.leftOut}) ${uncalled.length === 1 ? "has" : "have"} no resolved caller, among them ${joinWords(uncalled.slice(0, 3).map(named))}`,
    );
  if (called.length)
    parts.push(
      `${uncalled.length ? "of the called ones, the fewest callers:" : `The functions with the fewest callers in ${where(f)} (${f.leftOut}) are`} ${joinWords(called.slice(0, 4).map((s, i) => `${code(s.qualifiedName)} (${s.fanIn}${i === 0 ? ` caller${s.fanIn === 1 ? "" : "s"}` : ""}; ${cite(s)})`))}`,
    );
  const shown = [...uncalled.slice(0, 3), ...called].slice(0, 8);
  return {
    answer: parts.length
      ? `${parts.join("; ")}.`
      : `No function in ${where(f)} is called through a resolved call.`,
    lines: [...uncalled.slice(0, 5), ...called].map((s) => `- ${named(s)}: fan-in ${s.fanIn}`),
    files: [...new Set(shown.map((s) => s.path))],
    symbols: shown,
    diagram: null,
    report: null,
  };
}

export async function fanOut(f: Focus): Promise<Analysis> {
  const top = (await topSymbolsBy(f.generationId, "fanOut", { prefix: f.scope ?? undefined, limit: 60 }))
    .filter((s) => f.keep(s.path) && s.fanOut > 0)
    .slice(0, 8);
  const answer = top.length
    ? `The highest fan-out in ${where(f)} (${f.leftOut}): ${joinWords(top.slice(0, 4).map((s, i) => `${code(s.qualifiedName)} (${s.fanOut}${i === 0 ? " callees" : ""}; ${cite(s)})`))}.`
    : `No function in ${where(f)} makes a resolved call.`;
  return {
    answer,
    lines: top.map((s) => `- ${named(s)}: fan-out ${s.fanOut}`),
    files: top.map((s) => s.path),
    symbols: top,
    diagram: null,
    report: null,
  };
}

export async function largest(f: Focus): Promise<Analysis> {
  const prefix = f.scope ?? undefined;
  if (/\bclass(?:es)?\b|\bmethods\b/i.test(f.question) && !/\bfunctions?\b/i.test(f.question)) {
    const classes = (await classesByMethods(f.generationId, prefix))
      .filter((c) => f.keep(c.symbol.path))
      .slice(0, 6);
    return {
      answer: classes.length
        ? `The classes with the most methods in ${where(f)} are ${joinWords(classes.slice(0, 4).map((c, i) => `${code(c.symbol.qualifiedName)} (${c.methods}${i === 0 ? " methods" : ""}; ${cite(c.symbol)})`))}.`
        : `No class in ${where(f)} has methods in the index.`,
      lines: classes.map((c) => `- ${named(c.symbol)}: ${c.methods} methods`),
      files: classes.map((c) => c.symbol.path),
      symbols: classes.map((c) => c.symbol),
      diagram: null,
      report: null,
    };
  }
  const top = (await largestFunctions(f.generationId, prefix, 60)).filter((s) => f.keep(s.path)).slice(0, 8);
  const size = (s: SymbolRecord) => s.endLine - s.startLine + 1;
  return {
    answer: top.length
      ? `The largest functions in ${where(f)} (${f.leftOut}) are ${joinWords(top.slice(0, 4).map((s, i) => `${code(s.qualifiedName)} (${size(s)}${i === 0 ? " lines" : ""}; ${cite(s)})`))}.`
      : `No function in ${where(f)} is in the index.`,
    lines: top.map((s) => `- ${named(s)}: ${size(s)} lines, fan-out ${s.fanOut}`),
    files: top.map((s) => s.path),
    symbols: top,
    diagram: null,
    report: null,
  };
}

// Called by the runtime, a framework or a test runner, never by the code itself.
const IMPLICITLY_CALLED =
  /^(?:__\w+__|main|init|setup|teardown|run|handle|test\w*|Test\w*|constructor|initialize|new|default|render|toString|equals|hashCode|Dispose|ToString|Equals|GetHashCode|call|process|execute|invoke|apply)$/;

/**
 * The scope's functions with no resolved caller that something outside the code would not
 * call by convention (a constructor, a test, a decorated route), the longest first.
 */
async function uncalledKept(f: Focus, namedFiles: string[]): Promise<SymbolRecord[]> {
  return (await uncalledFunctions(f.generationId, f.scope ?? undefined))
    .filter(
      (s) =>
        f.keep(s.path) &&
        (namedFiles.length === 0 || namedFiles.includes(s.path)) &&
        !IMPLICITLY_CALLED.test(s.name) &&
        !/^@|route|app\.|register|fixture|override|property/i.test(s.decorators),
    )
    .sort((a, b) => b.endLine - b.startLine - (a.endLine - a.startLine));
}

export async function deadCode(f: Focus): Promise<Analysis> {
  const namedFiles = [...f.files];
  const uncalled = await uncalledKept(f, namedFiles);
  const area = namedFiles.length ? joinWords(namedFiles.map(code)) : where(f);
  const answer = uncalled.length
    ? `${uncalled.length} function${uncalled.length === 1 ? "" : "s"} in ${area} ${uncalled.length === 1 ? "has" : "have"} no resolved caller in the index, among them ${joinWords(uncalled.slice(0, 3).map((s) => `${code(s.qualifiedName)} (${cite(s)})`))}; calls by name from outside (a framework, dynamic dispatch, other packages) are not seen.`
    : `Every function in ${area} has a resolved caller in the index.`;
  return {
    answer,
    lines: uncalled.slice(0, 15).map((s) => `- ${named(s)}`),
    files: [...new Set(uncalled.slice(0, 10).map((s) => s.path))],
    symbols: uncalled.slice(0, 8),
    diagram: null,
    report: null,
  };
}

/**
 * The scope's hub: the file with the most import links to the scope's other files, in and
 * out (what ties a folder together imports most of it; what it rests on is imported).
 */
async function importHub(f: Focus): Promise<{ path: string; imports: number; importers: number } | null> {
  const wiki = await loadWikiFiles(f.generationId);
  const scoped = wiki.filter((w) => w.kind === "code" && f.keep(w.path) && inScope(w.path, f.scope));
  const inside = new Set(scoped.map((w) => w.path));
  const links = new Map<string, { imports: Set<string>; importers: Set<string> }>();
  const entry = (p: string) => {
    const e = links.get(p) ?? { imports: new Set<string>(), importers: new Set<string>() };
    links.set(p, e);
    return e;
  };
  for (const e of await loadImportEdges(f.generationId, { touching: [...inside] })) {
    if (!inside.has(e.srcPath) || !inside.has(e.dstPath) || e.srcPath === e.dstPath) continue;
    entry(e.srcPath).imports.add(e.dstPath);
    entry(e.dstPath).importers.add(e.srcPath);
  }
  const [top] = [...links]
    .map(([path, l]) => ({ path, imports: l.imports.size, importers: l.importers.size }))
    .sort((a, b) => b.imports + b.importers - (a.imports + a.importers) || a.path.localeCompare(b.path));
  return top ?? null;
}

export async function overview(f: Focus): Promise<Analysis> {
  const report = await analyzeStructure(f.generationId, f.scope, f.keep, QUESTION_STRUCTURE_READS);
  const imported = report.topImported.slice(0, 3);
  const anchor = await fileAnchors(
    f.generationId,
    imported.map((t) => t.path),
    new Map(report.topImported.map((t) => [t.path, t.lines])),
  );
  const spanned = report.modules.filter((m) => m.files > 0).length;
  // Asked for its weak points, the functions that carry the most (calling the most others) lead.
  const weak = asksWeakPoints(f.question) ? report.topFanOut.slice(0, 3) : [];
  const sentences = [
    ...(weak.length
      ? [
          `The weak points of ${f.scope ? code(f.scope) : "the repository"} start with the functions that depend on the most others: ${joinWords(weak.map((s) => `${code(s.qualifiedName)} (${s.fanOut} callee${s.fanOut === 1 ? "" : "s"}; ${citeHead(s)})`))}.`,
        ]
      : []),
    `${f.scope ? code(f.scope) : "The repository"} (${f.leftOut}) spans ${spanned} folder${spanned === 1 ? "" : "s"}`,
  ];
  const at = sentences.length - 1;
  if (imported.length)
    sentences[at] +=
      `; the most depended-on files are ${joinWords(imported.map((t, i) => `${code(t.path)} (${t.importers}${i === 0 ? " importers" : ""}; ${anchor(t.path)})`))}`;
  const hub = report.topFanIn[0];
  if (hub)
    sentences[at] +=
      `; the function with the most callers is ${code(hub.qualifiedName)} (${hub.fanIn}; ${cite(hub)})`;
  sentences[at] += ".";
  sentences.push(
    report.fileCycles.length
      ? `${report.fileCycles.length} import cycle${report.fileCycles.length === 1 ? "" : "s"}, e.g. ${[...(report.fileCycles[0]?.loop ?? []), report.fileCycles[0]?.loop[0] ?? ""].map(code).join(" → ")}.`
      : "No import cycle.",
  );
  const center = /\bhubs?\b/i.test(f.question) ? await importHub(f) : null;
  if (center)
    sentences.push(
      `The hub is ${code(center.path)}: it imports ${center.imports} of these files and ${center.importers} import it.`,
    );
  const worst = report.findings.find((x) => x.severity === "high") ?? report.findings[0];
  if (worst?.path)
    sentences.push(
      `Most pressing finding: ${codeInTitle(worst.title)} (${worst.path}${worst.startLine ? `:${worst.startLine}-${worst.endLine}` : ""}).`,
    );
  return {
    answer: sentences.join(" "),
    lines: [],
    files: [
      ...(center ? [center.path] : []),
      ...weak.map((s) => s.path),
      ...report.topImported.slice(0, 5).map((t) => t.path),
      ...report.topFanIn.slice(0, 3).map((s) => s.path),
    ],
    symbols: [...weak, ...report.topFanIn.slice(0, 3), ...report.topFanOut.slice(0, 2)],
    diagram: report.diagram,
    report,
  };
}

/** "What are its weak points / design weaknesses / problems / smells / tech debt / risks?" */
export function asksWeakPoints(question: string): boolean {
  return /\bweak(?:ness|nesses| points?| spots?)\b|\bproblem(?:s|atic)\b|\bsmells?\b|\btech(?:nical)? debt\b|\bwhat(?:'s| is) wrong\b|\brisks?\b|\bfragile\b|\bpain points?\b/i.test(
    question,
  );
}

/** A symbol's span, or the first lines of one too long to read at once. */
function citeHead(s: SymbolRecord): string {
  return s.endLine - s.startLine < 150 ? cite(s) : `${s.path}:${s.startLine}-${s.startLine + 5}`;
}

/** Code a finding's title quotes (`except Exception: pass`, `_ = err`, a function's qualified name), as code. */
const TITLE_CODE =
  /\bexcept(?: [\w.,() ]+)?: pass\b|\b_ = \w+|\bif \w+ != nil \{\}|\.catch\(\)|(?<![\w/.$])[A-Za-z_$][\w$]*(?:(?:\.|::|#)[\w$]+)+(?:\(\))?(?![\w/])|(?<![\w/.$])\w*_\w*(?![\w/.])/g;

export function codeInTitle(title: string): string {
  return title.replace(TITLE_CODE, (m) => code(m));
}
