/**
 * The calls of a walk's step that the index left unresolved, resolved where the code most
 * likely goes: by name in the caller's folder, on the caller's own object (the overload that
 * fits, the asynchronous method a generator wrote a twin from), to a sibling in the same
 * encloser, and through a handler the caller's object keeps in a field.
 */
import "server-only";
import {
  symbolsByName,
  symbolsByQualifiedName,
  symbolsInFile,
  type SymbolRecord,
} from "../../db/code-graph.ts";
import { baseQualifiedId } from "../../db/symbol-ids.ts";
import type { SourceReader } from "../context.ts";
import { dirOf } from "./file-index.ts";
import { isTestSymbol, storedCalls } from "./shared.ts";

/**
 * Calls the index could not resolve because their receiver is a field or a local whose
 * type it does not know (`s.ngin.start()`, `adapter.send(req)`), resolved by name in the
 * caller's own folder (its package or module) when exactly one function there that does
 * some work has that name: the flow goes on where the code most likely does. A few per
 * step, so a walk stays fast. A call on the caller's own object (`_createParser(in, ctxt)`,
 * `this.write(…)`) that the index left unresolved because the class overloads the name
 * goes to the overload of the caller's class that fits the caller's parameters best.
 */
export async function unresolvedCallees(
  generationId: string,
  symbol: SymbolRecord,
  resolved: { line: number; dstId: string | null }[],
  walks: (path: string) => boolean,
  reader: SourceReader,
): Promise<string[]> {
  const done = new Set(
    resolved.map(
      (e) =>
        `${e.line}:${
          baseQualifiedId(e.dstId ?? "")
            .split(/[.:]/)
            .pop() ?? ""
        }`,
    ),
  );
  const calls = storedCalls(symbol.calls).filter((c) => !done.has(`${c.line}:${c.name}`));
  const own = await ownClassCallees(
    generationId,
    symbol,
    calls.filter((c) => !c.receiver || isSelf(c.receiver, symbol)).map((c) => c.name),
  );
  const folder = dirOf(symbol.path);
  const names = [...new Set(calls.flatMap((c) => (c.receiver ? [c.name] : [])))].slice(
    0,
    UNRESOLVED_PER_STEP,
  );
  const out: string[] = [
    ...own,
    ...(await enclosedCallees(
      generationId,
      symbol,
      calls.filter((c) => !c.receiver).map((c) => c.name),
    )),
    ...(await storedCallees(generationId, symbol, calls, reader)),
  ];
  for (const name of names) {
    const here = (await symbolsByName(generationId, name, 20)).filter(
      (s) =>
        (s.kind === "method" || s.kind === "function") &&
        s.fanOut > 0 &&
        s.qualifiedId !== symbol.qualifiedId &&
        dirOf(s.path) === folder &&
        !isTestSymbol(s) &&
        walks(s.path),
    );
    if (here.length === 1) out.push((here[0] as SymbolRecord).qualifiedId);
  }
  return [...new Set(out)];
}

/**
 * Calls through a handler the caller's object keeps in a field (`mx.handler.ServeHTTP(w, r)`,
 * `self._dispatch(request)`) go on in the method of its class the code stores there
 * (`mx.handler = chain(mx.middlewares, http.HandlerFunc(mx.routeHTTP))`, `self._dispatch =
 * self._handle_request`): a method named in the assignment without being called.
 */
async function storedCallees(
  generationId: string,
  symbol: SymbolRecord,
  calls: { name: string; receiver: string | null }[],
  reader: SourceReader,
): Promise<string[]> {
  if (symbol.kind !== "method" || !symbol.parentId) return [];
  const fields = new Set<string>();
  for (const c of calls) {
    if (!c.receiver) continue;
    const parts = c.receiver.split(".");
    if (parts.length === 2 && isSelf(parts[0] as string, symbol)) fields.add(parts[1] as string);
    else if (isSelf(c.receiver, symbol)) fields.add(c.name);
  }
  if (fields.size === 0) return [];
  const lines = await reader.lines(symbol.path);
  if (!lines) return [];
  const text = lines.join("\n");
  const names = new Set<string>();
  for (const field of [...fields].slice(0, STORED_FIELDS)) {
    if (!/^[A-Za-z_$][\w$]*$/.test(field)) continue;
    const assigned = new RegExp(String.raw`\.${field.replace(/\$/g, "\\$")}\s*=(?!=)\s*([^\n;]+)`, "g");
    for (const m of text.matchAll(assigned))
      for (const ref of (m[1] ?? "").matchAll(/([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)\b(?!\s*[(.\w])/g))
        if (isSelf(ref[1] as string, symbol) || goReceiverOf(text, ref[1] as string))
          names.add(ref[2] as string);
  }
  if (names.size === 0) return [];
  const out: string[] = [];
  for (const name of [...names].slice(0, STORED_FIELDS)) {
    const found = (await symbolsByQualifiedName(generationId, `${symbol.parentId}.${name}`, 2)).filter(
      (s) => s.kind === "method" && s.fanOut > 0 && s.qualifiedId !== symbol.qualifiedId,
    );
    if (found.length === 1) out.push((found[0] as SymbolRecord).qualifiedId);
  }
  return out;
}

/** A name some Go method of the file gives its receiver (`func (mx *Mux) …`). */
function goReceiverOf(text: string, name: string): boolean {
  return new RegExp(String.raw`^func\s*\(\s*${name}\s`, "m").test(text);
}

/**
 * Calls from a function defined inside another (`create.got` calling `makeRequest(…)`) to a
 * function defined beside it in the same encloser (`create.makeRequest`): lexical scope the
 * index did not resolve.
 */
async function enclosedCallees(
  generationId: string,
  symbol: SymbolRecord,
  names: string[],
): Promise<string[]> {
  if (symbol.kind !== "function" || names.length === 0) return [];
  const encloser = symbol.qualifiedName.slice(0, Math.max(0, symbol.qualifiedName.lastIndexOf(".")));
  if (!encloser) return [];
  const out: string[] = [];
  for (const name of [...new Set(names)].slice(0, OWN_CALLS_PER_STEP)) {
    const found = (await symbolsByQualifiedName(generationId, `${encloser}.${name}`, 2)).find(
      (s) => s.path === symbol.path && s.kind === "function" && s.qualifiedId !== symbol.qualifiedId,
    );
    if (found) out.push(found.qualifiedId);
  }
  return out;
}

/** How many stored handlers a step's calls are followed through. */
const STORED_FIELDS = 2;

const SELF_RECEIVER = /^(?:this|self|super|base|Self)$/;

/**
 * Whether a call's receiver is the caller's own object: `this`, `self` …, or the name a Go
 * method gives its receiver (`func (r *Router) ServeHTTP` calls `r.Match(…)`), which the
 * index leaves unresolved since any name can be a receiver's.
 */
export function isSelf(receiver: string, caller: Pick<SymbolRecord, "language" | "signature">): boolean {
  if (SELF_RECEIVER.test(receiver)) return true;
  return caller.language === "go" && GO_RECEIVER.exec(caller.signature)?.[1] === receiver;
}

const GO_RECEIVER = /^\s*func\s*\(\s*([A-Za-z_]\w*)\s/;

/**
 * Calls on the caller's own object to methods of its class (the index leaves a call to an
 * overloaded name unresolved): for each name, the overload whose parameters share the most
 * with the caller's (`createParser(InputStream in)` → `_createParser(InputStream in, IOContext
 * ctxt)`), the first declared on a tie; a name no method has, the asynchronous method a
 * generator wrote it from (`syncName`).
 */
async function ownClassCallees(
  generationId: string,
  symbol: SymbolRecord,
  names: string[],
): Promise<string[]> {
  if (symbol.kind !== "method" || !symbol.parentId || names.length === 0) return [];
  const wanted = new Set(names);
  const siblings = (await symbolsInFile(generationId, symbol.path)).filter(
    (s) =>
      s.parentId === symbol.parentId &&
      (s.kind === "method" || s.kind === "function") &&
      s.qualifiedId !== symbol.qualifiedId &&
      (wanted.has(s.name) || wanted.has(syncName(s.name))),
  );
  const mine = parameterWords(symbol.signature);
  const out: string[] = [];
  for (const name of wanted) {
    const same = siblings.filter((s) => s.name === name);
    const best = (same.length > 0 ? same : siblings.filter((s) => syncName(s.name) === name))
      .map((s, order) => ({ s, order, shared: sharedCount(mine, parameterWords(s.signature)) }))
      .sort((a, b) => b.shared - a.shared || a.order - b.order)[0];
    // A Go type's methods may live in any file of its package.
    const elsewhere = best
      ? undefined
      : symbol.language === "go"
        ? (await symbolsByQualifiedName(generationId, `${symbol.parentId}.${name}`, 1)).find(
            (s) => dirOf(s.path) === dirOf(symbol.path),
          )
        : undefined;
    const pick = best?.s ?? elsewhere;
    if (pick) out.push(pick.qualifiedId);
  }
  return out.slice(0, OWN_CALLS_PER_STEP);
}

const OWN_CALLS_PER_STEP = 6;

/**
 * The name of the synchronous twin a source generator writes from an asynchronous method
 * (`ValidateInternalAsync` → `ValidateInternal`, `fetch_async` → `fetch`): the index holds only
 * the method written in the source, so a call to the generated twin goes on in it.
 */
export function syncName(name: string): string {
  return name.replace(/(?<=[a-z0-9])Async$|(?<=[a-z0-9])_async$/, "");
}

/** The words of a signature's parameter list (types and names), lower-cased. */
export function parameterWords(signature: string): Set<string> {
  const open = signature.indexOf("(");
  const close = signature.lastIndexOf(")");
  const params = open >= 0 && close > open ? signature.slice(open + 1, close) : "";
  return new Set((params.match(/[A-Za-z_]\w*/g) ?? []).map((w) => w.toLowerCase()));
}

function sharedCount(a: Set<string>, b: Set<string>): number {
  let n = 0;
  for (const w of a) if (b.has(w)) n++;
  return n;
}

const UNRESOLVED_PER_STEP = 3;
