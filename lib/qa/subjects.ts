/**
 * The subjects of a question — the code, files and folders it is about — found in its
 * text and resolved against the index, so every mode's retrieval starts from them.
 * Symbols are read however a language writes them (`Foo::Bar#baz`, `Foo.bar`, `(*T).M`,
 * `T::m`, `ns::Class::method`, `Foo\Bar::baz`, `$obj->run()`, `module.func`, `parse()`,
 * snake_case and CamelCase names, "the Router class"); the index stores every qualified
 * name dotted (`Foo.Bar.baz`), so they are matched part by part from the end, a part
 * before the symbol's own chain may be its module (a file or folder name). Names are
 * compared ignoring case and underscores (`get_user` ~ `getUser`), and a word named as
 * a type ("the schedulers") by stem. Paths resolve to a file, a folder, a file named
 * without its extension or a dotted module.
 */
import "server-only";
import {
  countFilesUnder,
  filesBySuffix,
  filesStartingWith,
  symbolsByQualifiedIds,
  type SymbolNameRow,
} from "../db/code-graph.ts";
import { getFile } from "../db/index-reads.ts";
import { stem } from "../db/tokenize.ts";
import { splitFences } from "../search/anchors.ts";
import { isPathLike, normalizePath } from "../search/written-paths.ts";
import { nameIndex } from "./concepts.ts";
import { generationCache } from "./generation-cache.ts";

export type MentionKind = "symbol" | "path" | "term";

export interface SubjectMention {
  /** as written in the question */
  text: string;
  kind: MentionKind;
  /** the name chain, outermost first (`Foo::Bar#baz` → Foo, Bar, baz) */
  parts: string[];
  /** what the question calls it ("class", "function", "module" …), if it says */
  noun: string | null;
  /** read from prose ("the log cleaner's run method"): kept only when the index has it */
  prose?: boolean;
}

export interface Subject {
  mention: SubjectMention;
  /** matching symbols, best first (at most a few) */
  symbols: SymbolNameRow[];
  /** for a path mention: the file or folder it names */
  path: string | null;
  /** whether `path` is a folder */
  folder: boolean;
}

const TYPE_NOUNS =
  "class|classes|function|functions|method|methods|struct|structs|trait|traits|interface|interfaces|module|modules|type|types|enum|macro|constructor|object|component|hook|decorator|handler|middleware|service|helper";
const TYPE_NOUN = new RegExp(`^(?:${TYPE_NOUNS})$`, "i");

// Written like code: a qualified chain, a Go method expression, a call, a sigil.
const QUALIFIED =
  /\(\*?[A-Za-z_]\w*\)\.[A-Za-z_]\w*|[@$]?[A-Za-z_][\w$]*(?:(?:::|#|->|\\|\.)[A-Za-z_$][\w$]*[!?]?)+(?:\(\))?|[A-Za-z_$][\w$]*[!?]?\(\)/g;
const WORD = /[A-Za-z_$][\w$]*/g;
// A call written with its arguments: `dayjs('2020-01-31')`, `.add(1, 'month')`, `send(req)`.
const CALL_WITH_ARGS = /(?:^|[\s.(`])([A-Za-z_$][\w$]*)\((?!\))/g;
// A method named without its receiver's type is kept only when few symbols share its name.
const MAX_RECEIVERLESS = 8;

// prettier-ignore
const NOT_SUBJECTS = new Set([
  "e.g", "i.e", "etc", "vs", "self", "this", "cls", "super", "none", "null", "nil", "true", "false", "std",
  "os", "sys", "re", "np", "pd", "console.log", "node.js", "next.js", "vue.js",
]);

/** The subjects a question writes: code-shaped names, paths, and words it names as a type. */
export function subjectMentions(question: string): SubjectMention[] {
  const { prose } = splitFences(question.replace(/\r\n?/g, "\n"));
  const out: SubjectMention[] = [];
  const seen = new Set<string>();
  const add = (text: string, kind: MentionKind, noun: string | null = null) => {
    const parts = partsOf(text);
    const key = `${kind}:${parts.join(".").toLowerCase()}`;
    if (parts.length === 0 || seen.has(key) || NOT_SUBJECTS.has(text.toLowerCase())) return;
    if (parts.every((p) => NOT_SUBJECTS.has(p.toLowerCase()))) return;
    seen.add(key);
    out.push({ text, kind, parts, noun });
  };
  const spans = [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? "");
  const text = ownedNames(prose.replace(/`[^`\n]+`/g, " ").replace(/\b[a-z][\w+.-]*:\/\/\S+/gi, " "));
  for (const span of spans) {
    const trimmed = span.trim().replace(/\(.*\)$/, "()");
    if (pathMention(trimmed)) add(normalizePath(trimmed), "path");
    else if (/^[@$]?[\w$:#\\.>*()-]+[!?]?$/.test(trimmed)) add(trimmed, "symbol", nounAfter(prose, span));
  }
  for (const token of text.split(/[\s"'(),;[\]{}<>]+/)) {
    const t = token.replace(/[.:!?]+$/, "");
    if (t && pathMention(t)) add(normalizePath(t), "path");
  }
  for (const { written, chain } of methodsOfOwners(text)) {
    const parts = partsOf(chain);
    const key = `symbol:${parts.join(".").toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ text: written, kind: "symbol", parts, noun: "method", prose: true });
  }
  const covered: [number, number][] = [];
  for (const m of text.matchAll(QUALIFIED)) {
    const t = m[0];
    covered.push([m.index ?? 0, (m.index ?? 0) + t.length]);
    if (pathMention(t) || /^\d|^v?\d+\.\d/.test(t)) continue;
    add(t, "symbol", nounAfter(text.slice(m.index ?? 0), t));
  }
  // A decorator or annotation written with its sigil (`@retry`, `@Transactional`) names code.
  for (const m of text.matchAll(DECORATOR)) {
    const name = m[1] ?? "";
    const at = (m.index ?? 0) + m[0].indexOf("@");
    if (covered.some(([from, to]) => at >= from && at < to)) continue;
    covered.push([at, at + name.length + 1]);
    add(name, "symbol", "decorator");
  }
  for (const m of text.matchAll(CALL_WITH_ARGS)) {
    const name = m[1] ?? "";
    const at = (m.index ?? 0) + m[0].indexOf(name);
    if (covered.some(([from, to]) => at >= from && at < to)) continue;
    if (name.length >= 3 && !STOP_TERMS.has(name.toLowerCase()) && !COMMON_OBJECTS.has(name.toLowerCase()))
      add(name, "symbol");
  }
  // The object of "call", "use", "invoke": `which parts call isinstance` names a function.
  for (const m of text.matchAll(CALLED_WORD)) {
    const word = m[1] ?? "";
    // "when I call log.WithField(…)": `log` is the qualified name's receiver, no subject of its own.
    const at = (m.index ?? 0) + m[0].length - word.length;
    if (covered.some(([from, to]) => at >= from && at < to)) continue;
    if (!STOP_TERMS.has(word.toLowerCase()) && !COMMON_OBJECTS.has(word.toLowerCase()))
      add(word, "symbol", nounAfter(text.slice(m.index ?? 0), word));
  }
  // The subject of "call", "use": `which functions does urlopen call` names a function.
  for (const m of text.matchAll(CALLING_WORD)) {
    const word = m[1] ?? "";
    const at = (m.index ?? 0) + m[0].indexOf(word, m[0].indexOf(" "));
    if (covered.some(([from, to]) => at >= from && at < to)) continue;
    const lower = word.toLowerCase();
    if (!STOP_TERMS.has(lower) && !COMMON_OBJECTS.has(lower) && !PRONOUNS.has(lower)) add(word, "symbol");
  }
  const sentenceStarts = new Set<number>();
  for (const m of text.matchAll(/(?:^|[.?!]\s+|\n)\s*([A-Za-z_$])/g))
    sentenceStarts.add((m.index ?? 0) + m[0].length - 1);
  for (const m of text.matchAll(WORD)) {
    const word = m[0];
    const at = m.index ?? 0;
    if (covered.some(([from, to]) => at >= from && at < to)) continue;
    const noun = nounAfter(text.slice(at), word) ?? nounBefore(text.slice(0, at));
    if (looksLikeCodeName(word)) add(word, "symbol", noun);
    else if (/^[A-Z][a-z0-9]+$/.test(word) && !sentenceStarts.has(at) && word.length >= 4)
      add(word, "term", noun);
    else if (noun && /^[a-z]\w{3,}$/.test(word) && !STOP_TERMS.has(word)) add(word, "term", noun);
  }
  // In the order the question names them: a walk follows the calls in that order.
  const at = (m: SubjectMention) => {
    const i = prose.indexOf(m.text);
    return i < 0 ? prose.length : i;
  };
  return out
    .map((m, i) => ({ m, i }))
    .sort((a, b) => at(a.m) - at(b.m) || a.i - b.i)
    .map(({ m }) => m)
    .slice(0, 12);
}

// `@name` after a space or an opening mark, not inside an e-mail address or a scoped package.
const DECORATOR = /(?:^|[\s(“"'])@([A-Za-z_][\w]*)\b(?![./@\w])/g;

const CALLED_WORD =
  /\b(?:calls?|calling|call into|invokes?|invoking|uses?|using)\s+([A-Za-z_$][\w$]{2,})\b(?!\s*\()/gi;

const PRONOUNS = new Set(["they", "you", "we", "she", "he", "others", "things", "people", "users", "not"]);
const CALLING_WORD = /\b(?:does|do|did)\s+([A-Za-z_$][\w$]{2,})\s+(?:call|invoke|depend on)\b/gi;

// Words that follow "call"/"use" without naming code ("use the cache", "calls into it").
// prettier-ignore
const COMMON_OBJECTS = new Set([
  "the", "a", "an", "it", "them", "this", "that", "these", "those", "into", "its", "their", "our", "my", "your",
  "any", "all", "each", "every", "one", "some", "other", "another", "same", "both", "more", "most", "less", "many",
  "only", "directly", "instead", "case", "cases", "when", "where", "which", "what", "how", "for", "from", "with",
  "out", "back", "through", "and", "not", "site", "sites", "chain", "graph", "stack", "order", "count", "such",
]);

// prettier-ignore
const STOP_TERMS = new Set([
  "which", "what", "that", "this", "each", "every", "other", "some", "many", "most", "main", "same", "their",
  "these", "those", "whole", "entire", "first", "last", "base", "helper", "public", "private", "given",
]);

/** `Foo::Bar#baz` → Foo, Bar, baz; `(*Server).Start` → Server, Start; `$this->run()` → run. */
export function partsOf(text: string): string[] {
  const cleaned = text
    .trim()
    .replace(/^\(\*?(\w+)\)\./, "$1.")
    .replace(/\(\)$/, "")
    .replace(/^[@$]+/, "")
    .replace(/^(?:self|this|cls)(?:\.|->|::)/, "");
  return cleaned
    .split(/::|#|->|\\|\.|\//)
    .map((p) => p.replace(/^[@$]+/, ""))
    .filter((p) => /^[A-Za-z_]\w*[!?]?$/.test(p));
}

/**
 * A name owned by a module or crate written in prose, "tracing_core's set_global_default",
 * as the chain it means (`tracing_core::set_global_default`), when both read as code.
 */
function ownedNames(text: string): string {
  return text.replace(/\b([A-Za-z_][\w-]*)['’]s\s+([A-Za-z_]\w*)\b/g, (whole, owner: string, name: string) =>
    looksLikeCodeName(owner.replace(/-/g, "_")) && looksLikeCodeName(name) ? `${owner}::${name}` : whole,
  );
}

/**
 * A method named through its owner's words, "the log cleaner's run method", "a route's
 * Match method": the chains it may mean (`log_cleaner.run`, then without the owner's
 * first words, `cleaner.run`), which the index's names match without case or separators.
 */
function methodsOfOwners(text: string): { written: string; chain: string }[] {
  const out: { written: string; chain: string }[] = [];
  for (const m of text.matchAll(
    /\b(?:the|a|an|its|their|each|every)\s+((?:[A-Za-z]\w*\s+){0,2}[A-Za-z]\w*)['’]s\s+([A-Za-z_]\w*)\s+(?:method|function)\b/gi,
  )) {
    const owner = (m[1] ?? "").split(/\s+/);
    const written = m[0].replace(/^\w+\s+/, "");
    for (let i = 0; i < owner.length; i++)
      out.push({ written, chain: `${owner.slice(i).join("_")}.${m[2]}` });
  }
  return out;
}

function looksLikeCodeName(word: string): boolean {
  return (
    /[a-z0-9]_[a-z0-9]/i.test(word) ||
    /^_+[a-z]/.test(word) ||
    /[a-z][A-Z]/.test(word) ||
    /^[A-Z][a-z0-9]+[A-Z]/.test(word) ||
    /^[A-Z]{2,}[a-z]/.test(word)
  );
}

function pathMention(token: string): boolean {
  return !token.includes("://") && !/^(?:\/|~|[A-Za-z]:[\\/])/.test(token) && isPathLike(token);
}

function nounAfter(text: string, word: string): string | null {
  const at = text.indexOf(word);
  if (at < 0) return null;
  const next = /^[`'"]?\s+(\w+)/.exec(text.slice(at + word.length))?.[1] ?? "";
  return TYPE_NOUN.test(next) ? singular(next.toLowerCase()) : null;
}

function singular(noun: string): string {
  if (noun.endsWith("sses")) return noun.slice(0, -2);
  return noun.endsWith("s") && !noun.endsWith("ss") ? noun.slice(0, -1) : noun;
}

function nounBefore(before: string): string | null {
  const prev = /\b(\w+)\s+[`'"]?$/.exec(before)?.[1] ?? "";
  return /^(?:class|struct|trait|interface|module|function|method|type|enum|macro)$/i.test(prev)
    ? prev.toLowerCase()
    : null;
}

// ------------------------------------------------------------------ resolution

export interface SubjectIndex {
  /** normalised name → symbols of that name */
  byName: Map<string, SymbolNameRow[]>;
  /** stem of a one-word name → symbols (types and modules first) */
  byStem: Map<string, SymbolNameRow[]>;
}

/** Case and underscores do not tell names apart: `get_user`, `getUser`, `GetUser`. */
export function normalizeName(name: string): string {
  // A crate is written `tracing_core` in code and `tracing-core` as a folder.
  return name.toLowerCase().replace(/[_-]/g, "");
}

const subjectIndex = generationCache(async (generationId) =>
  buildSubjectIndex((await nameIndex(generationId)).names.map((n) => n.row)),
);

export function buildSubjectIndex(rows: SymbolNameRow[]): SubjectIndex {
  const byName = new Map<string, SymbolNameRow[]>();
  const byStem = new Map<string, SymbolNameRow[]>();
  for (const row of rows) {
    const key = normalizeName(row.name);
    byName.set(key, [...(byName.get(key) ?? []), row]);
    if (/^[A-Za-z][a-z0-9]*$/.test(row.name)) {
      const s = stem(row.name.toLowerCase());
      byStem.set(s, [...(byStem.get(s) ?? []), row]);
    }
  }
  return { byName, byStem };
}

const KIND_OF_NOUN: Record<string, string[]> = {
  class: ["class", "struct", "interface", "trait", "type", "enum", "module"],
  struct: ["struct", "class", "type"],
  trait: ["trait", "interface"],
  interface: ["interface", "trait", "class"],
  module: ["module", "class", "namespace"],
  type: ["type", "class", "struct", "interface", "enum"],
  enum: ["enum", "type"],
  function: ["function", "method"],
  method: ["method", "function"],
  macro: ["macro", "function"],
  constructor: ["method", "function", "class"],
};

const AUXILIARY =
  /(^|\/)(tests?|testing|__tests__|spec|specs|docs?|examples?|benchmarks?|vendor|third_party)\/|(^|\/)test_[^/]*$|_test\.\w+$|\.(test|spec)\.[cm]?[jt]sx?$|Tests?\.\w+$/;

/**
 * Symbols a name chain may mean, best first: every part before the last must be one of
 * the symbol's enclosing names, in order, or a folder or file stem of its path
 * (`requests.get` is `get` in requests/api.py; `Session.send` is the method `send` of
 * `Session`). Code beats tests; what the question calls it ("class") beats the rest;
 * the more parts matched in the chain, the better; then the most called.
 */
export function matchChain(index: SubjectIndex, parts: string[], noun: string | null): SymbolNameRow[] {
  const last = parts[parts.length - 1];
  if (!last) return [];
  const candidates = index.byName.get(normalizeName(last)) ?? [];
  const kinds = noun ? KIND_OF_NOUN[noun] : undefined;
  const scored: { row: SymbolNameRow; score: number }[] = [];
  for (const row of candidates) {
    const chain = row.qualifiedName.split(".").slice(0, -1).map(normalizeName);
    const pathParts = row.path.split("/").map((p) => normalizeName(p.replace(/\.\w+$/, "")));
    let inChain = 0;
    let ok = true;
    let at = chain.length;
    for (let i = parts.length - 2; i >= 0; i--) {
      const want = normalizeName(parts[i] as string);
      const found = chain.lastIndexOf(want, at - 1);
      if (found >= 0) {
        inChain++;
        at = found;
      } else if (!pathParts.includes(want)) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    const exactCase = row.name === last ? 1 : 0;
    const kindFit = kinds ? (kinds.includes(row.kind) ? 2 : -1) : 0;
    const aux = AUXILIARY.test(row.path) ? -3 : 0;
    // `requests.get` names a function of the module, not a method of a class it does not name.
    const unnamedOwner = parts.length > 1 && inChain === 0 && chain.length > 0 ? -2 : 0;
    scored.push({
      row,
      score: inChain * 2 + exactCase + kindFit + aux + unnamedOwner + Math.min(1, row.fanIn / 50),
    });
  }
  return scored
    .sort((a, b) => b.score - a.score || a.row.qualifiedName.length - b.row.qualifiedName.length)
    .map((s) => s.row);
}

/** A word named as a type ("the schedulers", "the Session class"): a one-word name of that stem. */
export function matchTerm(index: SubjectIndex, word: string, noun: string | null): SymbolNameRow[] {
  const exact = matchChain(index, [word], noun);
  const typed = exact.filter((r) => TYPE_KINDS.has(r.kind));
  if (typed.length) return typed;
  const byStem = (index.byStem.get(stem(word.toLowerCase())) ?? []).filter(
    (r) => TYPE_KINDS.has(r.kind) && !AUXILIARY.test(r.path),
  );
  if (byStem.length) return byStem.sort((a, b) => b.fanIn - a.fanIn);
  return noun && noun !== "class" ? exact : [];
}

const TYPE_KINDS = new Set(["class", "struct", "interface", "trait", "module", "type", "enum", "namespace"]);

/** What a path mention names in the index: a file, a folder, a file without its extension, a module. */
async function resolvePath(
  generationId: string,
  written: string,
): Promise<{ path: string; folder: boolean } | null> {
  const cleaned = written.replace(/^\.?\//, "").replace(/\/+$/, "");
  if (!cleaned) return null;
  if (await getFile(generationId, cleaned)) return { path: cleaned, folder: false };
  if ((await countFilesUnder(generationId, `${cleaned}/`)) > 0) return { path: cleaned, folder: true };
  const named = (await filesStartingWith(generationId, `${cleaned}.`, 5)).find(
    (f) => f.replace(/\.\w+$/, "") === cleaned,
  );
  if (named) return { path: named, folder: false };
  const suffix = (await filesBySuffix(generationId, cleaned, 3))[0];
  return suffix ? { path: suffix, folder: false } : null;
}

/** A method a class inherits: `Owner.method` where `method` is defined on a base of `Owner`, up to two levels. */
async function inheritedMethod(
  generationId: string,
  index: SubjectIndex,
  parts: string[],
  noun: string | null,
): Promise<SymbolNameRow[]> {
  const method = parts[parts.length - 1] as string;
  let owners = matchChain(index, parts.slice(0, -1), "class")
    .filter((r) => TYPE_KINDS.has(r.kind))
    .slice(0, 3);
  for (let level = 0; level < 2 && owners.length; level++) {
    const records = await symbolsByQualifiedIds(
      generationId,
      owners.map((o) => o.qualifiedId),
    );
    const bases = [...new Set(records.flatMap((r) => parseBases(r.bases)))];
    const found = bases.flatMap((b) => matchChain(index, [b, method], noun));
    if (found.length) return found;
    owners = bases
      .flatMap((b) => matchChain(index, [b], "class").filter((r) => TYPE_KINDS.has(r.kind)))
      .slice(0, 3);
  }
  return [];
}

function parseBases(json: string): string[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value)
      ? value.flatMap((b) =>
          typeof b === "string"
            ? [
                b
                  .split(/[.:<(]/)
                  .filter(Boolean)
                  .pop() ?? b,
              ]
            : [],
        )
      : [];
  } catch {
    return [];
  }
}

/**
 * Among a mention's equally good matches, those near the question's other subjects first:
 * `rest.MustNewServer(c)` and `server.Start()` name the `Start` of rest/server.go, not of
 * gateway/server.go.
 */
export function nearOthers(subjects: Subject[]): Subject[] {
  const anchors = subjects.flatMap((s) => (s.symbols.length === 1 ? [s.symbols[0] as SymbolNameRow] : []));
  if (anchors.length === 0) return subjects;
  const folders = new Set(anchors.map((a) => a.path.slice(0, a.path.lastIndexOf("/") + 1)));
  const files = new Set(anchors.map((a) => a.path));
  const closeness = (r: SymbolNameRow) =>
    files.has(r.path) ? 2 : folders.has(r.path.slice(0, r.path.lastIndexOf("/") + 1)) ? 1 : 0;
  return subjects.map((s) => {
    if (s.symbols.length < 2) return s;
    const [first] = s.symbols;
    // Only a tie in name is broken: a better-matching chain keeps its place.
    const tied = s.symbols.filter((r) => r.qualifiedName === first?.qualifiedName);
    const rest = s.symbols.filter((r) => r.qualifiedName !== first?.qualifiedName);
    return { ...s, symbols: [...tied.sort((a, b) => closeness(b) - closeness(a)), ...rest] };
  });
}

/**
 * The symbols a code or term mention names. A mark that ends the question is not part of the
 * name ("What calls Session.merge_environment_settings?"), unless the name has it (Ruby's `valid?`).
 */
export function matchMention(index: SubjectIndex, mention: SubjectMention): SymbolNameRow[] {
  if (mention.kind === "term") return matchTerm(index, mention.parts[0] ?? "", mention.noun);
  const found = matchChain(index, mention.parts, mention.noun);
  const last = mention.parts.at(-1) ?? "";
  if (found.length > 0 || !/[!?]$/.test(last)) return found;
  return matchChain(index, [...mention.parts.slice(0, -1), last.slice(0, -1)], mention.noun);
}

/**
 * A method shared by too many classes to take by its name alone, narrowed by what its variable
 * is called: `validator.Validate(x)` is a `Validate` of a class whose name ends in `Validator`
 * (`AbstractValidator`, not every rule's), as a variable is usually named after its type.
 */
export function receiverTyped(methods: SymbolNameRow[], receiver: string): SymbolNameRow[] {
  const word = normalizeName(receiver);
  if (word.length < MIN_RECEIVER_WORD) return [];
  const typed = methods.filter((m) => {
    const owner = normalizeName(m.parentId?.split(/[.:\\]/).pop() ?? "");
    return owner.endsWith(word) && !AUXILIARY.test(m.path);
  });
  return typed.length <= MAX_RECEIVERLESS ? typed : [];
}

/** Shorter variable names (`v`, `cfg`, `ctx`) say too little about their type. */
const MIN_RECEIVER_WORD = 4;

/** The question's subjects resolved against a generation (unresolved mentions are kept, empty). */
export async function resolveSubjects(generationId: string, question: string): Promise<Subject[]> {
  const mentions = subjectMentions(question);
  if (mentions.length === 0) return [];
  const index = await subjectIndex(generationId);
  const out: Subject[] = [];
  for (const mention of mentions) {
    if (mention.kind === "path") {
      const found = await resolvePath(generationId, mention.text);
      out.push({ mention, symbols: [], path: found?.path ?? null, folder: found?.folder ?? false });
      continue;
    }
    let symbols = matchMention(index, mention);
    // Owner words that name no class of the method: no guess by the method's name alone.
    if (mention.prose) {
      if (symbols.length) out.push({ mention, symbols: symbols.slice(0, 5), path: null, folder: false });
      continue;
    }
    // A dotted name may be a module (`xarray.core.merge` → xarray/core/merge.py).
    let path: { path: string; folder: boolean } | null = null;
    if (symbols.length === 0 && mention.parts.length > 1 && /^[\w.]+$/.test(mention.text))
      path = await resolvePath(generationId, mention.parts.join("/"));
    // `PoolManager.request`, where `request` is inherited: the method of a base class.
    if (symbols.length === 0 && !path && mention.parts.length > 1)
      symbols = await inheritedMethod(generationId, index, mention.parts, mention.noun);
    // `client.send(req)`: the receiver is a variable; the method alone, when few symbols share its name.
    if (symbols.length === 0 && !path && mention.parts.length > 1) {
      const method = matchChain(index, mention.parts.slice(-1), mention.noun);
      symbols =
        method.length <= MAX_RECEIVERLESS ? method : receiverTyped(method, mention.parts.at(-2) ?? "");
    }
    out.push({
      mention,
      symbols: symbols.slice(0, 5),
      path: path?.path ?? null,
      folder: path?.folder ?? false,
    });
  }
  return nearOthers(out);
}
