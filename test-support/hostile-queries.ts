/**
 * Search input meant to break a full-text query language (FTS5 MATCH, PostgreSQL
 * tsquery): operators, unbalanced quotes and brackets, control and combining
 * characters, and 200 deterministic random strings over the same alphabet.
 */
const NASTY = [
  '"unbalanced',
  "a AND OR NOT b",
  "NEAR(a b, 3)",
  "col:value -neg +pos ^start ! & | <-> :*",
  "prefix* * ** (((",
  ")))",
  "'single' `tick` \\back",
  "emoji 🚀🔥 and 漢字 and עברית and café",
  "\u0000\u0001\u200b zero-width",
  "e\u0301 combining",
  "{}[]<>|&;",
];

function pseudoRandom(count: number): string[] {
  const alphabet = " \"*()-:^+NEAROR AND\\'{}abcé😀_.$!&|<>";
  return Array.from({ length: count }, (_, i) => {
    let s = "";
    let seed = i * 2654435761;
    for (let j = 0; j < 20; j++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      s += alphabet[seed % alphabet.length];
    }
    return s;
  });
}

export const HOSTILE_QUERIES: readonly string[] = [...NASTY, ...pseudoRandom(200)];
