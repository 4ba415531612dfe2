/**
 * Which lines of a file answer a question. A question is answered by a function, not by
 * the file that holds it: the symbol whose own body carries the question's words (the
 * subject named, the condition or formula asked about, the message a report quotes, the
 * option it passes) is the one to rank, fetch and cite. Spans are scored like documents
 * of a small BM25 collection (the symbols being compared), their names counting like
 * titles; a quoted message or literal found verbatim, and question words on a condition
 * or formula line, count extra. A long function is scored on its best passage too, so
 * the one block of a driver function that decides what is asked is not drowned by the
 * length of the rest. A file without symbols is answered by its densest window of
 * matching lines.
 */
import { splitIdentifier, stem, STOPWORDS } from "../db/tokenize.ts";
import { splitFences, type Anchors } from "../search/anchors.ts";

/** What a question looks for in source lines. */
export interface FocusQuery {
  /**
   * Stems of the question's significant words with their weight: words the question
   * repeats, or puts in its title, say more about what it asks than a word of a pasted
   * log does.
   */
  terms: Map<string, number>;
  /** code names the question writes (lowercase, last segment of dotted names) */
  names: Set<string>;
  /** verbatim stretches to find in code: quoted messages' literal pieces, options, configuration keys */
  phrases: string[];
  /**
   * Matches a lower-cased line that may hold a question word, so most lines of a long
   * file are passed over without splitting them into words.
   */
  probe: RegExp;
}

/**
 * The probe for some stems: their first three letters (two of a short stem), which are
 * their words' too (a stem changes a word's ending: city → citi), or nothing at all.
 */
function probeOf(stems: Iterable<string>): RegExp {
  const heads = [...new Set([...stems].map((t) => t.slice(0, t.length >= 4 ? 3 : 2)))].map((h) =>
    h.replace(/[^a-z0-9]/g, ""),
  );
  const usable = heads.filter(Boolean);
  return usable.length ? new RegExp(usable.join("|")) : /(?!)/;
}

export interface Span {
  startLine: number;
  endLine: number;
  /** the symbol's own name (counts like a title); empty for a plain window */
  name: string;
}

export interface ScoredSpan<S extends Span> {
  span: S;
  score: number;
  /** lines (1-based) holding a question word or phrase, in order */
  matched: number[];
}

const K1 = 1.2;
const B = 0.5;
/** Weight of a question word on a line that tests or computes (`if`, comparisons, arithmetic). */
const CONDITION_FACTOR = 1.5;
const NAME_FACTOR = 2;
const NAMED_BONUS = 4;
const PHRASE_BONUS = 12;
/** Words so common in code that their presence says nothing about which span answers. */
const CODE_WORDS = new Set([
  "if",
  "else",
  "for",
  "while",
  "true",
  "false",
  "none",
  "null",
  "nil",
  "new",
  "int",
  "str",
  "string",
  "len",
  "value",
  "result",
  "data",
  "name",
  "args",
  "kwargs",
  "err",
]);

const stems = new Map<string, string>();

/** Stem of a lowercase word part, cached (the same words recur on every line). */
function stemOf(part: string): string {
  let s = stems.get(part);
  if (s === undefined) {
    s = stem(part);
    if (stems.size > 50_000) stems.clear();
    stems.set(part, s);
  }
  return s;
}

/**
 * The stems of a text's significant words, identifiers split into their parts (a name
 * written whole is matched by `names`, so its parts alone count as words).
 */
export function wordStems(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) {
    for (const p of splitIdentifier(m[0])) {
      if (p.length > 1 && !STOPWORDS.has(p) && !CODE_WORDS.has(p)) out.push(stemOf(p));
    }
  }
  return out;
}

/** A phrase worth finding verbatim: two words or more, or one long identifier-like word. */
function isPhrase(text: string): boolean {
  const words = text.split(/\s+/).filter((w) => /[A-Za-z]{2}/.test(w));
  return words.length >= 2 ? text.length >= 8 : /^[-\w.:]{6,}$/.test(text) && /[-_.:]/.test(text);
}

/**
 * The literal stretches of a quoted message: placeholders, quoted values and numbers
 * cut it, as they differ between the report and the code's format string; so does
 * punctuation, since a value the code fills in often stands before it
 * (`DatasetGroupBy, grouped over 'letters'` from `"{}, grouped over {!r}"`).
 */
function messagePieces(message: string): string[] {
  const pieces = message
    .split(/\{[^}]*\}|%[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]|'[^']*'|"[^"]*"|`[^`]*`|\d+(?:\.\d+)?|[()[\]]/)
    .flatMap((p) => [p, ...p.split(/[,;:]\s/)])
    .map((p) => p.replace(/\s+/g, " ").replace(/^[\s,.:;!?-]+|[\s,.:;!?-]+$/g, ""));
  return [...new Set(pieces)].filter(isPhrase);
}

const TITLE_WEIGHT = 1;
const MAX_TERMS = 24;
const CODE_BLOCK_WEIGHT = 0.5;

/**
 * Question words and their weights: 1 for a word of the prose, plus a little for each
 * repetition and for the title line; half for a word seen only in pasted code or logs.
 */
function termWeights(question: string): Map<string, number> {
  const { prose, code } = splitFences(question);
  const title = question.split("\n").find((l) => l.trim() !== "") ?? "";
  const counts = new Map<string, number>();
  for (const t of wordStems(prose)) counts.set(t, (counts.get(t) ?? 0) + 1);
  const weights = new Map<string, number>();
  for (const [t, n] of counts) weights.set(t, 1 + Math.log(n));
  for (const t of wordStems(code)) if (!weights.has(t)) weights.set(t, CODE_BLOCK_WEIGHT);
  for (const t of new Set(wordStems(title))) weights.set(t, (weights.get(t) ?? 0) + TITLE_WEIGHT);
  // A long report's many once-used words add up to noise that favours long, wordy bodies.
  return new Map([...weights].sort((a, b) => b[1] - a[1]).slice(0, MAX_TERMS));
}

/** What to look for in code for a question and its anchors. */
export function focusQuery(question: string, anchors: Anchors): FocusQuery {
  const names = new Set<string>();
  for (const id of anchors.identifiers) {
    const last = id.replace(/\(\)$/, "").split(/[.:]+/).pop() ?? "";
    if (last.length >= 3) names.add(last.toLowerCase());
  }
  const phrases = [
    ...anchors.messages.flatMap(messagePieces),
    ...anchors.literals.filter((l) => l.length >= 3),
  ].map((p) => p.toLowerCase());
  const terms = termWeights(question);
  return { terms, names, phrases: [...new Set(phrases)].slice(0, 24), probe: probeOf(terms.keys()) };
}

/** Per line: the question's stems it holds, and whether it matches a phrase. */
interface LineMatch {
  terms: string[];
  phrase: boolean;
  condition: boolean;
}

const CONDITION_LINE =
  /^\s*(?:}\s*)?(?:if|elif|else\s+if|while|unless|case|when|switch|match|guard)\b|[<>]=?|[!=]==?|\?.*:|[-+*/%]\s*[\w(]/;

const NO_MATCH: LineMatch = { terms: [], phrase: false, condition: false };

function matchLine(line: string, query: FocusQuery): LineMatch {
  const lower = line.toLowerCase();
  const phrase = query.phrases.some((p) => lower.includes(p));
  if (!phrase && !query.probe.test(lower)) return NO_MATCH;
  const terms = [...new Set(wordStems(line).filter((t) => query.terms.has(t)))];
  return { terms, phrase, condition: terms.length > 0 && CONDITION_LINE.test(line) };
}

/** Reads each line once, however many spans cover it. */
class LineMatcher {
  private readonly cache = new Map<number, LineMatch>();

  constructor(
    private readonly lines: readonly string[],
    private readonly query: FocusQuery,
  ) {}

  at(line: number): LineMatch {
    let m = this.cache.get(line);
    if (!m) {
      m = matchLine(this.lines[line - 1] ?? "", this.query);
      this.cache.set(line, m);
    }
    return m;
  }
}

// A file's lines are read for a question once, however often its spans are scored
// (ranking, then packing, then citing): keyed by the line array and the query, both
// kept as long as the question's reader keeps them.
const matchers = new WeakMap<readonly string[], WeakMap<FocusQuery, LineMatcher>>();

function matcherOf(lines: readonly string[], query: FocusQuery): LineMatcher {
  let byQuery = matchers.get(lines);
  if (!byQuery) {
    byQuery = new WeakMap();
    matchers.set(lines, byQuery);
  }
  let m = byQuery.get(query);
  if (!m) {
    m = new LineMatcher(lines, query);
    byQuery.set(query, m);
  }
  return m;
}

/** Matched lines are tokenized only up to this many lines per span (long bodies are cut). */
const MAX_SPAN_LINES = 400;
/**
 * A passage: about one block of code (a branch, a loop and its body). A span longer than
 * this also scores as its best passage would as a span of its own, when that is more: a
 * driver function (a request's `urlopen`, a log's `Write`) is not outranked for its
 * length by a short helper sharing one word with the question, while a short function
 * matching throughout still leads, as its own length is shorter than a passage's.
 */
const PASSAGE_LINES = 25;

/** One matched line's question words, each weighing more on a condition or formula line. */
interface Hit {
  line: number;
  terms: string[];
  weight: number;
}

/** Term frequencies of some hits, a condition line's words counting more. */
function addHit(tf: Map<string, number>, hit: Hit, sign: 1 | -1): void {
  for (const t of hit.terms) tf.set(t, (tf.get(t) ?? 0) + sign * hit.weight);
}

/**
 * The highest score of any run of `size` consecutive lines of a span, each run's term
 * frequencies scored by `score` (two pointers over the matched lines, in line order).
 */
function bestPassage(hits: readonly Hit[], size: number, score: (tf: Map<string, number>) => number): number {
  const tf = new Map<string, number>();
  let best = 0;
  let end = 0;
  for (let i = 0; i < hits.length; i++) {
    const first = hits[i] as Hit;
    while (end < hits.length && (hits[end] as Hit).line < first.line + size)
      addHit(tf, hits[end++] as Hit, 1);
    best = Math.max(best, score(tf));
    addHit(tf, first, -1);
  }
  return best;
}

/**
 * Scores spans of one file (or of several files' spans, each with its own lines) against
 * a question: BM25 over the spans' lines, the span's name as a title, a named symbol and
 * phrases found verbatim as bonuses. Highest first; spans matching nothing score 0.
 */
export function scoreSpans<S extends Span>(
  entries: { span: S; lines: readonly string[] }[],
  query: FocusQuery,
): ScoredSpan<S>[] {
  const stats = entries.map(({ span, lines }) => {
    const matcher = matcherOf(lines, query);
    const tf = new Map<string, number>();
    const hits: Hit[] = [];
    const matched: number[] = [];
    let phrases = 0;
    const end = Math.min(span.endLine, span.startLine + MAX_SPAN_LINES - 1, lines.length);
    for (let l = span.startLine; l <= end; l++) {
      const m = matcher.at(l);
      if (m.terms.length === 0 && !m.phrase) continue;
      matched.push(l);
      if (m.phrase) phrases++;
      const hit = { line: l, terms: m.terms, weight: m.condition ? CONDITION_FACTOR : 1 };
      hits.push(hit);
      addHit(tf, hit, 1);
    }
    const nameTerms = new Set(wordStems(span.name).filter((t) => query.terms.has(t)));
    const named = span.name !== "" && query.names.has(span.name.toLowerCase());
    const length = Math.max(1, end - span.startLine + 1);
    return { span, tf, hits, nameTerms, named, phrases, matched, length };
  });
  const df = new Map<string, number>();
  for (const s of stats)
    for (const t of new Set([...s.tf.keys(), ...s.nameTerms])) df.set(t, (df.get(t) ?? 0) + 1);
  const n = Math.max(1, stats.length);
  const avg = stats.reduce((sum, s) => sum + s.length, 0) / n;
  const idf = (t: string) => Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
  const weight = (t: string) => idf(t) * (query.terms.get(t) ?? 0);
  const bm25 = (tf: Map<string, number>, length: number) => {
    let score = 0;
    for (const [t, f] of tf)
      if (f > 0) score += (weight(t) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * length) / avg));
    return score;
  };
  return stats
    .map((s) => {
      let score = bm25(s.tf, s.length);
      if (s.length > PASSAGE_LINES)
        score = Math.max(
          score,
          bestPassage(s.hits, PASSAGE_LINES, (tf) => bm25(tf, PASSAGE_LINES)),
        );
      for (const t of s.nameTerms) score += weight(t) * NAME_FACTOR;
      if (s.named) score += NAMED_BONUS;
      score += Math.min(s.phrases, 3) * PHRASE_BONUS;
      return { span: s.span, score, matched: s.matched };
    })
    .sort((a, b) => b.score - a.score || a.span.startLine - b.span.startLine);
}

/**
 * How strongly one line (1-based) answers the question: the question words it holds, a
 * quoted message's piece or an option found verbatim counting like many words.
 */
export function lineWeight(lines: readonly string[], query: FocusQuery, line: number): number {
  const m = matcherOf(lines, query).at(line);
  return m.terms.length + (m.phrase ? PHRASE_BONUS : 0);
}

/**
 * The run of at most `size` consecutive lines whose weights sum highest (the first such
 * run), as the indexes of its first and last lines; null when no line weighs anything.
 */
export function densestWindow(weights: readonly number[], size: number): { from: number; to: number } | null {
  let best = -1;
  let bestScore = 0;
  let score = 0;
  for (let i = 0; i < weights.length; i++) {
    score += weights[i] ?? 0;
    if (i >= size) score -= weights[i - size] ?? 0;
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  return best < 0 ? null : { from: Math.max(0, best - size + 1), to: best };
}

/**
 * The densest window of lines matching the question in a file without symbols (a
 * config file, a script): at most `maxLines` long, trimmed to its first and last
 * matching line and a line of context each side. Null when no line matches.
 */
export function matchedWindow(
  lines: readonly string[],
  query: FocusQuery,
  maxLines = 20,
): { startLine: number; endLine: number } | null {
  const weights = lines.map((_, i) => lineWeight(lines, query, i + 1));
  const window = densestWindow(weights, maxLines);
  if (!window) return null;
  const { from, to: best } = window;
  const hits = weights.slice(from, best + 1).flatMap((w, i) => (w > 0 ? [from + i] : []));
  const first = hits[0] ?? from;
  const last = hits[hits.length - 1] ?? best;
  return { startLine: Math.max(1, first), endLine: Math.min(lines.length, last + 2) };
}

/** A line that is only a comment. */
const COMMENT_LINE = /^\s*(?:\/\/|#(?![[!])|\/\*|\*|--)/;

/**
 * How much of the question a span's body decides or computes itself: the weight of the
 * question's words on its condition and formula lines (each word once, comments aside),
 * from `from` (its first line of body: a signature and a doc comment decide nothing) to
 * `to`.
 */
export function decidingWeight(
  lines: readonly string[],
  from: number,
  to: number,
  query: FocusQuery,
): number {
  const matcher = matcherOf(lines, query);
  const seen = new Set<string>();
  const end = Math.min(to, from + MAX_SPAN_LINES - 1, lines.length);
  for (let l = Math.max(1, from); l <= end; l++) {
    const m = matcher.at(l);
    if (!m.condition || COMMENT_LINE.test(lines[l - 1] ?? "")) continue;
    for (const t of m.terms) seen.add(t);
  }
  return [...seen].reduce((n, t) => n + (query.terms.get(t) ?? 0), 0);
}
