/**
 * The subject of a callers or dependencies question written in prose instead of by name
 * ("who calls the helper that rewrites the path", "which checks are built on the
 * validator's assertion helpers", "who builds the logger", "where is a code writer
 * created", "which files does the authenticator depend on"). The phrase the
 * verb takes is matched against the index three ways — its words in a symbol's name or its
 * class's name, its words in a symbol's code and comments (BM25 over chunks), and the
 * question's other words in names, weaker — and the best-placed symbol that something calls
 * becomes the subject, so the answer is its callers rather than repository-wide statistics.
 */
import "server-only";
import { symbolsByQualifiedIds, type SymbolRecord } from "../../db/code-graph.ts";
import { splitIdentifier, stem } from "../../db/tokenize.ts";
import { lexicalSearch } from "../../search/hybrid.ts";
import { inScope } from "../../wiki/structure.ts";
import { conceptTerms, matchNames, nameIndex, type ConceptTerm } from "../concepts.ts";
import { type Focus } from "./analytical-focus.ts";

/** Verbs whose object is the code being called, constructed or relied on. */
const OBJECT_OF_CALL =
  /\b(?:call(?:s|ed|ing)?(?: into)?|go(?:es)? through|funnels? into|(?:are |is )?built on|depends? on|rel(?:y|ies) on|invokes?|builds|constructs?|creates|instantiates?)\s+((?:the|a|an)\s+[^?()]+?)(?=\s*(?:\(|\?|;|,\s*(?:and|or|how|which|where|from|in)\b|\s(?:and|from|in) (?:which|where|how|what)\b|$))/i;

/** "Where in the library is a code writer created?" */
const PASSIVE_CREATION =
  /\b(?:is|are)\s+((?:a|an|the)\s+[\w' -]{2,50}?)\s+(?:created|constructed|instantiated|built|allocated)\b/i;

/** "Which files does the authenticator depend on?" */
const DEPENDING = /\b(?:which|what)(?: \w+)? (?:does|do) ((?:the|a|an) [\w' -]{2,50}?) (?:depend|rely) on\b/i;

/** Words of a description that say what kind of code it is, not which. */
const GENERIC = new Set(
  `helper helpers function functions method methods routine routines code single shared generic common
  place places part parts thing things entry`
    .split(/\s+/)
    .filter(Boolean),
);

/** The phrase naming the code a callers or dependencies question is about, as written ("the helper that rewrites the path"). */
export function describedPhrase(question: string): string | null {
  const m = OBJECT_OF_CALL.exec(question) ?? PASSIVE_CREATION.exec(question) ?? DEPENDING.exec(question);
  const phrase = m?.[1]?.trim().replace(/[.,:;]+$/, "");
  if (!phrase || /^(?:the|a|an)\s+(?:most|same|other|one|ones)\b/i.test(phrase)) return null;
  return phrase;
}

/**
 * The phrase's terms that say which code it is: those of its head ("the validator's
 * assertion helpers") name it, those of a clause after it ("… that rewrites the path")
 * say what its code does.
 */
export function describedTerms(phrase: string): { head: ConceptTerm[]; all: ConceptTerm[] } {
  const head = phrase.split(/\s(?:that|which|who|whose|to|for|used)\s/i)[0] ?? phrase;
  const verb = clauseVerb(phrase);
  const significant = (text: string) =>
    conceptTerms(text, 10)
      .filter((t) => !GENERIC.has(t.word))
      .map((t) => (verb !== null && stem(t.word) === verb ? withCodeVerbs(t) : t));
  return { head: significant(head), all: significant(phrase) };
}

/**
 * The stem of the verb a phrase's clause starts with ("the method that persists a record"
 * → persist), or null. Only that word is read as code words: "record" and "store" after it
 * are the things it acts on, however often they are verbs elsewhere.
 */
function clauseVerb(phrase: string): string | null {
  const m = /\s(?:that|which|who)\s+(?:(?:also|only|just|then|first)\s+)?([a-z]+)/i.exec(phrase);
  return m?.[1] ? stem(m[1].toLowerCase()) : null;
}

/**
 * The words code names use for what a description's verb says ("rewrites the path" is a
 * `replacePath` or `setPath`, "allocates an error" a `constructError` or `makeError`), so
 * a clause's verb can meet a name that never repeats it.
 */
const CODE_VERBS: [string[], string[]][] = [
  [
    ["rewrite", "overwrite", "substitute", "swap"],
    ["replace", "set", "update"],
  ],
  [
    ["allocate", "instantiate", "construct", "create"],
    ["construct", "make", "build", "create", "alloc"],
  ],
  [
    ["shorten", "abbreviate", "simplify"],
    ["short", "shortest", "simple"],
  ],
  [
    ["delete", "erase", "drop", "discard"],
    ["remove", "delete", "clear", "drop"],
  ],
  [
    ["verify", "ensure", "validate"],
    ["check", "validate", "verify", "assert"],
  ],
  [
    ["convert", "transform", "translate"],
    ["convert", "transform", "translate"],
  ],
  [
    ["fetch", "retrieve", "obtain", "look"],
    ["get", "find", "lookup", "fetch", "load"],
  ],
  [
    ["store", "save", "persist", "record"],
    ["set", "put", "save", "write"],
  ],
  [
    ["emit", "print", "output", "render"],
    ["write", "emit", "print", "render", "format"],
  ],
  [
    ["copy", "duplicate"],
    ["copy", "clone", "dup"],
  ],
  [
    ["register", "attach"],
    ["register", "add", "attach", "use"],
  ],
  [
    ["escape", "quote", "sanitize"],
    ["escape", "quote", "sanitize", "encode"],
  ],
];
const CODE_VERB_STEMS = new Map<string, string[]>();
for (const [verbs, names] of CODE_VERBS)
  for (const verb of verbs)
    CODE_VERB_STEMS.set(stem(verb), [...(CODE_VERB_STEMS.get(stem(verb)) ?? []), ...names.map(stem)]);

/** The code words of the description's verbs, as searchable text ("rewrites" → replace set update). */
function codeVerbWords(phrase: string): string[] {
  const verb = clauseVerb(phrase);
  const verbs = new Set(verb === null ? [] : [verb]);
  return [
    ...new Set(
      CODE_VERBS.filter(([said]) => said.some((v) => verbs.has(stem(v)))).flatMap(([, names]) => names),
    ),
  ];
}

function withCodeVerbs(term: ConceptTerm): ConceptTerm {
  const extra = term.stems.flatMap((s) => CODE_VERB_STEMS.get(s) ?? []);
  return extra.length ? { ...term, stems: [...new Set([...term.stems, ...extra])] } : term;
}

const RANK_OFFSET = 3;
const CHANNELS = { name: 2, code: 1.5, question: 0.5 };
const FAN_IN_WEIGHT = 0.25;

/**
 * The symbol a callers question describes in prose, or null when it names none clearly:
 * only a symbol something calls (or a type, whose members may be called) can be the
 * subject, and one found only by the question's other words is not enough.
 */
export async function describedSubject(
  generationId: string,
  question: string,
  keep: (path: string) => boolean,
  scope: string | null,
): Promise<SymbolRecord | null> {
  const phrase = describedPhrase(question);
  if (!phrase) return null;
  const { head: written, all: terms } = describedTerms(phrase);
  if (terms.length === 0) return null;
  // "The code writer's method that shortens class names": the owner's words name where the
  // method is, the clause which of its methods; the method is looked for by the clause.
  const owner = ownerWords(phrase);
  const head = owner ? [] : written;
  // A head that says only what kind of code it is ("the helper that …") leaves the clause to the code.
  const nameTerms = head.length ? head : terms;
  // A clause whose verb has words in code ("rewrites" → replace, set) can be met by names.
  const verb = clauseVerb(phrase);
  const verbal = verb !== null && CODE_VERB_STEMS.has(verb);
  const weights =
    head.length || verbal ? CHANNELS : { ...CHANNELS, name: CHANNELS.name / 2, code: CHANNELS.code * 1.5 };
  const words = new Set(terms.map((t) => t.word));
  const others = conceptTerms(question, 16).filter((t) => !GENERIC.has(t.word) && !words.has(t.word));
  const usable = (path: string) => keep(path) && inScope(path, scope);
  const [index, chunks] = await Promise.all([
    nameIndex(generationId),
    lexicalSearch(generationId, [...terms.map((t) => t.word), ...codeVerbWords(phrase)].join(" "), {
      limit: 20,
      kinds: ["code"],
      stems: true,
      pathPrefix: scope ?? undefined,
    }),
  ]);
  const callable = (row: { kind: string; fanIn: number }) => row.fanIn > 0 || TYPE_KINDS.has(row.kind);
  // "The function that allocates an error": its name says what it does (`construct`) more
  // than what it acts on (`error`), so with the head only a kind of code, names carrying
  // the clause's verb come first.
  const verbWord = head.length === 0 && verbal ? terms.find((t) => stem(t.word) === verb)?.word : undefined;
  const byName = verbFirst(
    matchNames(index, nameTerms, 30, (p) => !usable(p)).filter((m) => callable(m.row)),
    verbWord,
  );
  const byQuestion = matchNames(index, others, 30, (p) => !usable(p)).filter((m) => callable(m.row));
  const scores = new Map<string, number>();
  const add = (ids: string[], weight: number) =>
    [...new Set(ids)].forEach((id, rank) =>
      scores.set(id, (scores.get(id) ?? 0) + weight / (RANK_OFFSET + rank)),
    );
  add(
    byName.map((m) => m.row.qualifiedId),
    weights.name,
  );
  add(
    chunks.flatMap((c) => (c.symbolId && usable(c.path) ? [c.symbolId] : [])),
    weights.code,
  );
  const direct = new Set(scores.keys());
  add(
    byQuestion.map((m) => m.row.qualifiedId),
    weights.question,
  );
  // Asked who calls it: of equally described code, the one more code calls (read for the
  // described candidates only, not for every name of the index).
  const records = new Map(
    (await symbolsByQualifiedIds(generationId, [...direct])).map((s) => [s.qualifiedId, s]),
  );
  const called = (s: SymbolRecord) => 1 + FAN_IN_WEIGHT * Math.log2(1 + s.fanIn);
  const best = [...direct]
    .flatMap((id) => {
      const s = records.get(id);
      return s ? [[s, (scores.get(id) ?? 0) * called(s)] as [SymbolRecord, number]] : [];
    })
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8);
  const owned = owner ? best.find(([s]) => s.fanIn > 0 && ownedBy(s, owner)) : undefined;
  if (owned) return owned[0];
  for (const [record] of best) if (callable(record)) return record;
  return null;
}

/** Name matches carrying the verb's word first, each side in its order. */
function verbFirst<T extends { matched: string[] }>(matches: T[], verb: string | undefined): T[] {
  if (!verb) return matches;
  return [
    ...matches.filter((m) => m.matched.includes(verb)),
    ...matches.filter((m) => !m.matched.includes(verb)),
  ];
}

/** The owner a phrase names a method of ("the code writer's method that …": code, writer), or null. */
function ownerWords(phrase: string): string[] | null {
  const m =
    /^(?:the|a|an)\s+([\w -]+?)['’]s?\s+(?:method|function|helper|member|routine)s?\s+(?:that|which|who)\s/i.exec(
      phrase,
    );
  return m?.[1] ? m[1].toLowerCase().split(/[\s-]+/) : null;
}

/** Whether a method belongs to a class whose name is the owner's words (`CodeWriter.lookupName`). */
function ownedBy(s: SymbolRecord, owner: string[]): boolean {
  const parts = s.qualifiedName.split(".");
  if (parts.length < 2 || TYPE_KINDS.has(s.kind)) return false;
  const words = new Set(splitIdentifier(parts.at(-2) ?? ""));
  return owner.every((w) => words.has(w));
}

const TYPE_KINDS = new Set(["class", "struct", "interface", "trait", "type", "enum"]);

/**
 * A callers or dependencies question whose subject is written in prose ("who calls the
 * helper that rewrites the path", "what does the authenticator depend on") is about the
 * code those words describe: that symbol becomes the subject. A symbol the question names
 * outside that phrase ("which route methods go through …") is on the callers' side.
 */
export async function withDescribedSubject(f: Focus): Promise<Focus> {
  const phrase = describedPhrase(f.question)?.toLowerCase();
  const named = f.files.length + f.folders.length + f.external.length;
  const asks = f.asks.includes("callers") || f.asks.includes("dependencies");
  if (!phrase || named > 0 || f.used || !asks) return f;
  if (f.symbols.some((s) => phrase.includes(s.symbol.name.toLowerCase()))) return f;
  const symbol = await describedSubject(f.generationId, f.question, f.keep, f.scope);
  return symbol ? { ...f, symbols: [{ symbol, label: symbol.qualifiedName, described: true }] } : f;
}
