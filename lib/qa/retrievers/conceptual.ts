/**
 * Conceptual retrieval: find the code that implements the concept a question asks
 * about, then what is written about it. Definitions weigh more than mentions: a
 * function whose name carries the concept (`resolve_redirects` for "follow a
 * redirect") and the code the question names lead; BM25 and vector search over code,
 * file summaries and the generated wiki pages add evidence per file, and a symbol in
 * the best files ranks above an equal one elsewhere. Tests, docs, examples and
 * vendored code rank below source unless the question is about them. The context is
 * the leading definitions' source, the wiki page of the leading file, and a little of
 * the repository's own documentation.
 */
import "server-only";
import type { ChunkHit, SymbolRecord } from "../../db/code-graph.ts";
import { getWikiPage, pageChunkText } from "../../db/wiki-store.ts";
import { getFile } from "../../db/index-reads.ts";
import { symbolsCallingName } from "../../db/structure-queries.ts";
import { hybridSearch, lexicalSearch } from "../../search/hybrid.ts";
import { chunkPathOf } from "../../db/wiki-shapes.ts";
import { slugForPath } from "../../wiki/slugs.ts";
import { conceptTerms, questionTopics } from "../concepts.ts";
import { textItem } from "../context.ts";
import { idleFunctions, withDelegates, withOptionReaders, type Idleness } from "./option-readers.ts";
import { type ContextItem } from "../../answerers/contract.ts";
import { attachSymbols } from "./diagnostic.ts";
import { answeringCandidates, itemFocus, questionFocus } from "./answering.ts";
import {
  DECIDING_PLACES,
  decidingFirst,
  decidingWeights,
  withDecidingNeighbours,
} from "./deciding-neighbours.ts";
import { withNamedClassMembers } from "./deciding-members.ts";
import { decidingRunnersUp, RUNNERS_UP } from "./deciding-runners-up.ts";
import { baseQualifiedId } from "../../db/symbol-ids.ts";
import { spanStatements } from "../../answerers/body-shape.ts";
import { wordStems } from "../focus.ts";
import { withoutEnvironment } from "../../search/anchors.ts";
import {
  chunkCandidate,
  definitionCandidates,
  demoteAuxiliary,
  demoteTestSymbols,
  docsItems,
  isTestSymbol,
  isFunctionSymbol,
  fuseFiles,
  fuseSignals,
  namedSymbolCandidates,
  packCandidates,
  signalFiles,
  subjectCandidates,
  symbolCandidate,
  wholeFileSignal,
  retrievalTopics,
  TYPE_KINDS,
  withFilePrior,
  type Candidate,
  type Ranked,
  type RetrievalInput,
  type RetrievalOutput,
  type SignalList,
} from "./shared.ts";

export async function retrieveConceptual(input: RetrievalInput): Promise<RetrievalOutput> {
  const { generationId, config, repositoryId, question } = input;
  const topics = await retrievalTopics(input, questionTopics(question));
  // Names are read from the code index; with it switched off only text search remains.
  const useIndex = config.features.useCodeIndex;
  const [definitions, named, subjects, code, files, wiki, semantic, wholeFile, chooser] = await Promise.all([
    useIndex ? definitionCandidates(generationId, conceptTerms(question), 30, topics) : [],
    useIndex ? namedSymbolCandidates(generationId, input.anchors) : [],
    useIndex ? subjectCandidates(generationId, question) : [],
    lexicalSearch(generationId, question, { limit: 40, kinds: ["code"], stems: true }),
    lexicalSearch(generationId, question, { limit: 20, kinds: ["file"], stems: true }),
    hybridSearch(repositoryId, generationId, question, { limit: 10, kinds: ["wiki"], stems: true }),
    hybridSearch(repositoryId, generationId, question, { limit: 10, kinds: ["code"], stems: true }),
    wholeFileSignal(input, 1.5),
    useIndex ? chooserCandidates(generationId, question, input.anchors.identifiers) : [],
  ]);
  const lists: SignalList[] = [
    { name: "named", weight: 4, candidates: named },
    { name: "subjects", weight: 3, candidates: subjects },
    { name: "definitions", weight: 3, candidates: definitions },
    { name: "chooser", weight: 6, candidates: chooser },
    { name: "bm25", weight: 2, candidates: code.map((c) => chunkCandidate(c, "code on the topic")) },
    {
      name: "semantic",
      weight: 0.8,
      candidates: semantic.map((c) => chunkCandidate(c, "similar to the question")),
    },
  ];
  const fileLists: SignalList[] = [
    ...lists,
    {
      name: "wiki",
      weight: 1.5,
      candidates: wiki.filter(isFilePage).map((c) => chunkCandidate(c, "wiki page on the topic")),
    },
    { name: "files", weight: 1.5, candidates: files.map((c) => chunkCandidate(c, "file overview")) },
    wholeFile,
  ];
  const rankedFiles = fuseFiles(fileLists, [], 30, topics);
  // The functions of the leading files whose own lines carry the question (the condition or
  // formula it asks about) answer it, however the lexical index ranked their chunks — unless
  // it asks what a thing is, which the thing's own definition answers.
  const thing = THING_QUESTION.test(question);
  const body = thing
    ? []
    : await answeringCandidates(
        generationId,
        input.reader,
        rankedFiles,
        questionFocus(input.reader, withoutEnvironment(question), input.anchors),
      );
  const ranked = withFilePrior(
    demoteTestSymbols(
      demoteAuxiliary(fuseSignals([...lists, { name: "body", weight: 3, candidates: body }]), [], topics),
      topics,
    ),
    rankedFiles,
  );
  await attachSymbols(
    generationId,
    ranked.map((r) => r.candidate),
  );
  // How something works or is decided is told by functions: types named like it come after.
  // A setter, getter or wrapper decides nothing: the code reading what a setter stores does.
  const process = PROCESS_QUESTION.test(question) && !thing;
  const withSymbols = ranked.filter((r) => r.candidate.symbol);
  const bodies = thing ? null : await idleFunctions(input.reader, withSymbols);
  const demoted = byProcess(withSymbols, process, question, bodies?.idle);
  const readers = await withOptionReaders(
    generationId,
    input.reader,
    demoted,
    withSymbols,
    bodies?.fields ?? new Map(),
    rankedFiles,
  );
  const delegated = await withDelegates(
    generationId,
    readers,
    withSymbols,
    process ? (bodies?.idle ?? new Map()) : new Map(),
  );
  const symbols = await decidingOrder(input, delegated, thing, bodies?.idle ?? new Map());

  const budget = config.modeBudgets.conceptual;
  const room = config.initialRetrievalBudget;
  const items: ContextItem[] = [];
  // The leading definitions: their source when a source budget is set, else signature and docstring.
  const sourceBudget = Math.min(room, budget.source > 0 ? budget.source : Math.floor(budget.docs / 2));
  const sourceInput =
    budget.source > 0
      ? input
      : { ...input, config: { ...config, features: { ...config.features, useSourceFetching: false } } };
  items.push(
    ...(await packCandidates(sourceInput, symbols, sourceBudget, {
      maxItems: 6,
      perItemTokens: Math.max(250, Math.floor(sourceBudget / 3)),
    })),
  );
  const used = () => items.reduce((n, i) => n + i.tokens, 0);
  const page = rankedFiles[0] ? await filePage(input, rankedFiles[0], Math.min(500, room - used())) : null;
  if (page) items.push(page);
  items.push(
    ...(await docsItems(input, question, {
      budget: Math.max(0, budget.docs - (page?.tokens ?? 0)),
      used: used(),
      limit: 2,
      kinds: ["doc"],
    })),
  );
  return {
    items,
    diagram: null,
    rankedFiles,
    rankedSymbols: symbols.map((r) => r.candidate.symbol?.qualifiedId as string).slice(0, 50),
    signals: signalFiles(fileLists),
  };
}

/**
 * The leading symbols with what decides one call below them brought up and what only
 * passes the value along put after what decides (what a thing is is answered by the
 * thing itself), one place per overload family, and a deciding runner-up in the place of
 * a leading symbol that decides nothing asked.
 */
async function decidingOrder(
  input: RetrievalInput,
  ranked: Ranked[],
  thing: boolean,
  idle: Map<string, Idleness>,
): Promise<Ranked[]> {
  const query = questionFocus(input.reader, withoutEnvironment(input.question), input.anchors);
  if (thing) return onePerFamily(ranked, query.names);
  const members = await withNamedClassMembers(input.generationId, input.reader, ranked, query);
  const near = await withDecidingNeighbours(input.generationId, input.reader, members, query);
  const leading = near.slice(0, DECIDING_PLACES).flatMap((r) => r.candidate.symbol ?? []);
  const [weight, single] = await Promise.all([
    decidingWeights(input.reader, leading, query),
    singleStatements(input, leading),
  ]);
  const passesOn = (s: SymbolRecord) =>
    idle.has(s.qualifiedId) ||
    single.has(s.qualifiedId) ||
    isFactory(s) ||
    query.names.has(baseName(s).toLowerCase());
  const ordered = onePerFamily(decidingFirst(near, weight, passesOn), query.names);
  const runners = ordered.slice(0, RUNNERS_UP).flatMap((r) => r.candidate.symbol ?? []);
  return decidingRunnersUp(
    ordered,
    await decidingWeights(input.reader, runners, query),
    query.names,
    new Set(wordStems(input.question)),
  );
}

/** The functions among `symbols` whose body is one statement at most (`oneStatement`). */
async function singleStatements(input: RetrievalInput, symbols: SymbolRecord[]): Promise<Set<string>> {
  const out = new Set<string>();
  await Promise.all(
    symbols.filter(isFunctionSymbol).map(async (s) => {
      const lines = await input.reader.lines(s.path);
      if (lines && oneStatement(lines, s)) out.add(s.qualifiedId);
    }),
  );
  return out;
}

/**
 * Whether a definition's body is one statement at most (a getter, a memo, a call handed
 * on), read from the body: its span also holds the doc comment above it, which counts for
 * nothing.
 */
export function oneStatement(
  lines: readonly string[],
  symbol: Pick<SymbolRecord, "startLine" | "endLine">,
): boolean {
  return spanStatements(lines, symbol).length <= 1;
}

/** A symbol's name without its overload number (`f#2` → f). */
function baseName(symbol: Pick<SymbolRecord, "name">): string {
  return symbol.name.replace(/#\d+$/, "");
}

/** A constructor, or a factory named `new` (Ruby's `self.new`): it builds from what it is given. */
function isFactory(symbol: Named): boolean {
  return isConstructor(symbol) || baseName(symbol) === "new";
}

/** How far down a family's later members go: below this many of the other symbols. */
const FAMILY_PLACES = 10;

/**
 * One place per overload family among the leading symbols (`f` and `f#3`; a class and its
 * constructors, `T`, `T.T` and `T.T#2`): the others of a family come after the first ten
 * unless the question names the function (naming a class names none of its constructors).
 */
export function onePerFamily(ranked: Ranked[], named: Set<string>): Ranked[] {
  const seen = new Set<string>();
  const firsts: Ranked[] = [];
  const later: Ranked[] = [];
  for (const r of ranked) {
    const symbol = r.candidate.symbol;
    const family = symbol ? familyOf(symbol) : r.candidate.key;
    // A class named by the question has its one place: it names none of its constructors.
    const asked =
      symbol &&
      !TYPE_KINDS.has(symbol.kind) &&
      !isConstructor(symbol) &&
      named.has(symbol.name.replace(/#\d+$/, "").toLowerCase());
    const again = seen.has(family) && !asked;
    seen.add(family);
    (again ? later : firsts).push(r);
  }
  if (later.length === 0) return ranked;
  return [...firsts.slice(0, FAMILY_PLACES), ...later, ...firsts.slice(FAMILY_PLACES)];
}

/** A symbol's family: its overloads, and for a constructor its class. */
function familyOf(symbol: SymbolRecord): string {
  const id = baseQualifiedId(symbol.qualifiedId);
  if (!isConstructor(symbol)) return id;
  const at = id.indexOf("::") + 2;
  const name = id.slice(at);
  const dot = name.lastIndexOf(".");
  // A Go `NewT` is T's constructor; any other is a member of its class.
  return id.slice(0, at) + (dot > 0 ? name.slice(0, dot) : name.replace(/^New/, ""));
}

/** A question about how something works, is decided or computed (not what a thing is). */
const PROCESS_QUESTION =
  /\bhow (?:does|do|did|is|are|can)\b|\bwhat (?:decides|determines|controls|caps|limits|computes|happens)\b|\bwhen (?:does|do|is|are)\b|\bwhere (?:is|are) .{1,60}\b(?:computed|decided|built|parsed|checked|handled|chosen)\b/i;

/** A question about what a thing is ("what is the order service for") is answered by the thing. */
const THING_QUESTION =
  /\bwhat (?:is|are|does)\b.{0,60}\b(?:for|mean|represent|hold|contain)\b|\bpurpose\b|\bwhat (?:is|are) (?:a|an|the)\b/i;

/**
 * A setter (`idle`, read from the bodies) counts at a third for any question but one
 * asking what a thing is: it is named like the option asked about, but the code reading
 * the option decides. For a process question, a type's score counts half (a method of
 * it or a function decides), and so does a constructor or another body that decides
 * nothing (a getter, a wrapper that hands the work on; else a span of one statement):
 * they are named like the thing but decide nothing. A function whose own name spells out
 * more of the question's words counts more: "how is the order total computed" is
 * computed in `compute_total`, which `place_order` only calls.
 */
export function byProcess(
  ranked: Ranked[],
  process: boolean,
  question: string,
  idle?: Map<string, Idleness>,
): Ranked[] {
  const setter = (r: Ranked) => idle?.get(r.candidate.symbol?.qualifiedId ?? "") === "setter";
  if (!process)
    return idle?.size
      ? ranked
          .map((r) => (setter(r) ? { ...r, score: r.score * SETTER_FACTOR } : r))
          .sort((a, b) => b.score - a.score)
      : ranked;
  const asked = new Set(wordStems(question));
  const whether = WHETHER.test(question);
  return ranked
    .map((r) => {
      const symbol = r.candidate.symbol;
      if (!symbol) return r;
      if (setter(r)) return { ...r, score: r.score * SETTER_FACTOR };
      if (
        TYPE_KINDS.has(symbol.kind) ||
        isConstructor(symbol) ||
        isTiny(symbol) ||
        idle?.has(symbol.qualifiedId)
      )
        return { ...r, score: r.score * 0.5 };
      const own = wordStems(symbol.name).filter((t) => asked.has(t));
      const spelled = new Set(own).size;
      // "How does it decide whether to print colors": the predicate about it (`isColored`) decides.
      if (whether && own.length > 0 && PREDICATE.test(symbol.name)) return { ...r, score: r.score * 2 };
      return spelled > 1 ? { ...r, score: r.score * (1 + 0.25 * (spelled - 1)) } : r;
    })
    .sort((a, b) => b.score - a.score);
}

const SETTER_FACTOR = 0.3;

/** A question about a yes-or-no decision: "decide whether …", "check if …". */
const WHETHER = /\b(?:decides?|determines?|checks?|knows?|tells?|chooses?)\b[^?.]{0,25}\b(?:whether|if)\b/i;

/** A predicate's name: `isColored`, `should_retry`, `canRead`, `HasPrefix`, `needsQuoting`. */
const PREDICATE = /^(?:is|should|can|has|needs?|must|allows?|may)(?:[A-Z_]|$)/i;

type Named = Pick<SymbolRecord, "name" | "qualifiedName" | "kind"> & { language?: string };

/**
 * A constructor or destructor, however its language writes it: named after its class
 * (Java, C#, C++ `T::T`, `~T`), `constructor` (JavaScript, TypeScript), `__construct` (PHP),
 * `initialize` (Ruby), `new` in a Rust impl, a Go `NewT` function.
 */
export function isConstructor(symbol: Named): boolean {
  const parts = symbol.qualifiedName.split(".");
  const owner = parts[parts.length - 2];
  const name = symbol.name.replace(/#\d+$/, "");
  if (symbol.kind === "constructor" || /^(?:constructor|__construct|initialize)$/.test(name)) return true;
  if (symbol.language === "rust" && name === "new" && owner !== undefined) return true;
  if (symbol.language === "go" && owner === undefined && /^New(?:[A-Z_]|$)/.test(name)) return true;
  return owner !== undefined && (name === owner || name === `~${owner}`);
}

/** A function of at most three lines: its signature, one statement and its end. */
function isTiny(symbol: Pick<SymbolRecord, "kind" | "startLine" | "endLine">): boolean {
  return (symbol.kind === "function" || symbol.kind === "method") && symbol.endLine - symbol.startLine <= 2;
}

/** A question asking which of named alternatives is taken ("whether to create A or B"). */
const ALTERNATIVES = /\bor\b/i;

/** The names a question writes as code, last part only (`JsonFactory.createParser` → createParser). */
function codeNames(identifiers: string[]): string[] {
  const names = identifiers.map(
    (id) =>
      id
        .replace(/\(\)$/, "")
        .split(/[.:#]+/)
        .pop() ?? "",
  );
  return [...new Set(names.filter((n) => n.length >= 3))].slice(0, 6);
}

/**
 * What chooses between alternatives the question names: the functions that call (or
 * construct) two or more of them, most first. "How does JsonFactory decide whether to
 * create a UTF8StreamJsonParser or a ReaderBasedJsonParser" is decided where both are
 * constructed, not in either's constructor.
 */
export async function chooserCandidates(
  generationId: string,
  question: string,
  identifiers: string[],
): Promise<Candidate[]> {
  const names = codeNames(identifiers);
  if (names.length < 2 || !ALTERNATIVES.test(question)) return [];
  const callers = await Promise.all(names.map((n) => symbolsCallingName(generationId, n, 200)));
  return choosers(callers).map((s) =>
    symbolCandidate(s, `calls ${names.length > 2 ? "several" : "both"} of the named alternatives`),
  );
}

/** Symbols found among the callers of two names or more, by how many they call (then shortest first). */
export function choosers(callersPerName: SymbolRecord[][]): SymbolRecord[] {
  const count = new Map<string, { symbol: SymbolRecord; names: number }>();
  for (const callers of callersPerName)
    for (const symbol of new Map(callers.map((c) => [c.qualifiedId, c])).values()) {
      const entry = count.get(symbol.qualifiedId);
      if (entry) entry.names++;
      else count.set(symbol.qualifiedId, { symbol, names: 1 });
    }
  return [...count.values()]
    .filter((e) => e.names >= 2 && !isTestSymbol(e.symbol))
    .sort(
      (a, b) =>
        b.names - a.names || a.symbol.endLine - a.symbol.startLine - (b.symbol.endLine - b.symbol.startLine),
    )
    .slice(0, 10)
    .map((e) => e.symbol);
}

/** Wiki pages of files (folder pages and the overview describe no single file). */
function isFilePage(hit: ChunkHit): boolean {
  return /\.[A-Za-z0-9]+$/.test(hit.path);
}

/** The wiki page of a file, cut to fit: what the file is for and what it defines. */
async function filePage(input: RetrievalInput, path: string, maxTokens: number): Promise<ContextItem | null> {
  if (maxTokens < 120) return null;
  const [file, page] = await Promise.all([
    getFile(input.generationId, path),
    getWikiPage(input.generationId, slugForPath(path, true)),
  ]);
  if (!file || !page) return null;
  const item = textItem(
    {
      path: chunkPathOf(page),
      startLine: 1,
      endLine: Math.max(1, file.lines),
      title: `Wiki: ${page.title}`,
      text: pageChunkText(page),
      kind: "wiki",
    },
    {
      reason: "wiki page of the file that defines it",
      score: 0.9,
      origin: "initial",
      pass: input.pass,
      maxTokens,
    },
  );
  // Cited at the function of the file that answers, not as the whole file.
  const query = questionFocus(input.reader, withoutEnvironment(input.question), input.anchors);
  const focus = await itemFocus(input.generationId, input.reader, item, query);
  return focus ? { ...item, focus } : item;
}
