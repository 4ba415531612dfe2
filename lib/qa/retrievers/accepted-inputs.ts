/**
 * Inputs a report quotes and the patterns in code that accept them. A parsing bug is
 * reported with the value that was misread (`dayjs.utc('2020-12-01T09:00:00+0900')`,
 * `version "1.2.3-rc.1"`), and the fix is in the regular expression that reads it — often
 * in a shared constants or util module whose words the report never uses. A pattern
 * that accepts the whole quoted value, and none of a few plain strings, is evidence that
 * its file decides how that value is read. Patterns are read from a file's text as each
 * language writes them: JavaScript's regex literals and `RegExp(...)`, Go's
 * `regexp.MustCompile`, Rust's `Regex::new`, Java's `Pattern.compile`, Python's `re.*`,
 * C++'s `std::regex`, C#'s `new Regex`, PHP's `preg_*`.
 */

/** Longest quoted value tested (longer ones are pasted output, not an input). */
const MAX_VALUE = 100;
/** Longest pattern source compiled. */
const MAX_PATTERN = 400;
/** Strings any lax pattern accepts; a pattern accepting one of them says nothing. */
const PLAIN = ["", "x", "hello", "hello world", "foo_bar", "a1", "12", "a.b", "a/b/c", "A-b", "x=1"];

const QUOTED = /(["'`])([^"'`\n]{4,100}?)\1/g;
/** A bare release number ("works in 1.9.7") names a version of the project far more often than an input. */
const RELEASE = /^v?\d+\.\d+(?:\.\d+)?$/i;

/**
 * The values a report quotes that look like input to a parser: a quoted string holding
 * a digit and punctuation (a date, a pre-release version, a size, a key=value), not a
 * plain word, a sentence, a bare release number or a link.
 */
export function quotedInputs(report: string): string[] {
  const out = new Set<string>();
  for (const m of report.matchAll(QUOTED)) {
    const value = (m[2] as string).trim();
    if (value.length < 4 || value.length > MAX_VALUE) continue;
    if (!/\d/.test(value) || !/[^\w\s]/.test(value)) continue;
    if (value.split(/\s+/).length > 3) continue;
    if (RELEASE.test(value) || /^https?:\/\//i.test(value)) continue;
    out.add(value);
  }
  return [...out];
}

// A regex literal where an expression starts (after `=`, `(`, `,`, `:` … or `return`).
const JS_LITERAL =
  /(?:^|[=(,:;!&|?{}[]|\breturn)\s*\/((?:[^/\\[\n*]|\\.|\[(?:[^\]\\\n]|\\.)*\])(?:[^/\\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*\])*)\/([dgimsuyv]*)/g;
const STRING = String.raw`"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'`;
const RAW_GO = "`[^`]*`";
const RAW_RUST = String.raw`r(#*)"[\s\S]*?"\1`;
const CALLS: [RegExp, RegExp][] = [
  [/\.(?:js|jsx|mjs|cjs|ts|tsx|mts|cts)$/, new RegExp(String.raw`\bRegExp\(\s*(${STRING})`, "g")],
  [/\.go$/, new RegExp(String.raw`\bregexp\.(?:Must)?Compile(?:POSIX)?\(\s*(${RAW_GO}|${STRING})`, "g")],
  [/\.rs$/, new RegExp(String.raw`\bRegex(?:Builder)?::new\(\s*(${RAW_RUST}|${STRING})`, "g")],
  [/\.(?:java|kt|scala)$/, new RegExp(String.raw`\bPattern\.compile\(\s*(${STRING})`, "g")],
  [/\.py$/, new RegExp(String.raw`\bre\.(?:compile|match|fullmatch|search)\(\s*[rRbB]?(${STRING})`, "g")],
  [
    /\.(?:cc|cpp|cxx|hpp|hh|h)$/,
    new RegExp(String.raw`\bregex\s*\w*\s*[({]\s*(R"\((?:[\s\S]*?)\)"|${STRING})`, "g"),
  ],
  [/\.cs$/, new RegExp(String.raw`\bRegex\(\s*@?(${STRING})`, "g")],
  [/\.php$/, new RegExp(String.raw`\bpreg_\w+\(\s*(${STRING})`, "g")],
];

/** A string literal's text: raw forms as written, quoted forms with their escapes undone. */
function literalText(literal: string): string {
  if (literal.startsWith("`")) return literal.slice(1, -1);
  const rust = /^r(#*)"([\s\S]*)"\1$/.exec(literal);
  if (rust) return rust[2] as string;
  const cpp = /^R"\(([\s\S]*)\)"$/.exec(literal);
  if (cpp) return cpp[1] as string;
  return literal
    .slice(1, -1)
    .replace(/\\(.)/g, (_, c: string) => (c === "\\" || c === '"' || c === "'" ? c : `\\${c}`));
}

/** A PHP pattern keeps its delimiters and flags inside the string: `'/^\d+$/i'`. */
function phpPattern(text: string): { source: string; flags: string } | null {
  const m = /^([^\w\s\\])([\s\S]*)\1([a-zA-Z]*)$/.exec(text);
  return m ? { source: m[2] as string, flags: (m[3] as string).includes("i") ? "i" : "" } : null;
}

/**
 * A pattern in JavaScript's dialect, or null: Python/Go/Rust named groups and leading
 * inline flags are rewritten; what JavaScript cannot read (possessive quantifiers,
 * verbose mode, Unicode classes it lacks) is skipped.
 */
function compile(source: string, flags: string): RegExp | null {
  if (source.length > MAX_PATTERN || nestedQuantifier(source)) return null;
  let s = source
    .replace(/\(\?P</g, "(?<")
    .replace(/\\A/g, "^")
    .replace(/\\[zZ]/g, "$");
  let f = flags.includes("i") ? "i" : "";
  const inline = /^\(\?([imsxU]+)\)/.exec(s);
  if (inline) {
    if ((inline[1] as string).includes("x")) return null;
    if ((inline[1] as string).includes("i")) f += "i";
    if ((inline[1] as string).includes("s")) f += "s";
    s = s.slice(inline[0].length);
  }
  try {
    return new RegExp(`^(?:${s})$`, [...new Set(f)].join(""));
  } catch {
    return null;
  }
}

/** `(a+)+`: a group repeated around a repeated part backtracks without end on a near miss. */
function nestedQuantifier(source: string): boolean {
  return /\((?:[^()\\]|\\.)*[*+](?:[^()\\]|\\.)*\)[*+{]/.test(source);
}

/** The regular expressions a file writes, each anchored to accept whole values only. */
export function codePatterns(path: string, text: string): RegExp[] {
  const found: RegExp[] = [];
  const add = (re: RegExp | null) => {
    if (re && !PLAIN.some((p) => re.test(p))) found.push(re);
  };
  if (/\.(?:js|jsx|mjs|cjs|ts|tsx|mts|cts|rb)$/.test(path)) {
    for (const m of text.matchAll(JS_LITERAL)) add(compile(m[1] as string, m[2] as string));
  }
  for (const [ext, call] of CALLS) {
    if (!ext.test(path)) continue;
    for (const m of text.matchAll(call)) {
      const body = literalText(m[1] as string);
      const php = path.endsWith(".php") ? phpPattern(body) : { source: body, flags: "" };
      if (php) add(compile(php.source, php.flags));
    }
  }
  return found;
}

/** The quoted values one of a file's patterns accepts. */
export function acceptedInputs(patterns: RegExp[], inputs: string[]): string[] {
  return inputs.filter((v) => patterns.some((re) => re.test(v)));
}

/** More files than this accepting the report's values: the values are too plain to tell. */
export const MAX_ACCEPTING = 3;

/**
 * The ranking with the files whose patterns accept a quoted value within the first
 * `places`: each takes the place of the lowest file there that is neither a leading file
 * nor a partner of one (`kept`), which moves just below them. A pair already found stays
 * whole; a file brought up by weaker evidence gives way.
 */
export function withAcceptingFiles(
  ranked: string[],
  accepting: string[],
  kept: Set<string>,
  places: number,
): string[] {
  let out = [...ranked];
  const keep = new Set(kept);
  for (const file of accepting) {
    const at = out.indexOf(file);
    if (at >= 0 && at < places) continue;
    const first = out.slice(0, places);
    const give = first.findLastIndex((f) => !keep.has(f));
    if (give < 0) continue;
    const rest = out.filter((f) => f !== file);
    const displaced = rest[give] as string;
    out = [...rest.slice(0, give), file, ...rest.slice(give + 1, places), displaced, ...rest.slice(places)];
    keep.add(file);
  }
  return out;
}
