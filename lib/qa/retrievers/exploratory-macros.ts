/**
 * Macros on a flow's way. A function-like C or C++ `#define` and a Rust `macro_rules!` are
 * expanded where they are used, so the index sees a call to the macro and none of the calls
 * written in its body (`PEEK_TOKEN(parser)` runs `yaml_parser_fetch_more_tokens`, `info!`
 * runs `event!`, which runs `Event::dispatch`). A walk goes through a macro to the functions
 * its body calls, as if the caller called them; a macro that calls no function of the index
 * (a constant, a field access, a character test) is no step of the flow.
 */
import "server-only";
import {
  symbolsByName,
  symbolsByQualifiedName,
  symbolsInFile,
  type SymbolRecord,
} from "../../db/code-graph.ts";
import { SourceReader } from "../context.ts";
import { isCodeFunction } from "./shared.ts";

export function isMacro(s: Pick<SymbolRecord, "signature">): boolean {
  return MACRO_SIGNATURE.test(s.signature);
}

const MACRO_SIGNATURE = /^\s*(?:#\s*define\s+\w+\s*\(|macro_rules!)/;

export interface WrittenCall {
  name: string;
  /** the path written before the name (`Event` of `$crate::Event::dispatch(…)`), if any */
  owner: string | null;
  /** a method called on a value (`(&error).anyhow_kind()`), whose type the name cannot tell */
  onValue: boolean;
}

/**
 * The calls written in a macro's body, in order, each once: `name(…)`, `Type::name(…)`,
 * `name!(…)`, `value.name(…)`; not those in comments, nor a C function pointer's
 * (`p->read(…)`), nor the macro's own name, the language's keywords or its parameters.
 */
export function macroBodyCalls(text: string, macroName: string): WrittenCall[] {
  // Comments (a Rust macro's doc examples among them) are not the body.
  const body = text.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/\/\/.*$/gm, "");
  const params = new Set(
    (/^\s*#\s*define\s+\w+\s*\(([^)]*)\)/.exec(body)?.[1] ?? "").split(",").map((p) => p.trim()),
  );
  const out: WrittenCall[] = [];
  const seen = new Set<string>();
  for (const m of body.matchAll(CALL)) {
    const before = body.slice(Math.max(0, (m.index ?? 0) - 2), m.index);
    if (/->\s*$/.test(before) || /\w$/.test(before)) continue;
    const onValue = /\.\s*$/.test(before);
    const path = (m[1] ?? "").split("::").filter((p) => p && p !== "$crate" && p !== "crate");
    const name = m[2] as string;
    if (name === macroName || KEYWORDS.has(name) || params.has(name)) continue;
    const owner = path.length ? (path[path.length - 1] as string) : null;
    const key = `${onValue ? "." : (owner ?? "")}::${name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ name, owner: onValue ? null : owner, onValue });
  }
  return out;
}

// A call's parenthesis, or a macro's bang and any bracket (`event! { … }`; `if ready {` is no call).
const CALL = /((?:(?:\$crate|[A-Za-z_]\w*)::)*)([A-Za-z_]\w*)\s*(?:!\s*[([{]|\()/g;

const KEYWORDS = new Set([
  "if",
  "else",
  "while",
  "for",
  "switch",
  "return",
  "sizeof",
  "defined",
  "do",
  "match",
  "loop",
  "Some",
  "Ok",
  "Err",
  "Box",
  "vec",
  "format_args",
  "concat",
  "stringify",
  "module_path",
  "file",
  "line",
  "column",
  "cfg",
]);

/** How many of a macro's calls a walk follows, and how many macros deep. */
const CALLS_PER_MACRO = 6;
const MACRO_DEPTH = 2;

/**
 * Symbols with each macro among them replaced by the functions its body calls (macros
 * calling macros followed a few deep), resolved by name: a function of that name in the
 * macro's file, else its folder, else the only one the index has; `Type::name` as that
 * type's member.
 */
export async function throughMacros(
  generationId: string,
  symbols: SymbolRecord[],
  reader: SourceReader,
  walks: (path: string) => boolean,
  depth = 0,
): Promise<SymbolRecord[]> {
  if (!symbols.some(isMacro)) return symbols;
  const out: SymbolRecord[] = [];
  for (const s of symbols) {
    if (!isMacro(s)) out.push(s);
    else if (depth < MACRO_DEPTH)
      out.push(
        ...(await throughMacros(
          generationId,
          await macroCallees(generationId, s, reader, walks),
          reader,
          walks,
          depth + 1,
        )),
      );
  }
  return [...new Map(out.map((s) => [s.qualifiedId, s])).values()];
}

/** The functions a macro's body calls, resolved by name, in the order written. */
export async function macroCallees(
  generationId: string,
  macro: SymbolRecord,
  reader: SourceReader,
  walks: (path: string) => boolean,
): Promise<SymbolRecord[]> {
  const body = await reader.slice(macro.path, macro.startLine, macro.endLine);
  if (!body) return [];
  const out: SymbolRecord[] = [];
  const own = await symbolsInFile(generationId, macro.path);
  for (const call of macroBodyCalls(body, macro.name)) {
    const here =
      call.owner || call.onValue ? undefined : own.find((s) => s.name === call.name && isCodeFunction(s));
    out.push(
      ...(here ? [here] : await resolveWritten(generationId, call, macro, walks)).filter(
        (s) => s.qualifiedId !== macro.qualifiedId,
      ),
    );
    if (out.length >= CALLS_PER_MACRO) break;
  }
  return out.slice(0, CALLS_PER_MACRO);
}

/**
 * A name written in a macro's body as the index has it: a function of that name in the
 * macro's file, else its folder, else the only one; a method called on a value, the methods
 * of that name in the macro's folder when there are few (the types it may dispatch to).
 */
async function resolveWritten(
  generationId: string,
  call: WrittenCall,
  macro: SymbolRecord,
  walks: (path: string) => boolean,
): Promise<SymbolRecord[]> {
  const candidates = (
    call.owner
      ? await symbolsByQualifiedName(generationId, `${call.owner}.${call.name}`, 10)
      : await symbolsByName(generationId, call.name, 50)
  ).filter((s) => isCodeFunction(s) && walks(s.path));
  const folder = (p: string) => p.slice(0, p.lastIndexOf("/") + 1);
  const near = candidates.filter((s) => folder(s.path) === folder(macro.path));
  if (call.onValue) return near.length <= VALUE_METHODS ? near : [];
  // Anywhere else, only a name of two words or more that one function has (`fetch_more_tokens`, not `not`).
  const one =
    candidates.find((s) => s.path === macro.path) ??
    near[0] ??
    (candidates.length === 1 && /[a-z0-9]_[a-zA-Z]|[a-z][A-Z]/.test(call.name) ? candidates[0] : undefined);
  return one ? [one] : [];
}

/** A method called on a value in a macro is followed into at most this many types' methods of its name. */
const VALUE_METHODS = 3;
