/**
 * Stack frames in pasted text, in every language's shape (Python, IPython, Rust
 * backtraces, sanitizers, gdb, Java, JavaScript, Go, Ruby, PHP, C#, native), deduplicated
 * and ordered innermost first, each with its path as the repository most likely has it
 * and its function's name.
 */
import { isPathLike, normalizePath } from "./written-paths.ts";

export interface StackFrame {
  path: string;
  line: number | null;
  func: string | null;
}

export function extractStackFrames(text: string): StackFrame[] {
  const frames: StackFrame[] = [];
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    const found =
      parseFrameLine(line, lines[i - 1] ?? "") ?? parseLegacyIPythonFrame(line, lines.slice(i + 1, i + 12));
    if (found) frames.push(found);
  });
  return dedupeFrames(frames);
}

// Older IPython prints "path in func(args)" and marks the failing line with "-> 2144" below it.
function parseLegacyIPythonFrame(line: string, following: string[]): StackFrame | null {
  const m = /^\[?((?:[A-Za-z]:)?[^\s[\]()]+\.py)\]?(?:\([^)]*\))?\s+in\s+([\w<>]+)\(/.exec(line.trim());
  if (!m?.[1] || !m[2]) return null;
  const arrow = following.map((l) => /^-+>\s*(\d+)/.exec(l.trim())?.[1]).find(Boolean);
  return frame(m[1], arrow ?? "", cleanFunc(m[2]));
}

export const PY_FRAME = /\bFile "([^"]+)", line (\d+)(?:, in ([\w.<>]+))?/;
// Rust: a backtrace entry names the function (`  12: tracing::span::Span::enter`) and the
// next line its place (`at ./tracing/src/span.rs:123:9`); a panic names its place
// (`panicked at src/lib.rs:10:5:`, older releases `panicked at 'msg', src/lib.rs:10:5`).
const RUST_BACKTRACE_FUNC = /^\s*\d+:\s+(?:0x[0-9a-f]+\s+-\s+)?(\S.*?)\s*$/;
const RUST_BACKTRACE_AT = /^\s+at\s+((?:[A-Za-z]:)?[^\s:]+\.rs):(\d+)(?::\d+)?\s*$/;
// AddressSanitizer and friends: `#0 0x4f5e3c in jv_free /src/jq/src/jv.c:1234:5`, and the
// summary line `SUMMARY: AddressSanitizer: heap-use-after-free src/jv.c:1234:5 in jv_free`.
const SANITIZER_FRAME = /#\d+\s+0x[0-9a-f]+\s+in\s+(\S+)\s+((?:[A-Za-z]:)?[^\s():]+\.\w+):(\d+)(?::\d+)?/;
const SANITIZER_SUMMARY =
  /^SUMMARY:\s+\w+Sanitizer:\s+\S+\s+((?:[A-Za-z]:)?[^\s():]+\.\w+):(\d+)(?::\d+)?\s+in\s+(\S+)/;
// gdb's innermost frame has no address: `#0  jv_free (j=...) at src/jv.c:123`.
const GDB_FRAME = /^\s*#\d+\s+([\w:~]+)\s*\(.*\)\s+at\s+(\S+\.(?:c|cc|cpp|cxx|h|hpp|rs|go|m|mm)):(\d+)/;
// tsc and MSVC write the place as `path(line,col)` / `path(line)`: `src/a.ts(12,5): error TS2345: …`.
const PAREN_LOCATION =
  /((?:[A-Za-z]:)?[\w@.+~\-/\\]+\.[A-Za-z0-9]+)\((\d+)(?:,\d+)?\)\s*:\s*(?:fatal\s+)?(?:error|warning)\b/;
const IPY_FRAME = /^\s*File\s+([^\s,]+?):(\d+),\s+in\s+([\w.<>]+)/;
export const JAVA_FRAME = /\bat\s+([\w$.<>]+)\(([\w$]+\.(?:java|kt|scala|groovy)):(\d+)\)/;
const JS_FRAME =
  /\bat\s+(?:async\s+)?(?:(?:new\s+)?([^\s(]+)(?:\s+\[as [^\]]+\])?\s+\()?((?:file:\/\/)?[^\s()]+?):(\d+)(?::\d+)?\)?\s*$/;
const GO_FRAME = /^\s*(\S+\.go):(\d+)(?:\s+\+0x[0-9a-f]+)?\s*$/;
const GO_FUNC = /^\s*([\w./*()$-]+)\(.*\)\s*$/;
// Ruby "base.rb:1065:in 'Sinatra::Base#route!'", PHP "#0 /app/App.php(215): Slim\App->handle()",
// C# "at Serilog.Log.Write(…) in /src/Log.cs:line 42", gdb "#1 0x… in jq_next (…) at src/execute.c:342".
const RUBY_FRAME = /((?:[A-Za-z]:)?[^\s:'"`]+\.(?:rb|rake)):(\d+):in\s+[`']([^'`]+)'/;
const PHP_FRAME = /#\d+\s+((?:[A-Za-z]:)?[^\s(]+\.php)\((\d+)\):\s+([\w\\]+(?:->|::)?\w*)/;
const CSHARP_FRAME = /\bat\s+([\w.`<>]+)\([^)]*\)\s+in\s+(.+?\.cs):line\s+(\d+)/;
const NATIVE_FRAME = /\bin\s+([\w:~]+)\s*\(.*\)\s+at\s+(\S+\.(?:c|cc|cpp|cxx|h|hpp)):(\d+)/;
const LOCATION = /(?<![\w/.\\-])((?:[A-Za-z]:)?[\w@.+~\-/\\]+\.[A-Za-z0-9]+):(\d+)(?::\d+)?(?![\d])/g;

function parseFrameLine(line: string, previous: string): StackFrame | null {
  const py = PY_FRAME.exec(line) ?? IPY_FRAME.exec(line);
  if (py?.[1] && py[2]) return frame(py[1], py[2], cleanFunc(py[3]));
  const rustAt = RUST_BACKTRACE_AT.exec(line);
  if (rustAt?.[1] && rustAt[2])
    return frame(rustAt[1], rustAt[2], frameFunction(RUST_BACKTRACE_FUNC.exec(previous)?.[1]));
  const sanitizer = SANITIZER_FRAME.exec(line);
  if (sanitizer?.[1] && sanitizer[2] && sanitizer[3])
    return frame(sanitizer[2], sanitizer[3], frameFunction(sanitizer[1]));
  const summary = SANITIZER_SUMMARY.exec(line);
  if (summary?.[1] && summary[2] && summary[3])
    return frame(summary[1], summary[2], frameFunction(summary[3]));
  const gdb = GDB_FRAME.exec(line);
  if (gdb?.[1] && gdb[2] && gdb[3]) return frame(gdb[2], gdb[3], frameFunction(gdb[1]));
  const paren = PAREN_LOCATION.exec(line);
  if (paren?.[1] && paren[2] && isPathLike(paren[1])) return frame(paren[1], paren[2], null);
  const java = JAVA_FRAME.exec(line);
  if (java?.[1] && java[2] && java[3]) return javaFrame(java[1], java[2], java[3]);
  const go = GO_FRAME.exec(line);
  if (go?.[1] && go[2]) return frame(go[1], go[2], frameFunction(GO_FUNC.exec(previous)?.[1]));
  const ruby = RUBY_FRAME.exec(line);
  if (ruby?.[1] && ruby[2]) return frame(ruby[1], ruby[2], cleanFunc(ruby[3]?.split(/[#.]|::/).pop()));
  const php = PHP_FRAME.exec(line);
  if (php?.[1] && php[2]) return frame(php[1], php[2], cleanFunc(php[3]?.split(/->|::|\\/).pop()));
  const cs = CSHARP_FRAME.exec(line) ?? NATIVE_FRAME.exec(line);
  if (cs?.[1] && cs[2] && cs[3]) return frame(cs[2], cs[3], frameFunction(cs[1]));
  const js = JS_FRAME.exec(line);
  if (js?.[2] && js[3] && isPathLike(js[2].replace(/^file:\/\//, ""))) {
    return frame(js[2], js[3], cleanFunc(js[1]));
  }
  for (const m of line.matchAll(LOCATION)) {
    if (m[1] && m[2] && !isUrlContext(line, m.index ?? 0) && isPathLike(m[1])) return frame(m[1], m[2], null);
  }
  return null;
}

// Frames that name a function without its file: glog's failure trace (`@ 0x7f3a…
// google::LogMessage::Fail()`), gdb without debug information (`#3 0x… in jq_next ()
// from /usr/lib/libjq.so`), a Rust backtrace entry without its `at` line, a Java frame
// of a class built without line numbers (`at com.acme.Pool.take(Unknown Source)`).
const GLOG_FRAME = /^\s*@\s+0x[0-9a-f]+\s+(?!\(unknown\))(\S.*?)\s*$/;
const GDB_BARE_FRAME = /^\s*#\d+\s+0x[0-9a-f]+\s+in\s+([\w:~]+)\s*\((?:(?!\)\s+at\s).)*$/;
const RUST_ENTRY = /^\s*\d+:\s+(?:0x[0-9a-f]+\s+-\s+)?(<.+>::\S+|[A-Za-z_]\S*)\s*$/;
const JAVA_BARE_FRAME = /\bat\s+([\w$.<>]+)\((?:Unknown Source|Native Method)\)/;

/**
 * The functions of frames printed without a file, innermost first as printed (every shape
 * read here prints the innermost frame first), in the index's notation (see frameFunction).
 */
export function functionFrames(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    const java = JAVA_BARE_FRAME.exec(line)?.[1];
    const raw =
      GLOG_FRAME.exec(line)?.[1] ??
      GDB_BARE_FRAME.exec(line)?.[1] ??
      RUST_ENTRY.exec(line)?.[1] ??
      (java ? javaFrame(java, "Unknown.java", "0").func : undefined);
    const func = raw ? frameFunction(raw) : null;
    if (func && !out.includes(func)) out.push(func);
  }
  return out;
}

/**
 * Frames ordered innermost first (where the error happened, then its callers). Python
 * prints tracebacks "most recent call last", and so does pytest's own failure report
 * (`path.py:12: in func`), which does not say so; Java, JavaScript, Go, Ruby, PHP, C#
 * and debuggers print the innermost frame first.
 */
export function framesInnermostFirst(frames: StackFrame[], text: string): StackFrame[] {
  const python = frames.filter((f) => /\.pyx?$/.test(f.path)).length;
  const innermostLast = /most recent call last/i.test(text) || python * 2 > frames.length;
  return innermostLast ? [...frames].reverse() : [...frames];
}

function frame(path: string, line: string, func: string | null): StackFrame {
  const n = Number.parseInt(line, 10);
  return { path: normalizePath(path), line: Number.isFinite(n) && n > 0 ? n : null, func };
}

// Java frames name the class with its package, which gives a better path than the bare file.
function javaFrame(qualified: string, file: string, line: string): StackFrame {
  const parts = qualified.split(".");
  const classIndex = parts.findIndex((p) => /^[A-Z]/.test(p));
  const packageDirs = classIndex > 0 ? parts.slice(0, classIndex) : [];
  const func = classIndex >= 0 ? parts.slice(classIndex).join(".") : qualified;
  return frame([...packageDirs, file].join("/"), line, cleanFunc(func));
}

/**
 * A function as a runtime names it, in the index's notation: the type and the function,
 * without package paths, generics, pointers or trait casts — Go `main.(*Server).Start`,
 * Rust `<tracing::fmt::Layer<S> as tracing::Subscribe>::on_event` and C++
 * `fmt::v10::detail::format_handler::on_text` become `Server.Start`, `Layer.on_event`
 * and `format_handler.on_text`; a plain function stays its name. Closures and
 * compiler-made names (`{{closure}}`, `func1`, `lambda$main$0`) stand for the function
 * they are in.
 */
export function frameFunction(raw: string | undefined): string | null {
  if (!raw) return null;
  let f = withoutTraitCast(raw.trim().replace(/^(?:async|new)\s+/, ""));
  for (let before = ""; before !== f;) {
    before = f;
    f = f.replace(/<[^<>]*>/g, "");
  }
  f = f
    .replace(/::h[0-9a-f]{16}$/, "")
    .replace(/(?:::\{\{closure\}\})+$/, "")
    .replace(/(?:\.func\d+)+(?:\.\d+)*$/, "")
    .replace(/\$lambda\$.*$/, "")
    .replace(/\(.*$/, (rest) => (/^\(\*?[\w$]+\)\./.test(rest) ? rest : ""));
  // Go: the receiver in parentheses is the type, whatever its case.
  const receiver = /\(\*?([\w$]+)\)\.([\w$]+)$/.exec(f);
  if (receiver) return `${receiver[1]}.${receiver[2]}`;
  const parts = f
    .replace(/\$/g, ".")
    .split(/::|\.|\//)
    .filter(Boolean);
  const last = parts[parts.length - 1];
  if (!last || !/^~?\w+$/.test(last)) return null;
  const owner = parts[parts.length - 2];
  // A capitalised owner is a type; so is a snake_case one inside a namespace (`detail::format_handler`).
  const isType = owner !== undefined && (/^[A-Z]/.test(owner) || (owner.includes("_") && parts.length > 2));
  return isType ? `${owner}.${last}` : last;
}

/** `<A<T> as Trait>::m` → `A<T>::m`: the implementing type, not the trait. */
function withoutTraitCast(f: string): string {
  if (!f.startsWith("<")) return f;
  let depth = 0;
  for (let i = 0; i < f.length; i++) {
    if (f[i] === "<") depth++;
    else if (f[i] === ">" && --depth === 0) {
      const inner = f.slice(1, i);
      const as = inner.search(/\s+as\s+/);
      return `${as < 0 ? inner : inner.slice(0, as)}${f.slice(i + 1)}`;
    }
  }
  return f;
}

function cleanFunc(func: string | undefined): string | null {
  if (!func) return null;
  const f = func.replace(/^(?:async|new)\s+/, "").replace(/^Object\./, "");
  return f.includes("<") || f === "" ? null : f;
}

function dedupeFrames(frames: StackFrame[]): StackFrame[] {
  const byKey = new Map<string, StackFrame>();
  for (const f of frames) {
    const key = `${f.path}:${f.line ?? ""}`;
    const existing = byKey.get(key);
    if (!existing) byKey.set(key, f);
    else if (!existing.func && f.func) existing.func = f.func;
  }
  return [...byKey.values()];
}

function isUrlContext(line: string, index: number): boolean {
  const before = line.slice(0, index);
  return /[a-z][a-z0-9+.-]*:\/\/\S*$/i.test(before);
}
