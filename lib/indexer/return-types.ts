/**
 * Calls on a returned value. `logrus.WithField("user", id).Info("login")` calls `Info` on
 * the `*Entry` that `WithField` returns, not on whichever type also has an `Info`; so do
 * `New().Run()`, `builder.withX().withY().build()` and `x := f(); x.m()`. The declared
 * return type of a function or method is read from its stored signature (Go results, the
 * type before a Java, C# or C++ method's name, `): T` in TypeScript and PHP, `-> T` in
 * Rust and Python), reduced to the type a method call on it reaches (`Result<T, E>`,
 * `Task<T>`, `Promise<T>` and `Option<T>` to `T`); `Self`, `self`, `static` and `this`
 * mean the method's own type. Resolution then types a call whose receiver is a call
 * (or a local assigned from one, `ExtractedCall.from`) by what that call's target returns.
 */
import { splitTopLevel } from "./extract/common.ts";
import { reduceType } from "./extract/type-names.ts";
import type { MemberLookup, MemberSymbol, TypedHit } from "./receiver-types.ts";
import type { ExtractedCall } from "./types.ts";

/** What a function returns when that is its own type (a fluent builder, a constructor). */
export const OWN_TYPE = "Self";

/** Wrappers whose first type argument is what a caller gets after `?`, `.unwrap()` or `await`. */
const RESULT_WRAPPER =
  /^(?:[\w.:]*(?:\.|::))?(?:Result|Task|ValueTask|Promise|PromiseLike|Future|CompletableFuture|Awaitable|Coroutine|IO)\s*<(.*)>$/s;

/** Collections (a slice, an array, a list, a map) a returned value may be. */
const COLLECTION =
  /^(?:\[|map\[|(?:[\w.:]*(?:\.|::))?(?:List|IList|ArrayList|LinkedList|Collection|ICollection|IEnumerable|IReadOnlyList|IReadOnlyCollection|Iterable|Iterator|IEnumerator|Set|HashSet|TreeSet|ISet|Vec|VecDeque|Array|ReadonlyArray|Sequence|list|set|tuple|dict|vector|deque|Map|HashMap|TreeMap|BTreeMap|IndexMap|Dictionary|IDictionary|Record|map|unordered_map|Stream)\s*[<[])|\[\s*\]$/;

/** Words that precede a Java, C#, C++ or PHP method's type, not part of it. */
const MODIFIERS = new Set(
  (
    "public private protected internal static final abstract synchronized native default override virtual " +
    "async sealed extern unsafe new partial readonly inline constexpr consteval explicit friend volatile " +
    "strictfp transient implicit operator mutable"
  ).split(" "),
);

/** A return type that names the owner itself. */
const OWN_NAMES = new Set(["Self", "self", "static", "this", "$this"]);

/** Languages with a return type readable from the signature. */
const READERS: Record<string, (before: string, after: string) => string | null> = {
  go: goResult,
  rust: (_, after) => arrowType(after),
  python: (_, after) => arrowType(after),
  typescript: colonType,
  tsx: colonType,
  php: colonType,
  java: leadingType,
  csharp: leadingType,
  cpp: (before, after) => arrowType(after) ?? leadingType(before),
};

/**
 * The type a function returns, reduced (`Entry`, `pkg.Entry`), `Self` for its own type,
 * or null when the signature declares none or a type no method runs on.
 */
export function returnTypeOf(language: string, name: string, signature: string): string | null {
  const read = READERS[language];
  if (!read || !signature) return null;
  const split = aroundParameters(signature, name);
  if (!split) return null;
  const written = read(split.before, split.after);
  if (!written) return null;
  const bare = written.trim().replace(/^["']|["']$/g, "");
  if (OWN_NAMES.has(bare)) return OWN_TYPE;
  // A call on a returned list or map is the collection's, not its elements'.
  if (COLLECTION.test(bare)) return null;
  const reduced = reduceType(unwrapResult(bare));
  // A lone capital is a type parameter (`func Get[T any]() T`); Python's `None` and `Any` say nothing.
  if (!reduced || /^(?:[A-Z]|None|Any|NoReturn|Never)$/.test(reduced)) return null;
  return OWN_NAMES.has(reduced) ? OWN_TYPE : reduced;
}

/** The signature before the function's name and after its parameter list, or null when they cannot be told apart. */
function aroundParameters(signature: string, name: string): { before: string; after: string } | null {
  for (let at = signature.indexOf(name); at >= 0; at = signature.indexOf(name, at + 1)) {
    if (at > 0 && /[\w$]/.test(signature[at - 1] ?? "")) continue;
    const open = parametersOpen(signature, at + name.length);
    if (open < 0) continue;
    let depth = 0;
    for (let i = open; i < signature.length; i++) {
      const ch = signature[i];
      if (ch === "(") depth++;
      else if (ch === ")" && --depth === 0)
        return { before: signature.slice(0, at), after: signature.slice(i + 1) };
    }
    return null;
  }
  return null;
}

/** Where the parameter list opens after a name: past type parameters (`<T>`, `[T any]`) and an arrow's `= async`. */
function parametersOpen(signature: string, from: number): number {
  const rest = /^\s*(?:<[^()]*>|\[[^()]*\])?\s*(?:=\s*(?:async\s*)?)?\(/.exec(
    signature.slice(from, from + 200),
  );
  return rest ? from + rest[0].length - 1 : -1;
}

/** Go: the result, or the first of a parenthesised list (a name before it dropped). */
function goResult(_: string, after: string): string | null {
  const text = after.replace(/\{.*$/s, "").trim();
  if (!text.startsWith("(")) return text || null;
  const first = splitTopLevel(text.slice(1, text.lastIndexOf(")")), ",")[0] ?? "";
  const named = /^[a-z_]\w*\s+(.+)$/.exec(first);
  return named?.[1] ?? first;
}

/** `-> T` after the parameters (Rust, Python, C++ trailing return), up to a `where` clause or the body. */
function arrowType(after: string): string | null {
  const match = /^[^-]*->\s*(.+?)\s*(?:\bwhere\b.*)?[:{]?\s*$/s.exec(after);
  return match?.[1] ?? null;
}

/** `): T` (TypeScript, PHP), up to an arrow's `=>` or the body; a type predicate is no type. */
function colonType(_: string, after: string): string | null {
  const match = /^\s*:\s*(.+?)\s*(?:=>.*|\{.*)?$/s.exec(after);
  const type = match?.[1] ?? null;
  return type && !/\bis\s/.test(type) ? type : null;
}

/** The type written before the name (Java, C#, C++), modifiers, annotations and type parameters dropped. */
function leadingType(before: string): string | null {
  const text = before
    .replace(/@[\w.]+(?:\([^)]*\))?/g, " ")
    .replace(/^\s*(?:\[[^\]]*\]\s*)+/, "")
    .replace(/^\s*template\s*<.*?>\s*/s, "")
    .replace(/(?:[\w]+(?:<[^<>]*>)?::)+\s*$/, "")
    .replace(/[~]\s*$/, "")
    .trim();
  const words = splitTopLevel(text, " ").filter((w) => !MODIFIERS.has(w));
  // `<T> Foo<T> of(…)`: a method's type parameters come before its type.
  while (words[0]?.startsWith("<")) words.shift();
  return words.length ? words.join(" ") : null;
}

/** `Result<T, E>`, `Task<T>`, `Promise<T>` → `T`. */
function unwrapResult(type: string): string {
  const match = RESULT_WRAPPER.exec(type.trim());
  return match?.[1] ? unwrapResult(splitTopLevel(match[1], ",")[0] ?? "") : type;
}

/**
 * The call whose result a call's receiver is, written as that call's `raw`: the receiver
 * itself when it is a call (`logrus.WithField()` → `logrus.WithField`; `?`, `.unwrap()`,
 * `.await` and `!` let the value through), else the call a local was assigned from.
 */
export function resultSource(call: ExtractedCall): string | null {
  if (call.from) return call.from;
  const receiver = call.receiver;
  if (!receiver || (!receiver.endsWith(")") && !/[?!]$|\.await$/.test(receiver))) return null;
  const bare = receiver.replace(/(?:\?|!|\.await|\.(?:unwrap|expect|unwrap_or_default)\(\))+$/, "");
  return bare.endsWith("()") ? bare.slice(0, -2) : null;
}

/** What resolving a call on a returned value asks of the resolver beyond a typed receiver's lookups. */
export interface ReturnLookup<S extends ReturningSymbol> extends MemberLookup<S> {
  /** The class, struct or impl type a method belongs to. */
  ownerOf(method: S): S | null;
}

/** A resolver symbol with what it returns (`returnTypeOf` of its signature). */
export interface ReturningSymbol extends MemberSymbol {
  kind: string;
  returns?: string;
}

/**
 * Confidence of a call on a returned value of a type found unambiguously, and otherwise
 * (as on a typed receiver); never more than the call that returned it.
 */
const RETURNED_CONFIDENCE = 0.9;
const AMBIGUOUS_RETURNED_CONFIDENCE = 0.6;

/**
 * The targets of each of one symbol's calls, resolved once: a call on a returned value
 * asks for the call that returned it, which may itself be a call on a returned value.
 */
export class CallResults<S extends MemberSymbol> {
  private readonly memo = new Map<ExtractedCall, TypedHit<S>[]>();
  private readonly active = new Set<ExtractedCall>();

  constructor(
    private readonly calls: ExtractedCall[],
    private readonly resolve: (call: ExtractedCall) => TypedHit<S>[],
  ) {}

  /** Targets of the call written `raw` nearest before `line` (the first such call when none precedes). */
  of(raw: string, line: number): TypedHit<S>[] {
    let source: ExtractedCall | null = null;
    for (const c of this.calls) {
      if (c.raw !== raw) continue;
      if (!source || (c.line <= line && (source.line > line || c.line >= source.line))) source = c;
    }
    if (!source || this.active.has(source)) return [];
    let hits = this.memo.get(source);
    if (!hits) {
      this.active.add(source);
      hits = this.resolve(source);
      this.active.delete(source);
      this.memo.set(source, hits);
    }
    return hits;
  }
}

/**
 * Targets of a call on a value another call returned: the method of the type every target
 * of that call returns (a called class is its own instance), none when that type is a
 * library's, null when the returned type is unknown or the targets disagree (the usual
 * rules then apply).
 */
export function returnedReceiverCall<S extends ReturningSymbol>(
  lookup: ReturnLookup<S>,
  call: ExtractedCall,
  results: CallResults<S>,
): TypedHit<S>[] | null {
  const source = resultSource(call);
  const hits = source ? results.of(source, call.line) : [];
  if (hits.length === 0) return null;
  let type: TypedHit<S> | null = null;
  for (const hit of hits) {
    const returned = returnedType(lookup, hit.symbol);
    if (returned === "library") return hits.length === 1 ? [] : null;
    if (!returned || (type && returned.symbol.qualifiedId !== type.symbol.qualifiedId)) return null;
    type = { symbol: returned.symbol, confidence: Math.min(returned.confidence, hit.confidence) };
  }
  if (!type) return null;
  const member = lookup.members(type.symbol, call.name)[0] ?? lookup.inherited(type.symbol, call.name);
  return member ? [{ symbol: member, confidence: type.confidence }] : null;
}

/** The repository type a function returns (as its own file sees the name), "library" for another's, null when unknown. */
function returnedType<S extends ReturningSymbol>(
  lookup: ReturnLookup<S>,
  callee: S,
): TypedHit<S> | "library" | null {
  if (callee.kind !== "function" && callee.kind !== "method")
    return { symbol: callee, confidence: RETURNED_CONFIDENCE };
  const written = callee.returns;
  if (!written) return null;
  if (written === OWN_TYPE) {
    const owner = lookup.ownerOf(callee);
    return owner ? { symbol: owner, confidence: RETURNED_CONFIDENCE } : null;
  }
  const segments = written.split(".");
  if (segments.length > 1 && lookup.isExternal(segments[0] ?? "", callee.path)) return "library";
  const type = lookup.typeNamed(written, callee.path);
  if (type)
    return {
      symbol: type.symbol,
      confidence: type.confidence >= 0.5 ? RETURNED_CONFIDENCE : AMBIGUOUS_RETURNED_CONFIDENCE,
    };
  return lookup.definesType(segments[segments.length - 1] ?? written) ? null : "library";
}
