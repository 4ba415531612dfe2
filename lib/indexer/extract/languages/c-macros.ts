/**
 * Declaration macros of C and C++ (`SPDLOG_INLINE`, `CJSON_CDECL`, `class FMT_API
 * format_error`, `) SPDLOG_NOEXCEPT {`) blanked before parsing. The grammar does not
 * expand macros, so such a token reads as a type and pushes the real return type into
 * the declarator (`std.shared_ptr get`), or breaks the parse so that a whole namespace
 * is lost. Like ctags' list of ignored identifiers, but found by position rather than
 * listed: an all-caps identifier beside the type of a function head, between `class`
 * and the class name, or after a parameter list. Blanking replaces characters by
 * spaces, so every offset and line stays what it was and names, signatures and spans
 * are read from the original text.
 */

/** An all-caps identifier: the way C and C++ projects spell macros. */
const MACRO = /^[A-Z][A-Z0-9_]*[A-Z0-9]$/;
/** Words of a head that are not its type. */
const SPECIFIERS = new Set(
  (
    "static inline extern virtual explicit constexpr consteval constinit friend const volatile " +
    "mutable register thread_local typename template struct class enum union signed unsigned " +
    "long short noexcept __inline __forceinline"
  ).split(" "),
);
/** First words of statements, never of a definition's head. */
const STATEMENTS = new Set(
  (
    "return if else while for switch case do goto throw sizeof new delete co_return co_await " +
    "co_yield using typedef namespace decltype static_assert alignof"
  ).split(" "),
);
const CLASS_HEAD =
  /\b(?:class|struct|union)\s+((?:[A-Z][A-Z0-9_]*[A-Z0-9]\s+)+)(?=[A-Za-z_]\w*\s*(?:[:{]|final\b|$))/;
const MACRO_WORD = /\b[A-Z][A-Z0-9_]*[A-Z0-9]\b/;
/** A line of nothing but macros (`FMT_BEGIN_EXPORT`, `SPDLOG_INLINE`). */
const MACRO_LINE = /^\s*[A-Z][A-Z0-9_]*[A-Z0-9](?:\s+[A-Z][A-Z0-9_]*[A-Z0-9])*\s*$/;
/** Names of the classes a file defines: a head named so is a constructor. */
const CLASS_NAME = /\b(?:class|struct)\s+(?:[A-Z][A-Z0-9_]*[A-Z0-9]\s+)*([A-Za-z_]\w*)\s*(?:final\s*)?[:{]/g;
const HEAD_PREFIX = /^[\s\w:<>,*&~]*$/;
/**
 * A word after a parameter list that qualifies the function rather than naming it: a
 * qualifier, an all-caps macro (`SPDLOG_NOEXCEPT`, `EXCLUSIVE_LOCKS_REQUIRED(mu)`), an
 * attribute (`__attribute__((…))`, `noexcept(…)`, `throw()`), each maybe with arguments.
 */
const ANNOTATION =
  /^(?:const|volatile|override|final|noexcept|throw|__attribute__|[A-Z][A-Z0-9_]*[A-Z0-9])\b/;

/** The source with declaration macros replaced by spaces (same length, same lines). */
export function blankDeclarationMacros(source: string): string {
  if (!/[A-Z][A-Z0-9_]*[A-Z0-9]/.test(source)) return source;
  const lines = source.split("\n");
  const classes = new Set(Array.from(source.matchAll(CLASS_NAME), (m) => m[1] as string));
  let inComment = false;
  let continued = false;
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const wasContinued = continued;
    continued = /\\\s*$/.test(line);
    if (inComment) {
      if (line.includes("*/")) inComment = false;
      continue;
    }
    const trimmed = line.trimStart();
    if (wasContinued || trimmed.startsWith("#") || trimmed.startsWith("//") || trimmed.startsWith("*"))
      continue;
    if (line.includes("/*") && /\/\*(?!.*\*\/)/.test(line)) inComment = true;
    // Most lines hold no all-caps word at all: nothing to blank.
    if (!MACRO_WORD.test(line)) continue;
    let blanked = blankLine(line, classes);
    if (blanked === line) blanked = blankHeadStart(line, lines, i, classes);
    if (blanked !== line) {
      lines[i] = blanked;
      changed = true;
    }
  }
  return changed ? lines.join("\n") : source;
}

/**
 * What the next line of code starts: a type or namespace (`template`, `class` …), a
 * function head (the text before its `(`), or nothing a macro line could belong to.
 * Blank lines, directives, comments and further macro lines may sit between.
 */
function nextDefinition(
  lines: string[],
  from: number,
  classes: ReadonlySet<string>,
): { kind: "type" } | { kind: "head"; prefix: string } | null {
  let inComment = false;
  for (let i = from; i < lines.length && i < from + 40; i++) {
    const line = lines[i] as string;
    if (inComment || /^\s*\/\*/.test(line)) {
      inComment = !line.includes("*/");
      continue;
    }
    if (!line.trim() || /^\s*(#|\/\/|\*)/.test(line) || MACRO_LINE.test(line)) continue;
    if (/^\s*(template\b|class\b|struct\b|union\b|enum\b|namespace\b|extern\b|typedef\b)/.test(line))
      return { kind: "type" };
    const prefix = line.slice(0, Math.max(0, line.indexOf("(")));
    return prefix && HEAD_PREFIX.test(prefix) && headMacros(prefix, classes) !== null
      ? { kind: "head", prefix: prefix.trim() }
      : null;
  }
  return null;
}

/**
 * Macros of a line that begins a head whose declarator comes on a later line: a macro
 * line (`SPDLOG_INLINE`, `FMT_BEGIN_EXPORT`) or a type and a macro (`void SPDLOG_INLINE`).
 * A lone all-caps word before a head without a type is that type (`HRESULT`).
 */
function blankHeadStart(line: string, lines: string[], i: number, classes: ReadonlySet<string>): string {
  if (line.includes("(") || !HEAD_PREFIX.test(line) || /[<>,]\s*$/.test(line)) return line;
  const next = nextDefinition(lines, i + 1, classes);
  if (!next) return line;
  if (next.kind === "type") return MACRO_LINE.test(line) ? blank(line) : line;
  const head = headMacros(`${line} ${next.prefix}`, classes);
  let out = line;
  for (const [a, b] of head ?? [])
    if (b <= line.length) out = out.slice(0, a) + " ".repeat(b - a) + out.slice(b);
  return out;
}

function blank(text: string): string {
  return text.replace(/[^\s]/g, " ");
}

function blankLine(line: string, classes: ReadonlySet<string>): string {
  const spans: Array<[number, number]> = [];
  const cls = CLASS_HEAD.exec(line);
  if (cls?.[1]) {
    const start = cls.index + cls[0].length - cls[1].length;
    spans.push([start, start + cls[1].trimEnd().length]);
  }
  // `operator=(`, `operator()(`: the operator's symbols are part of the name.
  const op = /\boperator\s*(?:\(\s*\)|[^\w\s(]+)/.exec(line);
  let open = line.indexOf("(");
  let prefix = line.slice(0, Math.max(open, 0));
  if (op && op.index <= open) {
    open = line.indexOf("(", op.index + op[0].length);
    prefix = line.slice(0, op.index) + "operator" + "_".repeat(Math.max(0, open - op.index - 8));
  }
  if (open > 0 && HEAD_PREFIX.test(prefix)) {
    const head = headMacros(prefix, classes);
    if (head) {
      spans.push(...head);
      const close = closingParen(line, open);
      if (close > 0) {
        for (const [a, b] of trailingMacros(line.slice(close + 1)))
          spans.push([close + 1 + a, close + 1 + b]);
      }
    }
  }
  let out = line;
  for (const [a, b] of spans) out = out.slice(0, a) + " ".repeat(b - a) + out.slice(b);
  return out;
}

/**
 * The macros and `__attribute__`s (with their arguments) among the annotations that
 * follow a parameter list, when nothing else stands between it and the body, the
 * initialiser list, `;`, `= …`, `->` or the line's end: an annotation macro with
 * arguments read as a call makes the grammar take its name for the function's.
 */
function trailingMacros(rest: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let i = 0;
  for (;;) {
    while (/\s/.test(rest[i] ?? "")) i++;
    const ch = rest[i];
    if (ch === undefined || "{:;=".includes(ch) || rest.startsWith("->", i)) return spans;
    if (ch === "&") {
      if (rest[i + 1] === "&" && rest[i + 2] === "&") return [];
      i += rest[i + 1] === "&" ? 2 : 1;
      continue;
    }
    const word = ANNOTATION.exec(rest.slice(i))?.[0];
    if (!word) return [];
    let end = i + word.length;
    let open = end;
    while (/\s/.test(rest[open] ?? "")) open++;
    if (rest[open] === "(") {
      const close = closingParen(rest, open);
      if (close < 0) return [];
      end = close + 1;
    }
    if (MACRO.test(word) || word === "__attribute__") spans.push([i, end]);
    i = end;
  }
}

/**
 * Macros among the words before a function's declarator, or null when the text is not
 * a definition's head (a statement, a call). The last all-caps word stays when no other
 * word could be the return type (`HRESULT Foo::Bar(…)`), unless the declarator is a
 * constructor or destructor, which has none.
 */
function headMacros(prefix: string, classes: ReadonlySet<string>): Array<[number, number]> | null {
  const declaratorStart = declaratorStartOf(prefix);
  const declarator = prefix.slice(declaratorStart).trim();
  if (!/^[~\w:<>, ]+$/.test(declarator) || !/[A-Za-z_]/.test(declarator)) return null;
  const words = [...prefix.slice(0, declaratorStart).matchAll(/[A-Za-z_]\w*|[<>]|::/g)];
  if (words.length === 0) return [];
  if (STATEMENTS.has(words[0]?.[0] ?? "")) return null;
  let depth = 0;
  const macros: Array<[number, number]> = [];
  let types = 0;
  words.forEach((w, i) => {
    const text = w[0];
    if (text === "<") depth++;
    else if (text === ">") depth = Math.max(0, depth - 1);
    if (depth > 0 || !/^[A-Za-z_]/.test(text) || SPECIFIERS.has(text)) return;
    const qualified = words[i - 1]?.[0] === "::" || words[i + 1]?.[0] === "::" || words[i + 1]?.[0] === "<";
    if (MACRO.test(text) && !qualified) macros.push([w.index, w.index + text.length]);
    else types++;
  });
  const parts = stripAngles(declarator).split("::");
  const last = parts[parts.length - 1] ?? "";
  const constructor =
    last.startsWith("~") ||
    (parts.length > 1 && parts[parts.length - 2] === last) ||
    (parts.length === 1 && classes.has(last));
  if (types === 0 && !constructor) macros.pop();
  return macros;
}

/** Where the declarator starts: after the last space, `*` or `&` outside template brackets. */
function declaratorStartOf(prefix: string): number {
  let depth = 0;
  for (let i = prefix.length - 1; i >= 0; i--) {
    const ch = prefix[i];
    if (ch === ">") depth++;
    else if (ch === "<") depth--;
    else if (depth <= 0 && (ch === " " || ch === "\t" || ch === "*" || ch === "&")) {
      // `operator <<`, `operator ==`: the space belongs to the declarator.
      if (/\boperator\s*$/.test(prefix.slice(0, i + 1))) continue;
      return i + 1;
    }
  }
  return 0;
}

function stripAngles(text: string): string {
  let out = text;
  for (let before = ""; before !== out;) [before, out] = [out, out.replace(/<[^<>]*>/g, "")];
  return out.replace(/\s+/g, "");
}

/** Index of the `)` closing the `(` at `open` on this line, or -1. */
function closingParen(line: string, open: number): number {
  let depth = 0;
  for (let i = open; i < line.length; i++) {
    const ch = line[i];
    if (ch === "(") depth++;
    else if (ch === ")" && --depth === 0) return i;
    else if (ch === '"' || ch === "'") return -1;
  }
  return -1;
}

/** A condition that holds only when building for Windows: its branch is left for the portable one. */
const WINDOWS_ONLY =
  /^\s*(?:defined\s*\(?\s*)?_*(?:WIN32|WIN64|WINDOWS|MSC_VER|MINGW32|MINGW64|CYGWIN)_*\s*\)?\s*(\/[/*].*)?$/;
const DIRECTIVE = /^\s*#\s*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b(.*)$/;

/**
 * One branch of every `#if … #elif … #else … #endif` (the first, or the next when the
 * first is `#if 0` or holds only on Windows), the others and the directives blanked: a preprocessor choice
 * that splits a statement (`#if X` around an `else if`) or a head parses as code only
 * when one branch is read. Used when a file does not parse as it is.
 */
export function firstPreprocessorBranches(source: string): string {
  const lines = source.split("\n");
  // Per open conditional: whether its current branch is read, and whether one was.
  const stack: Array<{ reading: boolean; taken: boolean }> = [];
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const directive = DIRECTIVE.exec(line);
    const outerReading = stack.every((c) => c.reading);
    let blank = !outerReading;
    if (directive) {
      const [, keyword, condition = ""] = directive;
      const never =
        /^\s*0\s*(\/[/*].*)?$/.test(condition) || (keyword !== "ifndef" && WINDOWS_ONLY.test(condition));
      if (keyword?.startsWith("if")) stack.push({ reading: !never, taken: !never });
      else if (keyword === "endif") stack.pop();
      else {
        const top = stack[stack.length - 1];
        if (top) {
          top.reading = !top.taken && !never;
          top.taken ||= top.reading;
        }
      }
      blank = true;
    }
    if (blank && line.trim()) {
      lines[i] = line.replace(/[^\s]/g, " ");
      changed = true;
    }
  }
  return changed ? lines.join("\n") : source;
}
