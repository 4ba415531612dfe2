/**
 * Error messages as people write them back: typed from memory, pasted from a log with the
 * values filled in, or with the code's quotes and brackets dropped (`Number of opening [
 * and closing ] does not match` for `"Number of opening '[' and closing ']' does not
 * match"`). A message written in code (a literal, or a template with placeholders:
 * `%s`, `%-5d`, `%q`, `%(name)s`, `{}`, `{0}`, `{name!r}`, `{:?}`, `${x}`, `#{x}`, and the
 * `{…}` the indexer writes for an interpolation or a concatenated value) is matched by its
 * words in order, whatever punctuation stands between them; punctuation only counts where
 * it alone separates two placeholders (`"%s: %w"`). Pure.
 */

/** Where a message template takes a value. */
export const PLACEHOLDER =
  /%\([^)\n]*\)[-#+ 0-9.*]*[a-zA-Z]|[$#]?\{[^{}\n]*\}|%[-#+ 0-9.*]*(?:hh|ll|[hlLqjzt])?[a-zA-Z]/;

const PLACEHOLDERS = new RegExp(PLACEHOLDER.source, "g");
// A word of a message: digits, underscores and letters of any script, read in lower case.
// Code-point ranges, not `\p{L}` with the `iu` flags: a pattern is compiled per template, and
// those compile a hundred times slower.
const WORD_CHARS = "0-9a-z_\\u00C0-\\u1FFF\\u2C00-\\u2DFF\\u3040-\\uFFEF";
const WORD = new RegExp(`[${WORD_CHARS}]+`, "g");
const WORD_CHAR = `[${WORD_CHARS}]`;
const NOT_WORD = `[^${WORD_CHARS}]`;
const WORD_CHAR_PATTERN = new RegExp(WORD_CHAR);

/** The words of a text, lower-cased (placeholders and punctuation dropped). */
export function messageWords(text: string): string[] {
  return (text.replace(PLACEHOLDERS, " ").toLowerCase().match(WORD) ?? []).slice();
}

/** The literal pieces of a template between its placeholders. */
export function templatePieces(template: string): string[] {
  return template.split(PLACEHOLDERS);
}

/** Regular-expression text of a literal. */
function escaped(text: string): string {
  return text.replace(/[\^$\\.*+?()[\]{}|/]/g, "\\$&");
}

/** Punctuation as a pattern, spaces around it free (`: ` matches `:` and ` : `). */
function punctuation(text: string): string {
  const marks = text.replace(/\s+/g, "");
  return marks ? `\\s*${[...marks].map(escaped).join("\\s*")}\\s*` : "\\s*";
}

/**
 * One literal piece as a pattern: its words in order with any non-word text between them;
 * the punctuation at its edges (a quote before a placeholder, `. ` after a sentence)
 * optional, so it is consumed when there and what a placeholder held comes out without it.
 * A piece of punctuation only is required as written between two placeholders, and
 * optional where it starts or ends the template.
 */
function piecePattern(piece: string, first: boolean, last: boolean): string {
  const words = piece.match(WORD);
  // Quotes around a value that starts or ends the message are often left out.
  if (!words) return first || last ? `(?:${punctuation(piece)})?` : punctuation(piece);
  const lead = piece.slice(0, piece.search(WORD_CHAR_PATTERN));
  const lastWord = words[words.length - 1] as string;
  const tail = piece.slice(piece.lastIndexOf(lastWord) + lastWord.length);
  // A piece starting the template starts at a word's start; one glued to a placeholder
  // (`{}ms`, `v%d`) may start inside a word.
  const start = first || lead.length > 0 ? `(?<!${WORD_CHAR})` : "";
  const edge = (text: string) => (text.trim() ? `(?:${punctuation(text)})?` : "\\s*");
  // A piece ending the template ends at a word's end; one glued to a placeholder may not.
  const glued = tail.length === 0 && !last;
  return (
    `${lead ? edge(lead) : ""}${start}${words.map(escaped).join(`${NOT_WORD}+`)}` +
    `${glued ? "" : `(?!${WORD_CHAR})`}${tail ? edge(tail) : ""}`
  );
}

/**
 * A message written in code as a pattern over lower-cased text that may hold it: its words
 * in order, each placeholder a lazy capture of what it held (the last one, ending the
 * template, to the end of the line). Null when the template has fewer than `minLetters`
 * literal letters.
 */
export function messageTemplatePattern(template: string, minLetters = 8): RegExp | null {
  const pieces = templatePieces(template.toLowerCase());
  const letters = messageWords(template).join("").length;
  if (letters < minLetters) return null;
  const last = pieces.length - 1;
  const body = pieces.map((piece, i) => {
    const own = piecePattern(piece, i === 0, i === last);
    if (i === 0) return own;
    return `${i === last && !piece.trim() ? "(.*)" : "(.*?)"}${own}`;
  });
  return new RegExp(body.join(""), "d");
}

/**
 * What each placeholder of a template held in a text that holds its message (see
 * messageTemplatePattern), as the text writes it; null when the text does not hold it.
 * A text lacking one of the template's words is passed over before any pattern is built.
 */
export function matchMessage(template: string, text: string, minLetters = 8): string[] | null {
  const lower = text.toLowerCase();
  if (!messageWords(template).every((w) => lower.includes(w))) return null;
  const hit = messageTemplatePattern(template, minLetters)?.exec(lower);
  if (!hit) return null;
  // Lower case keeps a text's length but for a few letters; the captures are read from the text as written.
  const same = lower.length === text.length;
  return hit.slice(1).map((held, i) => {
    const at = hit.indices?.[i + 1];
    return same && at ? text.slice(at[0], at[1]) : (held ?? "");
  });
}

/** Whether a text holds the message a template (or plain literal) of code writes. */
export function writesMessage(template: string, text: string, minLetters = 8): boolean {
  return matchMessage(template, text, minLetters) !== null;
}

/** Whether `text` holds `piece`'s words, in order and next to each other. */
export function holdsWords(text: string, piece: string): boolean {
  const words = messageWords(piece);
  return words.length > 0 && ` ${messageWords(text).join(" ")} `.includes(` ${words.join(" ")} `);
}

/**
 * The longest run of a template's literal words that a text holds in the same order, next
 * to each other (a run does not cross a placeholder): how much of a message someone
 * writing it from memory got right.
 */
export function sharedRun(template: string, text: string): number {
  const said = messageWords(text);
  let best = 0;
  for (const piece of templatePieces(template)) {
    const own = messageWords(piece);
    // Longest common run of two word lists, one row of the table at a time.
    let previous = new Array<number>(said.length + 1).fill(0);
    for (const word of own) {
      const row = new Array<number>(said.length + 1).fill(0);
      for (let j = 1; j <= said.length; j++) {
        if (said[j - 1] === word) {
          row[j] = (previous[j - 1] ?? 0) + 1;
          if ((row[j] ?? 0) > best) best = row[j] ?? 0;
        }
      }
      previous = row;
    }
  }
  return best;
}

/**
 * Whether a message of code is the one a text reports: word for word (placeholders standing
 * for its values), or most of its words in one run (written from memory: "number of
 * opening and closing brackets differs" for "Number of opening '[' and closing ']' differs").
 */
export function recallsMessage(literal: string, text: string, minLetters = 10): boolean {
  if (writesMessage(literal, text, minLetters)) return true;
  const run = sharedRun(literal, text);
  return run >= 4 && run >= 0.6 * messageWords(literal).length;
}
