/**
 * Identifier-aware tokenization shared by the lexical index (SQLite FTS5, which
 * receives text we have already split) and the hashing embedder, so that a query
 * for `get user by id` finds `getUserById` and `get_user_by_id` alike.
 */

import { stemmer } from "stemmer";

/** Letters, digits and marks only: what FTS5's unicode61 tokenizer keeps as token characters. */
const TOKEN_RUN = /[\p{L}\p{N}\p{M}]+/gu;

/** One non-ASCII code point that belongs in a word. */
const NON_ASCII_WORD_CODE_POINT = /^[\p{L}\p{N}\p{M}]$/u;

/**
 * Words longer than this are base64 blobs, hashes or minified code; indexing them
 * only bloats the FTS index and the hashed vectors.
 */
export const MAX_WORD_LENGTH = 64;

const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
const SEPARATOR = 0;

function charClass(word: string, i: number): number {
  const c = word.charCodeAt(i);
  if (c >= 97 && c <= 122) return LOWER;
  if (c >= 65 && c <= 90) return UPPER;
  if (c >= 48 && c <= 57) return DIGIT;
  if (c < 128) return SEPARATOR;
  // Surrogate halves: the scanner only lets through those of astral letters.
  if (c >= 0xd800 && c <= 0xdfff) return LOWER;
  const ch = word[i] as string;
  if (!NON_ASCII_WORD_CODE_POINT.test(ch)) return SEPARATOR;
  return ch !== ch.toLowerCase() ? UPPER : LOWER;
}

/** True when the lowercase run starting at `i` is a lone plural `s` (`URLs`, `IDs`). */
function isPluralSuffix(word: string, i: number): boolean {
  return word.charCodeAt(i) === 115 && (i + 1 >= word.length || charClass(word, i + 1) !== LOWER);
}

/**
 * Splits an identifier into lowercase parts at `_`/`$`/punctuation, lower→Upper and
 * digit→Upper changes, and before the last capital of an acronym run
 * (`HTTPServer` → http, server). Digits stay with the letters before them
 * (`v2`, `utf8`, `int32`), and a plural acronym stays whole (`getIDs` → get, ids).
 */
export function splitIdentifier(word: string): string[] {
  const parts: string[] = [];
  let start = -1;
  let prev = SEPARATOR;
  for (let i = 0; i < word.length; i++) {
    const cls = charClass(word, i);
    if (cls === SEPARATOR) {
      if (start >= 0) parts.push(word.slice(start, i).toLowerCase());
      start = -1;
      prev = cls;
      continue;
    }
    if (start < 0) {
      start = i;
    } else if (cls === UPPER) {
      const boundary =
        prev === LOWER ||
        prev === DIGIT ||
        (prev === UPPER &&
          i + 1 < word.length &&
          charClass(word, i + 1) === LOWER &&
          !isPluralSuffix(word, i + 1));
      if (boundary) {
        parts.push(word.slice(start, i).toLowerCase());
        start = i;
      }
    }
    prev = cls;
  }
  if (start >= 0) parts.push(word.slice(start).toLowerCase());
  return parts;
}

/** Scanner classes of characters (distinct from splitIdentifier's classes above). */
const BREAK = 0;
const PLAIN_CHAR = 1; // a-z, 0-9: a word made only of these needs no splitting or lowercasing
const COMPLEX_CHAR = 2; // A-Z, _, $, non-ASCII letters: the word goes through splitIdentifier

const ASCII_KIND = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) ASCII_KIND[c] = PLAIN_CHAR;
  else if ((c >= 65 && c <= 90) || c === 95 || c === 36) ASCII_KIND[c] = COMPLEX_CHAR;
}

/**
 * Calls `visit` for each word: a maximal run of letters, digits, combining marks,
 * `_` and `$`. Everything else (dots, hyphens, operators, quotes) separates words,
 * which is how dotted names like `os.path.join` split into their parts. A
 * hand-written loop rather than a regex: this runs over every chunk of a
 * repository, and most words are plain lowercase ASCII that need no more work.
 */
function scanWords(text: string, visit: (word: string, plain: boolean) => void): void {
  const n = text.length;
  let start = -1;
  let plain = true;
  for (let i = 0; i < n;) {
    const c = text.charCodeAt(i);
    let kind: number;
    let width = 1;
    if (c < 128) {
      kind = ASCII_KIND[c] as number;
    } else {
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) width = 2;
      kind = NON_ASCII_WORD_CODE_POINT.test(text.slice(i, i + width)) ? COMPLEX_CHAR : BREAK;
    }
    if (kind === BREAK) {
      if (start >= 0 && i - start <= MAX_WORD_LENGTH) visit(text.slice(start, i), plain);
      start = -1;
    } else {
      if (start < 0) {
        start = i;
        plain = true;
      }
      if (kind === COMPLEX_CHAR) plain = false;
    }
    i += width;
  }
  if (start >= 0 && n - start <= MAX_WORD_LENGTH) visit(text.slice(start), plain);
}

/**
 * Calls `visit` once per word of `text` with its lowercase parts: `[word]` for a
 * plain word, the split parts for an identifier that splits. Words made only of
 * separators (`__`) and over-long words are skipped.
 */
export function forEachWord(text: string, visit: (parts: readonly string[]) => void): void {
  scanWords(text, (word, plain) => {
    if (plain) {
      visit([word]);
      return;
    }
    const parts = splitIdentifier(word);
    if (parts.length > 0) visit(parts);
  });
}

/**
 * Text to store in the FTS index: lowercase words separated by spaces, each
 * identifier that splits written whole (without separators) and then as its
 * parts, so both `getuserbyid` and `get user by id` match. The whole form drops
 * `_` because unicode61 treats `_` as a separator and would split it anyway.
 */
export function indexText(text: string): string {
  const out: string[] = [];
  scanWords(text, (word, plain) => {
    if (plain) {
      out.push(word);
      return;
    }
    const parts = splitIdentifier(word);
    if (parts.length > 1) out.push(parts.join(""));
    for (const part of parts) out.push(part);
  });
  return out.join(" ");
}

/** FNV-1a over UTF-16 code units, then Murmur3's finaliser (FNV's low bits are weak). */
function hash32(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

/**
 * The key of a term in the whole-file term index: a 32-bit hash of the word, salted
 * with the repository (`repositoryTermSalt`), so that looking a term up never walks
 * the rows of other repositories. Two words of one repository that share a key (a
 * handful in a million) only add to each other's counts.
 */
export function termKey(term: string, salt: number): number {
  return hash32(term, salt);
}

/** The salt of a repository's term keys. */
export function repositoryTermSalt(repositoryId: string): number {
  return hash32(repositoryId, 0x5bd1e995);
}

/** How often each word of a whole file occurs, as the whole-file lexical index stores it. */
export interface FileTermCounts {
  terms: string[];
  counts: number[];
  /** the file's length in words (BM25's document length) */
  length: number;
}

/**
 * The words of a file's path and text exactly as `indexText` writes them (a splitting
 * identifier whole and as its parts), counted. Counted in one pass without building
 * the text: this runs once over every changed file of a build.
 */
export function fileTermCounts(path: string, content: string): FileTermCounts {
  const counts = new Map<string, number>();
  let length = 0;
  const add = (word: string) => {
    counts.set(word, (counts.get(word) ?? 0) + 1);
    length++;
  };
  const visit = (word: string, plain: boolean) => {
    if (plain) {
      add(word);
      return;
    }
    const parts = splitIdentifier(word);
    if (parts.length > 1) add(parts.join(""));
    for (const part of parts) add(part);
  };
  scanWords(path, visit);
  scanWords(content, visit);
  return { terms: [...counts.keys()], counts: [...counts.values()], length };
}

/*
 * Stopwords for questions and bug reports. Decisions:
 * - English function words and bug-report boilerplate ("steps to reproduce",
 *   "expected behaviour", "please help") carry no information about where code is.
 * - Language keywords that occur in nearly every chunk (`def`, `function`, `return`,
 *   `import`, `const`, `self`, `this`) cannot discriminate between chunks; BM25's
 *   IDF would mute them anyway, but the hashing embedder would not.
 * - Language and runtime names ("python", "typescript", "node") describe the
 *   reporter's setup; they appear in code only in docs and config, so keeping them
 *   pulls results toward README and packaging files.
 * - Kept on purpose: error, exception, fail, crash, warning, null, none, undefined,
 *   nil, timeout, true, false. Bug reports are about exactly these, and they appear
 *   verbatim in raise/throw sites and error strings.
 */
const STOPWORD_LIST = `
a about above after again against all also am an and any are aren as at be because been before being
below between both but by can cannot could couldn did didn do does doesn doing don down during each
either else etc even ever every few for from further get gets getting got had hadn has hasn have
haven having he her here hers herself him himself his how however i if in into is isn it its itself
just let like ll me might more most much must mustn my myself need needs no nor not now of off on
once one only or other others our ours ourselves out over own re same shan she should shouldn so some
such than that the their theirs them themselves then there these they this those through to too
under until up upon us ve very via was wasn we were weren what whats when where whether which while
who whom whose why will with within without won would wouldn yet you your yours yourself yourselves
anyone anything someone something somewhere thing things way ways really actually basically simply
please thanks thank hi hello help helps question questions wondering know knows understand trying
tried try want wants wanted seems seem seemed seeing see sees saw happen happens happened happening
bug bugs issue issues problem problems report reported reproduce reproduced reproduction repro steps
step expected expect expecting actual actually behavior behaviour instead anymore still currently
using use used uses able unable make makes made look looks looked go goes going went come comes
code codebase repo repository project
def function func fn return returns const var self this import imports from export exports require
public private protected static void
python javascript typescript java golang rust node nodejs js ts py ruby rb php csharp cpp
`;

export const STOPWORDS: ReadonlySet<string> = new Set(STOPWORD_LIST.split(/\s+/).filter(Boolean));

/*
 * Question scaffolding: words that say what kind of answer a question wants about the
 * code ("what is the semantic relationship between", "the architectural rationale",
 * "how does it ensure", "what mechanism") rather than what the code is about. They
 * are rare in code, so BM25 would weigh them above the words that matter and lead to
 * whatever prose happens to use them (changelogs, design documents): lib/search/query.ts
 * weighs them down, and a question's content terms leave them out. Not dropped from
 * searches outright: a few are what some repository's code is about (xarray's
 * coordinates, seaborn's semantic mappings). Words that are ordinary code vocabulary
 * everywhere (method, class, state, handler, type) are not here: their frequency in the
 * repository already mutes them, and they often name it.
 */
const SCAFFOLDING_LIST = `
relationship relationships relation relations relate relates related relating semantic semantically
purpose purposes role roles mechanism mechanisms architecture architectures architectural
architecturally design designed designs designing pattern patterns approach approaches implication
implications rationale reason reasons reasoning responsibility responsibilities concern concerns
separation interplay interaction interactions interact interacts interacting affect affects affected
affecting impact impacts impacted influence influences influenced coordinate coordinates coordinated
coordinating coordination ensure ensures ensured ensuring guarantee guarantees determine determines
determined determining enable enables enabled enabling achieve achieves achieved maintain maintains
maintained maintaining maintainability preserve preserves preserved preserving specific specifically
particular particularly overall various underlying primary primarily essential potential
potentially consequence consequences tradeoff tradeoffs benefit benefits advantage advantages
drawback drawbacks rather whereas throughout across beyond versus vs etc significance significant
strategy strategies principle principles paradigm concept concepts conceptual aspect aspects
demonstrate demonstrates demonstrated illustrate illustrates explain explains explained describe
describes described purpose intended intent involve involves involved leverage leverages leveraging
facilitate facilitates utilize utilizes utilized employ employs employed exhibit exhibits
`;

const SCAFFOLDING: ReadonlySet<string> = new Set(SCAFFOLDING_LIST.split(/\s+/).filter(Boolean));

/** Whether a word only frames a question about code (see SCAFFOLDING_LIST). */
export function isScaffolding(term: string): boolean {
  return SCAFFOLDING.has(term);
}

/**
 * The content terms of a question: `queryTerms` without the question's scaffolding, so a
 * prose question searches for what it is about. A question made only of scaffolding
 * keeps its terms (it asks about them).
 */
export function contentTerms(text: string, maxTerms = 64): string[] {
  const terms = queryTerms(text, maxTerms);
  const content = terms.filter((t) => !SCAFFOLDING.has(t));
  return content.length > 0 ? content : terms;
}

/** A word's stem (Porter): `redirects`, `redirected` → `redirect`; compares words across their forms. */
export function stem(word: string): string {
  return stemmer(word.toLowerCase());
}

/** Significant = not a stopword and longer than one character (single letters are loop variables). */
export function isSignificant(term: string): boolean {
  return term.length > 1 && !STOPWORDS.has(term);
}

/**
 * Significant terms of a question, deduplicated in order of first appearance:
 * identifiers contribute their whole lowercase form (always kept: a named
 * identifier is the most specific thing a question can contain) and their
 * significant parts. Capped at `maxTerms` so a pasted stack trace cannot turn
 * into a thousand-way OR.
 */
export function queryTerms(text: string, maxTerms = 64): string[] {
  const terms = new Set<string>();
  forEachWord(text, (parts) => {
    if (terms.size >= maxTerms) return;
    if (parts.length > 1) terms.add(parts.join(""));
    for (const part of parts) {
      if (terms.size >= maxTerms) return;
      if (isSignificant(part)) terms.add(part);
    }
  });
  return [...terms];
}

/**
 * An FTS5 MATCH expression: the OR of the terms, each as a quoted string, and of the
 * prefixes, each as a quoted prefix query (`"redirect"*` finds redirects, redirected).
 * Only letter/digit runs survive (a term with several runs becomes a phrase), so no
 * input can produce FTS5 syntax: quotes, `*`, `-`, `:`, parentheses and `NEAR` are
 * either removed or sit inside a string. Returns null when nothing searchable is
 * left; the caller then skips the lexical query.
 */
export function ftsMatchExpression(
  terms: readonly string[],
  prefixes: readonly string[] = [],
): string | null {
  const seen = new Set<string>();
  const quoted: string[] = [];
  const add = (term: string, star: boolean) => {
    const runs = term.toLowerCase().match(TOKEN_RUN);
    if (!runs || (star && runs.length > 1)) return;
    const phrase = runs.join(" ");
    const key = `${phrase}${star ? "*" : ""}`;
    if (seen.has(key)) return;
    seen.add(key);
    quoted.push(`"${phrase}"${star ? "*" : ""}`);
  };
  for (const term of terms) add(term, false);
  for (const prefix of prefixes) add(prefix, true);
  return quoted.length > 0 ? quoted.join(" OR ") : null;
}

/**
 * The PostgreSQL tsquery text (for `to_tsquery('simple', …)`) equivalent to an FTS5
 * MATCH expression of the form ftsMatchExpression builds: quoted phrases (or bare
 * words) joined by OR, or side by side for AND. Each word becomes a quoted lexeme of
 * letters, digits and marks only (`:*` after a prefix query's word), phrases join their words with `<->`, so the result
 * is always valid tsquery syntax. Null when nothing searchable is left.
 */
export function ftsMatchToTsQuery(match: string): string | null {
  const groups: string[][] = [[]];
  for (const item of match.matchAll(/"([^"]*)"(\*)?|(\S+)/g)) {
    const bare = item[3];
    if (bare === "OR") {
      if ((groups[groups.length - 1] as string[]).length > 0) groups.push([]);
      continue;
    }
    if (bare === "AND") continue;
    const runs = (item[1] ?? bare ?? "").toLowerCase().match(TOKEN_RUN);
    if (!runs) continue;
    const prefix = item[2] && runs.length === 1 ? ":*" : "";
    const phrase = runs.map((run) => `'${run}'${prefix}`).join(" <-> ");
    (groups[groups.length - 1] as string[]).push(runs.length > 1 ? `(${phrase})` : phrase);
  }
  const alternatives = groups
    .filter((g) => g.length > 0)
    .map((g) => (g.length > 1 ? `(${g.join(" & ")})` : g[0]));
  return alternatives.length > 0 ? alternatives.join(" | ") : null;
}
