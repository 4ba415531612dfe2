/**
 * Which of a function's calls lie off its main line: a call in a condition (`if
 * logger.IsLevelEnabled(level) {`, `exit(false) if exit_on_failure?`, `assert!(is_valid(x))`), in
 * an error handler (`rescue`, `except`, `catch`, `finally`, Go's `if err != nil {`) or in a block
 * that returns early (`if not enabled: log_skip(); return`). Such calls decide whether the work
 * is done or clean up after it failed; the flow a question follows goes on in the calls that do
 * the work. Read from the function's own lines, in any language, by the shape of its blocks.
 */

/** A stored call of a function: the name called and the line it is written on. */
interface WrittenCall {
  name: string;
  line: number;
}

/**
 * The names of the calls written in `lines` (the whole file, 1-based call lines) that lie off
 * the main line only: a name also called on the main line somewhere in the function is not one.
 */
export function sideCalls(
  lines: readonly string[],
  calls: readonly WrittenCall[],
  startLine: number,
): { conditions: Set<string>; handlers: Set<string> } {
  const conditions = new Set<string>();
  const handlers = new Set<string>();
  const main = new Set<string>();
  for (const c of calls) {
    const off = offMainLine(lines, c, startLine);
    (off === "condition" ? conditions : off === "handler" ? handlers : main).add(c.name);
  }
  for (const name of main) {
    conditions.delete(name);
    handlers.delete(name);
  }
  return { conditions, handlers };
}

/**
 * Where one call lies off the main line: in a condition, or in an error handler or a block that
 * returns early (`handler`); null on the main line.
 */
export function offMainLine(
  lines: readonly string[],
  call: WrittenCall,
  startLine: number,
): "condition" | "handler" | null {
  const text = lines[call.line - 1];
  if (text === undefined) return null;
  if (inCondition(text, call.name)) return "condition";
  // A call on a line of its own: the block it is written in, found by indentation.
  const indent = indentOf(text);
  for (let i = call.line - 2; i >= Math.max(0, startLine - 1); i--) {
    const header = lines[i] as string;
    if (header.trim() === "" || COMMENT.test(header)) continue;
    if (indentOf(header) >= indent) continue;
    const head = header.trim();
    if (HANDLER.test(head) || ERROR_CONDITION.test(head)) return "handler";
    if (CONDITION_HEAD.test(head))
      return returnsEarly(lines, i, call.line) && !RETURN.test(text.trim()) ? "handler" : null;
    return null;
  }
  return null;
}

/**
 * A check a condition calls (`IsLevelEnabled`, `exit_on_failure?`, `is_valid`): named as a
 * predicate, or a few lines long. A condition calling a function that does the work and says
 * whether it succeeded (`if rt.Match(req, &match) {`, a loop over the routes) is the main line.
 */
export function isCheck(s: { name: string; startLine: number; endLine: number }): boolean {
  return PREDICATE.test(s.name) || s.endLine - s.startLine < CHECK_LINES;
}

/** A predicate's name: `is_enabled`, `hasNext`, `canRetry`, `exit_on_failure?`, `IsLevelEnabled`, `shouldSkip`. */
const PREDICATE =
  /^(?:is|has|can|should|must|needs?|allow)(?:[A-Z_]|$)|\?$|(?:Enabled|_enabled|Allowed|_allowed)$/i;

/** A function this many lines long or more does work beyond a check (signature and end included). */
const CHECK_LINES = 6;

/**
 * Whether the call is written in the condition of an `if` / `elif` / `unless` / `assert` on its
 * line, or after a trailing `if` / `unless` (`exit(false) if exit_on_failure?`); not in a Go
 * statement before the condition (`if err := run(); err != nil`) nor a pattern's scrutinee (`if
 * let Some(x) = stack.pop()`).
 */
function inCondition(text: string, name: string): boolean {
  const line = text.trim();
  const at = (part: string) => new RegExp(`(?<![\\w$])${escape(name)}(?![\\w$])`).test(part);
  const head = CONDITION_LINE.exec(line);
  if (head) {
    if (/^(?:if|while)\s+let\b/.test(line.replace(/^}\s*else\s+/, ""))) return false;
    let condition = line.slice(head[0].length);
    // The body written on the same line (`if (x) { run(); }`) is no part of the condition.
    const open = condition.search(/\{\s*\S/);
    if (open >= 0) condition = condition.slice(0, open);
    // Go's statement before its condition (`if err := run(); err != nil`), never in parentheses.
    const init = condition.startsWith("(") || head[0].includes("(") ? -1 : condition.indexOf(";");
    if (init >= 0) condition = condition.slice(init + 1);
    return at(condition);
  }
  const trailing = TRAILING_CONDITION.exec(line);
  return !!trailing && at(line.slice(trailing.index + trailing[0].length).split(/\selse\s/)[0] ?? "");
}

/**
 * Whether the block under the header at `header` (0-based) leaves the function or loop early (a
 * `return`, `raise`, `throw`, `continue` …) rather than going on after it.
 */
function returnsEarly(lines: readonly string[], header: number, callLine: number): boolean {
  const indent = indentOf(lines[header] as string);
  for (let i = header + 1; i < lines.length && i < header + EARLY_BLOCK_LINES; i++) {
    const text = lines[i] as string;
    if (text.trim() === "") continue;
    if (indentOf(text) <= indent) return false;
    if (i + 1 !== callLine && EXIT.test(text.trim())) return true;
  }
  return false;
}

function indentOf(text: string): number {
  return /^[ \t]*/.exec(text)?.[0].length ?? 0;
}

function escape(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A line that starts a condition: `if`, `elif`, `elsif`, `else if`, `unless`, `assert`, `guard`. */
const CONDITION_LINE =
  /^(?:}\s*)?(?:else\s+if|elif|elsif|if|unless|guard)\b\s*|^(?:debug_)?assert(?:_eq|_ne)?!\s*\(|^assert\s+/;

/** A trailing condition (`raise Error unless valid?`, `x = a if ready() else b`). */
const TRAILING_CONDITION = /\s(?:if|unless)\s/;

/** The header of a block whose calls run under a condition. */
const CONDITION_HEAD = /^(?:}\s*)?(?:else\s+if|elif|elsif|if|unless)\b/;

/** The header of an error handler's block. */
const HANDLER = /^(?:}\s*)?(?:catch|except|rescue|finally|ensure)\b/;

/** A condition on an error having happened (`if err != nil {`, `if (error) {`, `if exc is not None:`). */
const ERROR_CONDITION =
  /^(?:}\s*)?(?:else\s+if|elif|if)\b.*\b(?:err\w*\s*!=\s*nil|\(\s*!?\s*err(?:or)?\s*\))/i;

/**
 * A statement that leaves the block early with nothing made of it: a bare `return`, one of no
 * value, a failure or an error, a raise, a jump out of the loop (`return resp` hands a result on
 * and says nothing).
 */
const EXIT =
  /^(?:return(?:\s+(?:None|nil|null|undefined|false|False|true|True|-?\d+|\w*[Ee]rr(?:or)?\w*|Err\(.*\)|\w*[Ee]rror\(.*\)))?\s*;?$|raise\b|throw\b|panic!?\s*\(|continue\b|break\b|next\s*$|exit\b|abort\b)/;

const RETURN = /^return\b/;

const COMMENT = /^\s*(?:\/\/|#(?![[!])|\*|\/\*|--)/;

/** How far below its header an early exit is looked for. */
const EARLY_BLOCK_LINES = 12;
