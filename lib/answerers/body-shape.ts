/**
 * The shape of a function's body, read from its source in any language: its statements
 * (the lines after the signature that are not comments, docstrings or closing brackets),
 * and whether it decides anything or only stores or hands on. A setter
 * (`r.strictSlash = value; return r`, `default_options[:follow_redirects] = value`), a
 * getter or a one-call wrapper is named like the thing a question asks about but decides
 * nothing: the code that reads the setting does. A symbol's span often starts at its doc
 * comment, so the span's length says nothing about its body.
 */

/** A comment or docstring line, in the languages the index reads. */
const COMMENT = /^(?:#(?![[!])|\/\/|\/\*|\*|--|<!--|;;|"""|''')/;
/** A line holding only brackets, `end` or a lone keyword closing a block. */
const CLOSING = /^(?:[)\]}]+[;,)]*|end|\{|\)\s*\{|\)\s*(?:->\s*[^{]*)?\{)$/;
/** A decorator, attribute or annotation above a signature. */
const ATTRIBUTE = /^(?:@\w|#\[|\[\w[^\]]*\]$)/;
/** A statement that tests or computes something. */
const DECIDES =
  /^(?:if|for|foreach|while|switch|match|unless|case|when|guard|loop)\b|\?.*:|&&|\|\||[<>]=?|[!=]==?|[*/%+-]\s*[\w(]/;
/** An assignment to a field, index or variable (`a.b = x`, `opts[:k] = v`, `@x = y`, `self.x = x;`). */
const ASSIGNMENT = /^(?:[\w$@]+(?:\s*(?:\.|->|::)\s*[\w$]+|\[[^\]]*\])*)\s*(?:\|\||\?\?)?=\s*[^=]/;
/**
 * A check of what a setter is given before it stores it: an assertion or precondition
 * call (`Assert.isTrue(…)`, `assertAny(…)`, `Objects.requireNonNull(…)`, `assert!(…)`,
 * `check_arg(…)`), or a failure raised (`throw`, `raise`, `panic!`, a returned Go or Rust
 * error).
 */
const GUARD =
  /^(?:[\w$]+\s*(?:\.|::|->)\s*)*(?:assert|require|check|ensure|validate|precondition|verify)\w*(?:\.\w+)?!?\s*\(|^(?:Assert|Preconditions|Validate|Guard|Objects|Argument\w*Exception)\s*(?:\.|::)\s*\w+\s*\(|^(?:throw|raise|panic!?)\b|^return\s+(?:Err\b|err\b|nil,\s*err\b|errors\.New\b|fmt\.Errorf\b)/i;
/** Handing back the receiver (`return r`, `self`, `return this;`), not a bare call (Ruby `perform`) or `else`. */
const RECEIVER = /^(?:return\s+[\w$@]+|self|this|\$this|[a-z]{1,2});?$/;
/** A condition opening a block or a one-line guard (`if n == 0 {`, `if (x < 0) throw …`, `unless v`). */
const CONDITION = /^(?:if|unless)\b/;
/** A one-line condition storing a corrected value (`if n == 0 { n = 1 }`, `if (n < 1) n = 1;`). */
const INLINE_CLAMP = /(?:\{|\))\s*[\w$@.>-]+\s*=\s*[^=]/;
/** A unit conversion in a stored value (`seconds * MILLIS_PER_SECOND`, `ms / 1000`): no decision. */
const CONVERSION = /\s*[*/]\s*(?:[A-Z][A-Z0-9_]{2,}|\d+(?:\.\d+)?)\b/g;

export interface BodyShape {
  /** the body's statement lines, trimmed */
  statements: string[];
  /** some statement tests or computes something */
  decides: boolean;
  /** stores what it is given and hands back at most the receiver */
  setter: boolean;
  /** one statement that neither tests nor computes: a getter or a wrapper handing the work on */
  handsOn: boolean;
}

/**
 * Where a definition's body starts (0-based): after its leading comments and attributes
 * and its signature, which runs over several lines while its brackets are open, and on
 * through a Rust `where` clause or a Java `throws` list to the line opening the body.
 */
export function bodyStart(lines: readonly string[]): number {
  let i = 0;
  const trimmed = lines.map((l) => l.trim());
  while (
    i < trimmed.length &&
    (!trimmed[i] || COMMENT.test(trimmed[i] as string) || ATTRIBUTE.test(trimmed[i] as string))
  )
    i++;
  // A C or C++ return type or template head on a line of its own (`static int`,
  // `template <typename T>`) leaves the name and its parameters to the next line.
  const first = trimmed[i] ?? "";
  if (
    /^[\w:<>*&\s,]+$/.test(first) &&
    !/^(?:def|sub|fn|func|function|class|module|end)\b/.test(first) &&
    /^[\w:<>*&~\s]+\(/.test(trimmed[i + 1] ?? "")
  )
    i++;
  // The signature runs while its parentheses are open.
  let open = 0;
  do {
    const line = trimmed[i] ?? "";
    open += (line.match(/\(/g) ?? []).length - (line.match(/\)/g) ?? []).length;
    i++;
  } while (open > 0 && i < trimmed.length);
  // A Rust `where` clause or a Java `throws` list runs on to the line opening the body.
  if (/^(?:where|throws)\b/.test(trimmed[i] ?? "")) {
    while (i < trimmed.length && !/\{$/.test(trimmed[i] as string)) i++;
    i++;
  }
  return Math.min(i, trimmed.length);
}

/**
 * Where a definition's signature starts when its span opens with a block comment whose lines
 * need not start with `*` (free text, `@default true`, then the closing mark, as JavaScript
 * and TypeScript libraries often write them): the line after the comment, else 0.
 */
export function pastLeadingComment(lines: readonly string[]): number {
  let i = 0;
  while (i < lines.length && !(lines[i] as string).trim()) i++;
  if (!(lines[i] ?? "").trim().startsWith("/*")) return 0;
  while (i < lines.length && !(lines[i] as string).includes("*/")) i++;
  return Math.min(i + 1, lines.length);
}

/** Where a definition's body starts, past a leading block comment and the signature. */
export function bodyStartPastDoc(lines: readonly string[]): number {
  const doc = pastLeadingComment(lines);
  return doc + bodyStart(lines.slice(doc));
}

/** The statements of the definition spanning `span` in a file's lines (1-based, inclusive). */
export function spanStatements(
  lines: readonly string[],
  span: { startLine: number; endLine: number },
): string[] {
  return bodyStatements(lines.slice(span.startLine - 1, span.endLine));
}

/** The statements of a definition's body: comments, docstrings and closing lines left out. */
export function bodyStatements(lines: readonly string[]): string[] {
  const out: string[] = [];
  let docstring = false;
  let block = false;
  for (const line of lines.slice(bodyStart(lines)).map((l) => l.trim())) {
    // A block comment's lines need not start with `*` (`/**` … `*/` around free text).
    if (block || line.startsWith("/*")) {
      block = !line.includes("*/");
      continue;
    }
    const quotes = (line.match(/"""|'''/g) ?? []).length;
    if (docstring || quotes > 0) {
      if (quotes % 2 === 1) docstring = !docstring;
      continue;
    }
    if (!line || COMMENT.test(line) || CLOSING.test(line)) continue;
    out.push(line);
  }
  return out;
}

/**
 * The fields a type declares, read from its body in any language: `limit?: number`
 * (TypeScript), `pub limit: u32` (Rust), `Limit int` (Go), `private int limit;` (Java),
 * `public int Limit { get; set; }` (C#), `limit: int = 3` (Python). Methods are left out.
 */
export function declaredFields(lines: readonly string[]): string[] {
  const out = new Set<string>();
  for (const s of bodyStatements(lines)) {
    if (/\(.*\)\s*(?:\{|=>|:\s*$|;$|->)/.test(s) && !/^\w+\??\s*:/.test(s)) continue;
    const name =
      /^(?:(?:pub(?:\([\w:]+\))?|readonly|public|private|protected|internal|static|final|var|let|const)\s+)*([A-Za-z_$][\w$]*)\??\s*:(?!:)/.exec(
        s,
      )?.[1] ??
      /^([A-Za-z_]\w*)\s+[*[\]\w.]+(?:\s+`[^`]*`)?$/.exec(s)?.[1] ??
      /^(?:(?:public|private|protected|internal|static|final|readonly|volatile|transient)\s+)+[\w<>[\],.?]+\s+([A-Za-z_]\w*)\s*(?:[;=]|\{\s*get)/.exec(
        s,
      )?.[1];
    if (name && name.length >= 3 && !GENERAL.has(name.toLowerCase())) out.add(name);
  }
  return [...out];
}

/** What a definition's body does, from its source lines (its signature first). */
export function bodyShape(lines: readonly string[]): BodyShape {
  const statements = bodyStatements(lines);
  const decides = statements.some((s) => DECIDES.test(s));
  return { statements, decides, setter: storesOnly(statements), handsOn: statements.length <= 1 && !decides };
}

/**
 * Whether a body only stores what it is given (one to three assignments) and hands back
 * at most the receiver, once its checks of the argument are set aside: an assertion or
 * a raised failure (`Assert.isTrue(seconds <= MAX, …)`, `if v < 0 { return Err(…) }`) and
 * a clamp of the value (`if n == 0 { n = 1 }`, `if self.max < self.min { self.min = self.max }`)
 * decide nothing of what the stored setting does: the code reading it does. An `else`
 * branch chooses between two stores, which is a decision.
 */
function storesOnly(statements: readonly string[]): boolean {
  let assignments = 0;
  for (let i = 0; i < statements.length; i++) {
    const s = statements[i] as string;
    if (GUARD.test(s) || RECEIVER.test(s)) continue;
    if (CONDITION.test(s)) {
      if (GUARD.test(s.replace(CONDITION, "").replace(/^.*?[)}]\s*/, "")) || INLINE_CLAMP.test(s)) continue;
      const next = statements[i + 1] ?? "";
      if (GUARD.test(next) || ASSIGNMENT.test(next)) {
        if (ASSIGNMENT.test(next)) assignments++;
        i++;
        continue;
      }
      return false;
    }
    if (!ASSIGNMENT.test(s) || DECIDES.test(s.replace(CONVERSION, ""))) return false;
    assignments++;
  }
  return assignments > 0 && assignments <= 3;
}

/** Names too general to say which option a setter stores. */
const GENERAL = new Set([
  "value",
  "values",
  "options",
  "option",
  "config",
  "data",
  "state",
  "result",
  "self",
  "this",
]);

/**
 * The fields or option keys a setter stores (`r.strictSlash = value` → strictSlash,
 * `default_options[:follow_redirects] = value` → follow_redirects, `@timeout = t` →
 * timeout): the names the code that decides reads back.
 */
export function assignedFields(statements: readonly string[]): string[] {
  const out = new Set<string>();
  for (const s of statements) {
    const target = /^(.*?)\s*(?:\|\||\?\?)?=\s*[^=]/.exec(s)?.[1];
    if (!target || !ASSIGNMENT.test(s)) continue;
    const name = /([A-Za-z_$][\w$]*)["']?\s*\]?$/.exec(target)?.[1];
    if (name && name.length >= 4 && !GENERAL.has(name.toLowerCase())) out.add(name);
  }
  return [...out];
}

/**
 * A test or a formula, read strictly: a control keyword, a ternary, a boolean operator, a
 * comparison or arithmetic written between spaces. The arrows (`=>`, `->`), generics
 * (`List<T>`) and paths that the broader DECIDES takes for comparisons are not tests.
 */
const TESTS =
  /^(?:if|elif|for|foreach|while|switch|match|unless|case|when|guard|loop|do)\b|\s\?\s|\?\?|&&|\|\||\s[<>]=?\s|[!=]==?|\s[*/%+-]\s|\*\*/;
/** A call handed back or made last (`return self::create($r)`, `=> b.SetValidator(v)`, `next(req)`). */
const CALL_LAST = /^(?:return\s+|=>\s*)?(?:new\s+)?[\w$@:.\->!?[\]]+(?:<[^()]*>)?\s*\(.*\)[;)]*$/;

/**
 * A body that forwards: at most three statements, none testing or computing anything, the
 * last a call it hands the work to (`var v = new EmailValidator(mode); return
 * builder.SetValidator(v)`). The function it calls decides.
 */
export function forwards(lines: readonly string[]): boolean {
  const statements = bodyStatements(lines);
  const last = statements.at(-1) ?? "";
  return (
    statements.length > 0 &&
    statements.length <= 3 &&
    !statements.some((s) => TESTS.test(s)) &&
    CALL_LAST.test(last.replace(/^[\w$<>[\],.?\s]*\s=>\s*/, "=> "))
  );
}

/** A body that decides nothing itself: a setter, a getter or a wrapper handing the work on. */
export function decidesNothing(lines: readonly string[]): boolean {
  const shape = bodyShape(lines);
  return shape.setter || shape.handsOn;
}
