// Anchors: the concrete, searchable things inside a question or a pasted bug report —
// exception types, error messages, stack frames, code identifiers, file paths and the
// remaining keywords. Diagnostic retrieval looks these up in the code index (raise sites,
// error strings, frames) because a symptom's wording rarely embeds near its cause.
// Real issue text is messy (Markdown fences, tracebacks from several languages, absolute
// paths from someone else's machine), so every extractor here is defensive.

import { extractStackFrames, JAVA_FRAME, PY_FRAME, type StackFrame } from "./stack-frames.ts";
import { isPathLike, normalizePath } from "./written-paths.ts";

export interface Anchors {
  exceptionTypes: string[];
  messages: string[];
  stackFrames: StackFrame[];
  identifiers: string[];
  paths: string[];
  keywords: string[];
  /**
   * Strings a report names that code writes verbatim as string literals: command-line
   * options (`--collect-only`) and configuration keys (`ignore-paths = […]` in a config
   * snippet, `` `max-line-length` ``). Where such a string is written is where the option
   * is defined or read.
   */
  literals: string[];
}

const MAX_IDENTIFIERS = 25;
const MAX_IDENTIFIER_LENGTH = 120;
// Past this, pasted text is a log dump; the report itself is at the top.
const MAX_INPUT_CHARS = 60_000;
const MAX_KEYWORDS = 30;
const MAX_MESSAGE_LENGTH = 300;

const EXCEPTION_SUFFIX = "(?:Error|Exception|Warning|Exit|Interrupt|Fault|Panic|Failure)";
const QUALIFIED_EXCEPTION = new RegExp(
  `(?<![\\w$.])(?:[A-Za-z_]\\w*\\.)*(_*[A-Z][A-Za-z0-9_]*?${EXCEPTION_SUFFIX})(?![\\w$])`,
  "g",
);
// A qualified name's parts join with dots, or with backslashes in PHP (`Dotenv\Exception\X: msg`).
const EXCEPTION_WITH_MESSAGE = new RegExp(
  `(?:^|[\\s(>])(?:[A-Za-z_]\\w*[.\\\\])*(_*[A-Z][A-Za-z0-9_]*?${EXCEPTION_SUFFIX})\\s*:\\s+(\\S.*)$`,
);
// JavaScript prints a plain Error as "Error: msg" (and "Uncaught Error: msg"), anywhere in a sentence.
const BARE_ERROR = /(?:^|\s)(?:Uncaught\s+)?(?:Error|ERROR):\s+(\S.*)$/;
// C++ exceptions are namespaced snake_case classes: "fmt::format_error: invalid format
// specifier", "terminate called after throwing an instance of 'std::out_of_range'".
const CPP_EXCEPTION =
  /(?<![\w:])(?:[A-Za-z_]\w*::)+((?:[a-z][a-z0-9]*_)*(?:error|exception)|out_of_range|invalid_argument|bad_[a-z_]+)(?!\w|::)(?:'?:\s+(\S.*))?/g;
// What libstdc++ prints of an uncaught exception's message: "  what():  invalid format specifier".
const CPP_WHAT = /^\s*what\(\):\s+(\S.*)$/;
// Errno-style codes are matched verbatim in code ("ENOENT"), so they act like exception types.
const ERRNO_CODE =
  /\bE(?:NOENT|ACCES|PERM|EXIST|ADDRINUSE|CONNREFUSED|CONNRESET|TIMEDOUT|PIPE|ISDIR|NOTDIR|MFILE|NOTEMPTY|AGAIN)\b/g;
// "error: msg" (or a warning a tool logs for a failure it goes past: "warning: IO error for …"), and
// as command-line tools print it: "jq: error (at <stdin>:0): msg", "prog: error: msg";
// compilers put the place first: "src/jv.c:12:5: error: msg", "src/a.ts(12,5): error TS2345: msg".
const GENERIC_ERROR_LINE =
  /^\s*(?:[\w.-]+:\s+|[^\s:()]+(?::\d+){1,2}:\s*|[^\s:()]+\(\d+(?:,\d+)?\):\s*)?(?:fatal\s+)?(?:error|fatal|panic|warn(?:ing)?|uncaught\s+\w*error)\s*(?:\[[\w-]+\]|\([^)]*\)|[A-Z]+\d+)?\s*:\s+(\S.*)$/i;
// A logged line quoted inside a sentence, after the colon or verb that introduces it ("My
// program prints: warning: invalid logging spec 'x', ignoring it", "I get error: no such
// key"); a level word in prose without its colon ("a warning about the cache") is not one.
export const INLINE_LEVEL_MESSAGE =
  /(?:[:>]|\b(?:prints?|printed|says?|said|shows?|showed|gets?|got|see|saw|logs?|logged|reports?|outputs?|emits?|with))\s+(?:fatal\s+)?(?:error|warning|warn|fatal|panic)(?:\[[\w-]+\])?:\s+(\S.*)$/i;
// UndefinedBehaviorSanitizer: "src/jv.c:123:5: runtime error: signed integer overflow: …".
const UBSAN_LINE = /^\s*\S+:\d+(?::\d+)?:\s+runtime error:\s+(\S.*)$/;
// A compiler's message after the place, without an "error:" word (Go: "./main.go:12:3: undefined: foo").
const LOCATED_MESSAGE =
  /^\s*\.{0,2}\/?[\w@+~\-/]+\.(?:go|rs|c|cc|cpp|h|hpp|java|cs|ts|tsx|js|swift|kt):\d+(?::\d+)?:\s+(?!error\b|warning\b|note\b|in\b)([a-z][^:]{2,}:?\s.*)$/;
// Rust panics: "thread 'main' panicked at 'msg', src/lib.rs:1:2" (before 1.73), or the
// message on the line after "panicked at src/lib.rs:1:2:".
const RUST_PANIC_INLINE = /panicked at '(.+)',\s+\S+:\d+(?::\d+)?\s*$/;
const RUST_PANIC_PLACE = /panicked at\s+\S+:\d+(?::\d+)?:\s*$/;
// Sanitizers name the fault: "==42==ERROR: AddressSanitizer: heap-use-after-free on address …".
const SANITIZER_ERROR = /ERROR:\s+(\w+Sanitizer):\s+([\w-]+(?:\s+[\w-]+)*?)(?:\s+on\s+|\s*$|\s+\()/;
// Linkers name what is missing or twice defined: "undefined reference to `foo'",
// "multiple definition of `foo'", macOS `"_foo", referenced from:`, MSVC "unresolved external symbol … foo".
const LINKER_SYMBOL =
  /(?:undefined reference to|multiple definition of|undefined symbol:?)\s+[`'"]?([\w:~$.]+?)(?:\(.*?\))?[`'"]?(?:\s|$|;|,)|^\s+"_?([\w$]+)",\s+referenced from:|unresolved external symbol\s+(?:"[^"]*?\b(\w+)\(|(\w+))/;

// prettier-ignore
const STOP_IDENTIFIERS = new Set([
  "self", "cls", "this", "super", "none", "null", "nil", "undefined", "true", "false", "def", "class",
  "return", "import", "from", "as", "if", "elif", "else", "for", "while", "in", "is", "not", "and", "or",
  "new", "var", "let", "const", "function", "async", "await", "try", "except", "catch", "finally", "raise",
  "throw", "with", "yield", "lambda", "pass", "print", "len", "str", "int", "float", "bool", "dict", "list",
  "set", "tuple", "range", "type", "object", "isinstance", "console.log", "np", "pd", "plt", "sns", "os",
  "sys", "re", "e.g", "i.e", "etc", "vs", "main", "args", "kwargs", "__init__", "__main__", "<module>",
  "traceback", "error", "exception", "append", "min", "max", "exit",
]);

const STOPWORDS = new Set(
  `a about above after again against all also am an and any are aren't as at be because been before being
  below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during
  each even ever every few for from further get gets getting got had hadn't has hasn't have haven't having he
  her here hers him his how however i i'd i'll i'm i've if in into is isn't it it's its itself just know let
  like likely may maybe me might more most much must my myself need needs no nor not now of off on once one
  only or other our ours out over own per please perhaps quite rather really same see seems she should
  shouldn't since so some something still such than thanks thank that that's the their theirs them then there
  these they this those though through thus to too under until up upon us use used uses using very via want
  was wasn't way we well were weren't what what's when where whether which while who whom whose why will
  with within without won't would wouldn't yes yet you your yours hi hello anyone someone thing things
  example e.g i.e etc lot lots none true false null able actually currently already simply instead sure also think okay ok`
    .split(/\s+/)
    .filter(Boolean),
);

/** Extracts every anchor kind from free text (question, bug report, pasted log). */
export function extractAnchors(question: string): Anchors {
  const text = withoutEnvironment(question.slice(0, MAX_INPUT_CHARS).replace(/\r\n?/g, "\n"));
  const { prose, code } = splitFences(text);
  const stackFrames = extractStackFrames(text);
  const { exceptionTypes, messages: errorMessages } = extractErrors(text);
  const paths = extractPaths(prose, code, stackFrames);
  const messages = dedupe([...errorMessages, ...extractQuotedMessages(stripFrameLines(prose))]);
  const identifiers = rankIdentifiers(prose, code, stackFrames, new Set(exceptionTypes));
  const keywords = extractKeywords(prose, identifiers, exceptionTypes);
  const literals = extractLiterals(prose, code);
  return { exceptionTypes, messages, stackFrames, identifiers, paths, keywords, literals };
}

// `numpy: 1.18.5`, `numpy==1.18.5`, `numpy 1.18.5`, `seaborn version: 0.11.1`, `dask: None`:
// one package and its version (or None), as version dumps and `pip freeze` list them.
const VERSION_LINE =
  /^\s*[-*]?\s*[A-Za-z][\w.[\]-]*(?: version)?\s*(?::\s*|==|\s+)(?:v?\d+\.\d+[\w.+-]*(?:\s.*)?|None)\s*$/;
// `OS: Darwin`, `LANG: en_US.UTF-8`: a key and one word, the rest of such a dump.
const KEY_WORD_LINE = /^\s*[-*]?\s*[A-Za-z][\w.-]*:\s*\S+\s*$/;
// `attrs-23.1.0`: a package and its version as pip prints what it installed.
const PACKAGE_TOKEN = /^[A-Za-z][\w.]*-v?\d+\.\d+[\w.+-]*$/;

function isPackageListLine(line: string): boolean {
  if (/^\s*Successfully installed\b/i.test(line)) return true;
  let packages = 0;
  for (const token of line.split(/\s+/)) if (PACKAGE_TOKEN.test(token) && ++packages >= 4) return true;
  return false;
}

/**
 * The report without its environment dumps: runs of `package: version` lines (version
 * printers, `pip freeze`, `pip list`), package install lines, and a `<details>` block
 * holding such a run, its summary included ("Output of xr.show_versions()"). Bug
 * templates ask for them; their names and words say nothing about where the bug is, and
 * searched for they lead to the module that prints versions.
 */
export function withoutEnvironment(text: string): string {
  const lines = text.split("\n");
  const drop = new Array<boolean>(lines.length).fill(false);
  for (let i = 0; i < lines.length;) {
    if (!VERSION_LINE.test(lines[i] ?? "") && !KEY_WORD_LINE.test(lines[i] ?? "")) {
      i++;
      continue;
    }
    let end = i;
    let versions = 0;
    while (
      end < lines.length &&
      (VERSION_LINE.test(lines[end] ?? "") || KEY_WORD_LINE.test(lines[end] ?? ""))
    ) {
      if (VERSION_LINE.test(lines[end] ?? "")) versions++;
      end++;
    }
    if (versions >= 2) drop.fill(true, i, end);
    i = end;
  }
  lines.forEach((line, i) => {
    if (isPackageListLine(line)) drop[i] = true;
  });
  // A collapsed section that holds a dump is the dump, whatever else it says.
  let open = -1;
  lines.forEach((line, i) => {
    if (/<details\b/i.test(line)) open = i;
    if (/<\/details>/i.test(line) && open >= 0) {
      if (drop.slice(open, i + 1).some(Boolean)) drop.fill(true, open, i + 1);
      open = -1;
    }
  });
  return drop.some(Boolean) ? lines.filter((_, i) => !drop[i]).join("\n") : text;
}

/** Separates Markdown fenced blocks from the surrounding prose (an unclosed fence runs to the end). */
export function splitFences(text: string): { prose: string; code: string } {
  const prose: string[] = [];
  const code: string[] = [];
  let fence: string | null = null;
  for (const line of text.split("\n")) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1] ?? null;
    if (marker && (fence === null || marker.startsWith(fence))) {
      fence = fence === null ? marker : null;
      continue;
    }
    (fence === null ? prose : code).push(line);
  }
  return { prose: prose.join("\n"), code: code.join("\n") };
}

/** True for tokens shaped like code: snake_case, camelCase, PascalCase, dotted.names or calls(). */
export function looksLikeCode(token: string): boolean {
  const t = token.replace(/\(\)$/, "");
  if (!/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/.test(t)) return false;
  if (token.endsWith("()")) return true;
  return (
    /[a-z0-9]_[a-z0-9]|^_+[a-z0-9]|[A-Za-z0-9]__?[A-Z]/i.test(t) ||
    /[a-z][A-Z]/.test(t) ||
    /^[A-Z][a-z0-9]+[A-Z]/.test(t) ||
    (t.includes(".") && !STOP_IDENTIFIERS.has(t.toLowerCase()))
  );
}

function extractErrors(text: string): { exceptionTypes: string[]; messages: string[] } {
  const types: string[] = [];
  const messages: string[] = [];
  for (const m of text.matchAll(QUALIFIED_EXCEPTION)) if (m[1] && !isBareErrorWord(m[1])) types.push(m[1]);
  for (const m of text.matchAll(ERRNO_CODE)) types.push(m[0]);
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    const typed = EXCEPTION_WITH_MESSAGE.exec(line)?.[2] ?? BARE_ERROR.exec(line)?.[1];
    if (typed && !PY_FRAME.test(line)) messages.push(clipMessage(typed));
    else {
      const generic =
        UBSAN_LINE.exec(line) ??
        GENERIC_ERROR_LINE.exec(line) ??
        LOCATED_MESSAGE.exec(line) ??
        INLINE_LEVEL_MESSAGE.exec(line);
      if (generic?.[1]) messages.push(clipMessage(generic[1]));
    }
    const panic = RUST_PANIC_INLINE.exec(line)?.[1] ?? (RUST_PANIC_PLACE.test(line) ? lines[i + 1] : null);
    if (panic?.trim()) messages.push(clipMessage(panic));
    const sanitizer = SANITIZER_ERROR.exec(line);
    if (sanitizer?.[2]) messages.push(clipMessage(sanitizer[2]));
    for (const m of line.matchAll(CPP_EXCEPTION)) {
      if (m[1]) types.push(m[1]);
      // Written in a sentence, the message ends with it ("…: invalid format specifier. What raises it?").
      if (m[2] && !typed) messages.push(clipMessage(m[2].split(/[.?!](?:\s|$)/)[0] ?? m[2]));
    }
    const what = CPP_WHAT.exec(line)?.[1];
    if (what) messages.push(clipMessage(what));
  });
  const terminal = pythonTerminalLines(lines);
  for (const { type, message } of terminal) {
    types.push(type);
    if (message) messages.push(clipMessage(message));
  }
  return { exceptionTypes: dedupe(types), messages: dedupe(messages.filter((m) => m.length >= 3)) };
}

function isBareErrorWord(name: string): boolean {
  return new RegExp(`^_*${EXCEPTION_SUFFIX}$`).test(name);
}

// The last line of a Python traceback names the exception even when it is lower-case
// ("socket.error: [Errno 104] ..."), which the CamelCase pattern cannot see.
function pythonTerminalLines(lines: string[]): { type: string; message: string | null }[] {
  const found: { type: string; message: string | null }[] = [];
  let inTraceback = false;
  for (const line of lines) {
    if (/^\s*Traceback \(most recent call last\)/.test(line) || PY_FRAME.test(line)) {
      inTraceback = true;
      continue;
    }
    if (!inTraceback || /^\s/.test(line) || line.trim() === "") continue;
    const m = /^([A-Za-z_][\w.]*)(?::\s*(.*))?$/.exec(line.trim());
    if (m?.[1] && (m[1].includes(".") || /[A-Z]/.test(m[1]))) {
      const parts = m[1].split(".");
      const last = parts[parts.length - 1] ?? m[1];
      found.push({ type: /^_*[A-Z]/.test(last) ? last : m[1], message: m[2]?.trim() || null });
    }
    inTraceback = false;
  }
  return found;
}

/**
 * The question a sentence asks after the message it quotes ("…: bad input — what triggers
 * that?", "…not found. Why?"): not part of the message.
 */
const ASKED_AFTER =
  /(?:\s+[—–-]+\s+|(?<=[.!?])\s+)(?:what|why|how|where|which|who|when|any|is|does|can|could)\b[^.!?]*\?+\s*$/i;

function clipMessage(message: string): string {
  const m = message.trim().replace(/\s+/g, " ").replace(ASKED_AFTER, "");
  return m.length > MAX_MESSAGE_LENGTH ? `${m.slice(0, MAX_MESSAGE_LENGTH).trimEnd()}…` : m;
}

function extractQuotedMessages(prose: string): string[] {
  const out: string[] = [];
  // A Markdown blockquote is how a report quotes what it was told ("This issues this
  // error:\n> Using pytest.skip outside of a test is not allowed…"): a sentence of four
  // words or more there is searched like any other message.
  for (const m of prose.matchAll(/^[ \t]*>[ \t]?(.+)$/gm)) {
    const body = (m[1] ?? "").replace(/^[`*_]+|[`*_]+$/g, "").trim();
    if (body.split(/\s+/).filter((w) => /[A-Za-z]{2}/.test(w)).length >= 4) out.push(clipMessage(body));
  }
  // Words in backticks that read as a sentence (`invalid format spec`), not as code.
  for (const m of prose.matchAll(/`([^`\n]{8,200})`/g)) {
    const body = (m[1] ?? "").trim();
    const words = body.split(/\s+/);
    if (words.length >= 3 && words.every((w) => /^[A-Za-z][a-z'-]*[,.:;!?]?$/.test(w)))
      out.push(clipMessage(body));
  }
  // Quotes inside inline code (`"`, `'a'`) belong to the code, not to a quoted message.
  const quoted = /"([^"\n]{3,200})"|“([^”\n]{3,200})”|(?<![\w'])'([^'\n]{3,200})'(?![\w'])/g;
  for (const m of prose.replace(/`[^`\n]*`/g, (code) => " ".repeat(code.length)).matchAll(quoted)) {
    const body = (m[1] ?? m[2] ?? m[3] ?? "").trim();
    // A single quoted word is an identifier or option, not a message worth searching for.
    if (/\s/.test(body) && /[A-Za-z]{2}/.test(body)) out.push(clipMessage(body));
  }
  return out;
}

const MAX_LITERALS = 8;
// Options every command has; bug templates ask for `tool --version` output.
const EVERY_TOOL_OPTIONS = new Set(["help", "version"]);
// A long option: `--collect-only`, `--recursive=y` (the value is not part of the name).
const LONG_OPTION = /(?<![\w-])--([A-Za-z][\w]*(?:-[\w]+)*)(?![\w-])/g;
// A kebab-case name (`ignore-paths`, `max-line-length`): a key of a configuration file.
const KEBAB_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$/;
// `key = value` lines of a config snippet (ini, toml, cfg); not `name==1.0` pins of a
// package list, nor `name: value` lines, which version dumps are made of.
const CONFIG_KEY_LINE = /^\s*([a-z][a-z0-9]*(?:-[a-z0-9]+)+)\s*=(?!=)/gm;

// Keys of a YAML or JSON snippet made of two words or more (`max_retries: 3`,
// `"keepAlive": true`, `log-level:`): code reads a configuration key by that string.
const STRUCTURED_KEY =
  /(?:^\s*(?:-\s+)?|[{,]\s*)(?:"([A-Za-z][a-z0-9]*(?:(?:[_-][a-z0-9]+)+|(?:[A-Z][a-z0-9]+)+))"|([a-z][a-z0-9]*(?:[_-][a-z0-9]+)+))\s*:(?!:)/g;

/**
 * The keys of YAML or JSON in pasted code: only where two keys come within three lines
 * of each other (a document, not a lone `python-bits: 64` of a version printout).
 */
function structuredKeys(code: string): string[] {
  const found = code
    .split("\n")
    .map((line) => [...line.matchAll(STRUCTURED_KEY)].map((m) => (m[1] ?? m[2]) as string));
  return found.flatMap((keys, i) => {
    const near = found.slice(Math.max(0, i - 2), i + 3).reduce((n, k) => n + k.length, 0);
    return near >= 2 ? keys : [];
  });
}
// An environment variable as set or read in a shell (`LOG_LEVEL=debug`, `$JQ_COLORS`, `${GOZERO_MODE}`).
const ENV_VARIABLE =
  /(?:^|[\s`'"(])(?:export\s+)?\$?\{?([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\}?(?==|[\s`'")}]|$)/gm;
// Variables every shell has: naming them says nothing about the program.
const COMMON_ENV = new Set([
  "LD_LIBRARY_PATH",
  "NODE_ENV",
  "NODE_OPTIONS",
  "GOPATH",
  "GOROOT",
  "RUST_BACKTRACE",
  "RUST_LOG",
  "CARGO_HOME",
  "JAVA_HOME",
  "PYTHONPATH",
  "LC_ALL",
  "TERM_PROGRAM",
]);

// `Data variables:` at the start of a line of pasted output: a heading the program wrote,
// so a string literal somewhere starts with it. Two words or more, so that the reporter's
// own `Expected:` or `Output:` labels are not taken for the program's.
const OUTPUT_LABEL_LINE = /^\s*([A-Z][a-z]+(?: [a-z]+){1,3}):(?:\s|$)/gm;

function extractLiterals(prose: string, code: string): string[] {
  const out: string[] = [];
  const withoutUrls = (text: string) => text.replace(/\b(?:https?|ftp|file):\/\/\S+/gi, " ");
  for (const text of [prose, code]) {
    for (const m of withoutUrls(text).matchAll(LONG_OPTION)) {
      if (m[1] && m[1].length >= 2 && !EVERY_TOOL_OPTIONS.has(m[1].toLowerCase())) out.push(`--${m[1]}`);
    }
  }
  for (const m of prose.matchAll(/`([^`\n]{3,60})`/g)) {
    const name = (m[1] ?? "").trim();
    if (KEBAB_NAME.test(name)) out.push(name);
  }
  for (const m of code.matchAll(CONFIG_KEY_LINE)) if (m[1]) out.push(m[1]);
  out.push(...structuredKeys(code));
  for (const text of [prose, code])
    for (const m of text.matchAll(ENV_VARIABLE)) if (m[1] && !COMMON_ENV.has(m[1])) out.push(m[1]);
  for (const m of code.matchAll(OUTPUT_LABEL_LINE)) if (m[1]) out.push(m[1]);
  return dedupe(out).slice(0, MAX_LITERALS);
}

// A link to a file in a code browser: GitHub's and Gitea's `/blob/<ref>/<path>`, GitLab's
// `/-/blob/<ref>/<path>`, raw files, Bitbucket's `/src/<ref>/<path>`, optionally to a line.
const BROWSER_URL =
  /\bhttps?:\/\/(?:raw\.githubusercontent\.com\/[^/\s]+\/[^/\s]+|[^/\s]+\/[^\s]*?\/(?:blob|raw|src))\/[^/\s]+\/([^\s#?)>\]"'`]+)/gi;

/**
 * The files a report links to in a code browser (`…/blob/master/include/fmt/ranges.h#L285`):
 * the reporter pointing at the lines in question. A link into another project names a
 * path this repository lacks and so finds nothing.
 */
function linkedPaths(text: string): string[] {
  return [...text.matchAll(BROWSER_URL)]
    .map((m) => (m[1] ?? "").replace(/[.,;:!]+$/, ""))
    .filter(isPathLike)
    .map(normalizePath);
}

function extractPaths(prose: string, code: string, frames: StackFrame[]): string[] {
  const fromText = (text: string) => candidateTokens(text).filter(isPathLike).map(normalizePath);
  const proseFirst = [
    ...fromText(stripFrameLines(prose)),
    ...linkedPaths(prose),
    ...fromText(code),
    ...frames.map((f) => f.path),
  ];
  return dedupe(proseFirst.filter((p) => p.length > 0 && !p.includes("*")));
}

// Whitespace-and-punctuation tokens with any trailing ":12", ":12:5", "#L10" or sentence
// punctuation removed, so "seaborn/_core.py:" and "deps.py:10" both yield the bare path.
function candidateTokens(text: string): string[] {
  const tokens: string[] = [];
  const withoutWebUrls = text.replace(/\b(?:https?|ftp):\/\/\S+/gi, " ");
  for (const raw of withoutWebUrls.split(/[\s"'`()<>[\]{},;|=]+/)) {
    const t = raw
      .replace(/^file:\/\/+/i, "/")
      .replace(/#L\d+(?:-L?\d+)?$/, "")
      .replace(/(?::\d+){1,2}:?$/, "")
      .replace(/[.:!?]+$/, "");
    if (t) tokens.push(t);
  }
  return tokens;
}

function stripFrameLines(text: string): string {
  return text
    .split("\n")
    .filter(
      (l) => !PY_FRAME.test(l) && !JAVA_FRAME.test(l) && !/^\s+at\s/.test(l) && !/^\s*Traceback \(/.test(l),
    )
    .join("\n");
}

interface Candidate {
  score: number;
  first: number;
}

function rankIdentifiers(
  prose: string,
  code: string,
  frames: StackFrame[],
  exceptionTypes: ReadonlySet<string>,
): string[] {
  const candidates = new Map<string, Candidate>();
  let order = 0;
  const add = (name: string, score: number) => {
    const n = name.replace(/^(?:self|this|cls)\./, "").replace(/\(\)$/, "");
    if (!isUsefulIdentifier(n, exceptionTypes)) return;
    const existing = candidates.get(n);
    if (existing) existing.score += score;
    else candidates.set(n, { score, first: order++ });
    const last = n.includes(".") ? n.slice(n.lastIndexOf(".") + 1) : null;
    if (last && isUsefulIdentifier(last, exceptionTypes)) {
      const e = candidates.get(last);
      if (e) e.score += score * 0.9;
      else candidates.set(last, { score: score * 0.9, first: order++ });
    }
  };

  // Weights: a backticked name is the writer marking code (4); a call "name()" in prose (3);
  // snake_case, camelCase and dotted shapes (2); a lone PascalCase word may be a product (1).
  const inline = [...prose.matchAll(/`([^`\n]{1,120})`/g)].map((m) => m[1] ?? "");
  for (const span of inline) {
    const s = span.trim();
    if (/^[A-Za-z_$][\w$.]*(?:\(\))?$/.test(s) && !isPathLike(s)) add(s, 4);
    else mineCode(s, add, 1.5);
  }
  mineCode(code, add, 1);
  const plainProse = maskPaths(stripFrameLines(stripEmphasis(prose.replace(/`[^`\n]{1,120}`/g, " "))));
  for (const m of plainProse.matchAll(
    /(?<![\w$.])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(\(\))?(?![\w$])/g,
  )) {
    const token = m[1] ?? "";
    if (isDomainLike(token)) continue;
    if (m[2]) add(token, 3);
    else if (looksLikeCode(token))
      add(token, /^[A-Z][a-z0-9]+[A-Z]/.test(token) && !token.includes(".") ? 1 : 2);
  }
  for (const f of frames) if (f.func) add(f.func, 1.5);
  // What a linker could not find (or found twice) is the name to look up.
  for (const line of `${prose}\n${code}`.split("\n")) {
    const m = LINKER_SYMBOL.exec(line);
    const name = m?.[1] ?? m?.[2] ?? m?.[3] ?? m?.[4];
    if (name) add(name.replace(/::/g, "."), 4);
  }

  // Names that recur in the prose, or appear in the title line, are what the report is about.
  const counts = nameCounts(plainProse);
  const titleNames = nameCounts((prose.split("\n").find((l) => l.trim() !== "") ?? "").toLowerCase());
  for (const [name, c] of candidates) {
    c.score += Math.min(counts.get(name) ?? 0, 4) * 0.5;
    if (titleNames.has(name.toLowerCase())) c.score += 1;
  }
  return [...candidates.entries()]
    .sort((a, b) => b[1].score - a[1].score || a[1].first - b[1].first)
    .slice(0, MAX_IDENTIFIERS)
    .map(([name]) => name);
}

// Markdown emphasis ("_No response_") would otherwise read as a leading-underscore name.
function stripEmphasis(text: string): string {
  return text
    .replace(/(?<![\w])_([^_\n]*\s[^_\n]*)_(?![\w])/g, " $1 ")
    .replace(/\*\*?([^*\n]+)\*\*?/g, " $1 ");
}

// Path segments ("_core" in "seaborn/_core.py") must not be mistaken for identifiers.
function maskPaths(text: string): string {
  return text.replace(/\b(?:https?|ftp|file):\/\/\S+/gi, " ").replace(/[\w@.+~\-/\\:]+/g, (tok) => {
    const bare = tok.replace(/(?::\d+){0,2}:?$/, "").replace(/[.:]+$/, "");
    return isPathLike(bare) ? " " : tok;
  });
}

function mineCode(code: string, add: (name: string, score: number) => void, weight: number): void {
  for (const m of code.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\(/g)) {
    if (m[1]) add(m[1], 2 * weight);
  }
  for (const m of code.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*)\s*=(?!=)/g)) {
    if (m[1] && looksLikeCode(m[1])) add(m[1], weight);
  }
  for (const m of code.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)(?![\w$(])/g)) {
    if (m[1] && !isPathLike(m[1]) && !isDomainLike(m[1])) add(m[1], weight);
  }
  for (const m of code.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*)(?![\w$.(])/g)) {
    if (m[1] && looksLikeCode(m[1])) add(m[1], weight * 0.5);
  }
}

function isUsefulIdentifier(name: string, exceptionTypes: ReadonlySet<string>): boolean {
  if (name.length < 2 || name.length > MAX_IDENTIFIER_LENGTH || STOP_IDENTIFIERS.has(name.toLowerCase())) {
    return false;
  }
  const last = name.slice(name.lastIndexOf(".") + 1);
  if (exceptionTypes.has(name) || exceptionTypes.has(last) || isBareErrorWord(last)) return false;
  if (!looksLikeCode(name) && STOPWORDS.has(name.toLowerCase())) return false;
  return !/^[a-z]$/i.test(name);
}

function isDomainLike(token: string): boolean {
  return /\.(?:com|org|net|io|dev|local|edu|gov|co|uk|de)$/i.test(token);
}

// Occurrences of every name in the text, counting "sns.pairplot" as "sns.pairplot",
// "sns", "pairplot" and the dotted suffixes, so a candidate is found however it was written.
function nameCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const bump = (name: string) => counts.set(name, (counts.get(name) ?? 0) + 1);
  for (const m of text.matchAll(/(?<![\w$.])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?![\w$])/g)) {
    const parts = m[0].split(".");
    // Suffixes longer than a few segments are never candidates; skipping them keeps this linear.
    for (let i = Math.max(0, parts.length - 4); i < parts.length; i++) bump(parts.slice(i).join("."));
    for (const part of parts.slice(0, -1)) bump(part);
  }
  return counts;
}

function extractKeywords(prose: string, identifiers: string[], exceptionTypes: string[]): string[] {
  const taken = new Set([...identifiers, ...exceptionTypes].map((s) => s.toLowerCase()));
  const cleaned = maskPaths(stripFrameLines(prose).replace(/`[^`\n]*`/g, " "));
  const lines = cleaned.split("\n");
  const titleIndex = lines.findIndex((l) => l.trim() !== "");
  const stats = new Map<string, { count: number; first: number; title: boolean }>();
  let position = 0;
  lines.forEach((line, i) => {
    for (const m of line.matchAll(/[A-Za-z][A-Za-z'-]*[A-Za-z]/g)) {
      const word = m[0].toLowerCase().replace(/'s$/, "");
      if (word.length < 3 || STOPWORDS.has(word) || taken.has(word)) continue;
      const s = stats.get(word) ?? { count: 0, first: position++, title: false };
      s.count += 1;
      s.title ||= i === titleIndex;
      stats.set(word, s);
    }
  });
  return [...stats.entries()]
    .sort((a, b) => keywordScore(b[1]) - keywordScore(a[1]) || a[1].first - b[1].first)
    .slice(0, MAX_KEYWORDS)
    .map(([w]) => w);
}

function keywordScore(s: { count: number; title: boolean }): number {
  return s.count + (s.title ? 1 : 0);
}

function dedupe(values: string[]): string[] {
  return [...new Set(values)];
}
