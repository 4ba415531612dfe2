/**
 * Resolution of calls whose receiver's type the code declares, and of bare calls to the
 * caller's own class in languages where `this.` is optional. Extraction writes the
 * declared type on the call (`rule.validate()` with `rule` an `IValidationRule`,
 * `s.ngin.start()` with `ngin *engine`, lib/indexer/extract/declared-types.ts); here the
 * type is looked up as the caller sees it and the method found on it or its bases. An
 * interface's or trait's own method declaration is a valid target: call-graph walks go
 * on from a declaration to its implementations. Overloads are told apart by the
 * overload extraction chose from the argument count, else the call is split across them.
 */
import type { ExtractedCall } from "./types.ts";
import type { ResolverSymbol } from "./resolve.ts";

export interface TypedHit {
  symbol: ResolverSymbol;
  confidence: number;
}

/** What typed resolution asks of the resolver's tables. */
export interface MemberLookup {
  /** A type as written from a file (`Engine`, `pkg.Engine`), with how sure the lookup is. */
  typeNamed(written: string, fromPath: string): TypedHit | null;
  /** A type's own members of that name, overloads in source order. */
  members(type: ResolverSymbol, name: string): ResolverSymbol[];
  /** The first member of that name found up the type's bases. */
  inherited(type: ResolverSymbol, name: string): ResolverSymbol | null;
  /** Whether the repository defines a type of that (short) name anywhere. */
  definesType(name: string): boolean;
  /** Whether a name is bound in the file to a module outside the repository (`http`, `std`). */
  isExternal(name: string, fromPath: string): boolean;
}

/** Confidence of a call on a typed receiver whose type was found by an import, the same file or a unique name. */
const TYPED_CONFIDENCE = 0.9;
/** …and when the type's name was ambiguous across the repository. */
const AMBIGUOUS_TYPE_CONFIDENCE = 0.6;
/** A split across overloads never goes below this (it is still the class's own method). */
const SPLIT_FLOOR = 0.3;

/** Languages whose methods call their own class's methods without `this.` (beyond the implicit-self ones). */
export const BARE_MEMBER_LANGUAGES = new Set(["java"]);

/**
 * Targets of a call on a receiver of declared type: its method on that type or a base,
 * none when the type is a library's (no guess by name), null when the declared type says
 * nothing the resolver can use (the usual rules then apply).
 */
export function typedReceiverCall(
  lookup: MemberLookup,
  caller: ResolverSymbol,
  call: ExtractedCall,
): TypedHit[] | null {
  const written = call.type;
  if (!written) return null;
  const segments = written.split(".");
  const short = segments[segments.length - 1] ?? written;
  if (segments.length > 1 && lookup.isExternal(segments[0] ?? "", caller.path)) return [];
  const type = lookup.typeNamed(written, caller.path);
  if (!type) return lookup.definesType(short) ? null : [];
  const base = type.confidence >= 0.5 ? TYPED_CONFIDENCE : AMBIGUOUS_TYPE_CONFIDENCE;
  const own = lookup.members(type.symbol, call.name);
  if (own.length) return split(own, base);
  const inherited = lookup.inherited(type.symbol, call.name);
  return inherited ? [{ symbol: inherited, confidence: base }] : null;
}

/** A bare call to a method of the caller's class: the overload extraction chose, the only one, or all of them split. */
export function ownMemberCall(
  lookup: MemberLookup,
  cls: ResolverSymbol,
  call: ExtractedCall,
): TypedHit[] | null {
  const own = lookup.members(cls, call.name);
  if (own.length === 0) {
    const inherited = lookup.inherited(cls, call.name);
    return inherited ? [{ symbol: inherited, confidence: TYPED_CONFIDENCE }] : null;
  }
  if (own.length === 1) return split(own, TYPED_CONFIDENCE);
  const chosen = call.overload ? own.find((s) => overloadOrdinal(s.qualifiedId) === call.overload) : null;
  if (chosen) return [{ symbol: chosen, confidence: TYPED_CONFIDENCE }];
  // Java overloads differ by parameter types the index cannot weigh: the call stays open, and
  // a call-graph walk picks the overload whose parameters fit its caller's.
  return BARE_MEMBER_LANGUAGES.has(cls.language) ? [] : split(own, TYPED_CONFIDENCE);
}

function split(symbols: ResolverSymbol[], confidence: number): TypedHit[] {
  const each = symbols.length === 1 ? confidence : Math.max(SPLIT_FLOOR, confidence / symbols.length);
  return symbols.map((symbol) => ({ symbol, confidence: each }));
}

/** `a.java::A.f#3` → 3; a plain id is the first. */
function overloadOrdinal(qualifiedId: string): number {
  const match = /#(\d+)$/.exec(qualifiedId);
  return match ? Number(match[1]) : 1;
}
