/**
 * The words term associations are learned from: a chunk of code (a function, a class
 * header, a section of documentation) read as a sequence of lowercase words, each
 * identifier split into its parts (`auto_max_age` → auto, max, age) and marked as such,
 * comments and docstrings read as the prose they are. The same reading serves the
 * general model's training (scripts/train-associations.ts) and a repository's own.
 */
import { forEachWord, isSignificant } from "../../db/tokenize.ts";

export interface ChunkWords {
  /** the parts of the chunk's own name (its last qualified segment): what its code is about */
  name: string[];
  /** the chunk's significant words in order */
  words: string[];
  /** for each word, whether it was part of an identifier that splits (code) rather than a word of its own */
  identifier: boolean[];
}

/** Words of one or two letters, and numbers, say nothing about what code does. */
function keep(word: string): boolean {
  return word.length > 2 && isSignificant(word) && !/^\d/.test(word);
}

/** A chunk's words for association learning; `maxWords` bounds long chunks. */
export function chunkWords(title: string, text: string, maxWords = 400): ChunkWords {
  const lastSegment =
    title
      .split(/[.:/›\s]+/)
      .filter(Boolean)
      .pop() ?? "";
  const name: string[] = [];
  forEachWord(lastSegment, (parts) => {
    for (const p of parts) if (keep(p) && !name.includes(p)) name.push(p);
  });
  const words: string[] = [];
  const identifier: boolean[] = [];
  forEachWord(text, (parts) => {
    if (words.length >= maxWords) return;
    const split = parts.length > 1;
    for (const p of parts) {
      if (!keep(p)) continue;
      words.push(p);
      identifier.push(split);
    }
  });
  return { name, words, identifier };
}
