/**
 * Resolution of calls whose receiver's type the code declares, and of bare calls to the
 * caller's own class in languages where `this.` is optional. Extraction writes the
 * declared type on the call (`rule.validate()` with `rule` an `IValidationRule`,
 * `s.ngin.start()` with `ngin *engine`, lib/indexer/extract/declared-types.ts); here the
 * type is looked up as the caller sees it and the method found on it or its bases. An
 * interface's or trait's own method declaration is a valid target: call-graph walks go
 * on from a declaration to its implementations. A bare call's overload is the one
 * extraction chose from its arguments; otherwise the first overload stands for the family.
 */
import type { ExtractedCall } from "./types.ts";

/** The fields of a resolver symbol this module reads (resolution passes its own symbols through). */
export interface MemberSymbol {
  qualifiedId: string;
  path: string;
  qualifiedName: string;
  language: string;
  parent: string | null;
}

/** A keyed table (a Map satisfies it). */
interface Table<V> {
  get(key: string): V | undefined;
}

export interface TypedHit<S extends MemberSymbol> {
  symbol: S;
  confidence: number;
}

/** What typed resolution asks of the resolver's tables. */
export interface MemberLookup<S extends MemberSymbol> {
  /** A type as written from a file (`Engine`, `pkg.Engine`), with how sure the lookup is. */
  typeNamed(written: string, fromPath: string): TypedHit<S> | null;
  /** A type's own members of that name, overloads in source order. */
  members(type: S, name: string): S[];
  /** The first member of that name found up the type's bases. */
  inherited(type: S, name: string): S | null;
  /** Whether the repository defines a type of that (short) name anywhere. */
  definesType(name: string): boolean;
  /** Whether a name is bound in the file to a module outside the repository (`http`, `std`). */
  isExternal(name: string, fromPath: string): boolean;
}

/** Confidence of a call on a typed receiver whose type was found by an import, the same file or a unique name. */
const TYPED_CONFIDENCE = 0.9;
/** …and when the type's name was ambiguous across the repository. */
const AMBIGUOUS_TYPE_CONFIDENCE = 0.6;

/** Languages whose methods call their own class's methods without `this.` (beyond the implicit-self ones). */
export const BARE_MEMBER_LANGUAGES = new Set(["java"]);

/**
 * Targets of a call on a receiver of declared type: its method on that type or a base,
 * none when the type is a library's (no guess by name), null when the declared type says
 * nothing the resolver can use (the usual rules then apply).
 */
export function typedReceiverCall<S extends MemberSymbol>(
  lookup: MemberLookup<S>,
  caller: S,
  call: ExtractedCall,
): TypedHit<S>[] | null {
  const written = call.type;
  if (!written) return null;
  const segments = written.split(".");
  const short = segments[segments.length - 1] ?? written;
  if (segments.length > 1 && lookup.isExternal(segments[0] ?? "", caller.path)) return [];
  const type = lookup.typeNamed(written, caller.path);
  if (!type) return lookup.definesType(short) ? null : [];
  const confidence = type.confidence >= 0.5 ? TYPED_CONFIDENCE : AMBIGUOUS_TYPE_CONFIDENCE;
  // Overloads elsewhere cannot be told apart here: the first stands for the family, as its plain id does.
  const member = lookup.members(type.symbol, call.name)[0] ?? lookup.inherited(type.symbol, call.name);
  return member ? [{ symbol: member, confidence }] : null;
}

/** A bare call to a method of the caller's class: the overload extraction chose, or the only one (the first outside Java). */
export function ownMemberCall<S extends MemberSymbol>(
  lookup: MemberLookup<S>,
  cls: S,
  call: ExtractedCall,
): TypedHit<S>[] | null {
  const own = lookup.members(cls, call.name);
  if (own.length === 0) {
    const inherited = lookup.inherited(cls, call.name);
    return inherited ? [{ symbol: inherited, confidence: TYPED_CONFIDENCE }] : null;
  }
  const chosen = call.overload ? own.find((s) => overloadOrdinal(s.qualifiedId) === call.overload) : null;
  if (own.length === 1 || chosen) return [{ symbol: chosen ?? (own[0] as S), confidence: TYPED_CONFIDENCE }];
  // Java overloads differ by parameter types the index cannot weigh: the call stays open, and
  // a call-graph walk picks the overload whose parameters fit its caller's. Elsewhere the
  // first stands for the family, as its plain id does.
  return BARE_MEMBER_LANGUAGES.has(cls.language)
    ? []
    : [{ symbol: own[0] as S, confidence: TYPED_CONFIDENCE }];
}

/** `a.java::A.f#3` → 3; a plain id is the first. */
function overloadOrdinal(qualifiedId: string): number {
  const match = /#(\d+)$/.exec(qualifiedId);
  return match ? Number(match[1]) : 1;
}

/**
 * A type's own members of a name, every overload: in its file, else where the type is
 * continued (`elsewhere`), else in its folder (a Go type's methods may sit in any file of
 * its package, a Rust type's in another impl).
 */
export function membersOf<S extends MemberSymbol>(
  cls: S,
  name: string,
  tables: { byName: Table<S[]>; byFileName: Table<Map<string, S[]>> },
  elsewhere: () => S | null,
): S[] {
  const qualifiedName = `${cls.qualifiedName}.${name}`;
  const own = (tables.byFileName.get(cls.path)?.get(name) ?? []).filter(
    (s) => s.qualifiedName === qualifiedName,
  );
  if (own.length) return own;
  const continued = elsewhere();
  if (continued) return [continued];
  const folder = cls.path.slice(0, cls.path.lastIndexOf("/") + 1);
  return (tables.byName.get(name) ?? []).filter(
    (s) => s.parent === cls.qualifiedName && s.language === cls.language && s.path.startsWith(folder),
  );
}
