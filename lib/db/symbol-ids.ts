/**
 * Symbol ids as stored: `path::Qualified.name`, and `path::Qualified.name#2`, `#3` … for
 * the second and later definitions of one qualified name in one file (overloads, a
 * property's setter, a redefinition under another condition), in source order. The
 * first keeps the plain id, so ids written before overloads were told apart still name
 * a symbol, and a plain id stands for the whole family where a lookup asks for it.
 */

const OVERLOAD = /#(\d+)$/;

function qualifiedIdFor(path: string, qualifiedName: string, ordinal = 1): string {
  return ordinal > 1 ? `${path}::${qualifiedName}#${ordinal}` : `${path}::${qualifiedName}`;
}

/** The id without its overload number: `a.ts::f#2` → `a.ts::f`. */
export function baseQualifiedId(qualifiedId: string): string {
  return qualifiedId.replace(OVERLOAD, "");
}

/** Path, qualified name and overload number (null for a plain id) of an id; null without `::`. */
export function splitQualifiedId(
  qualifiedId: string,
): { path: string; qualifiedName: string; ordinal: number | null } | null {
  const at = qualifiedId.indexOf("::");
  if (at < 0) return null;
  const ordinal = OVERLOAD.exec(qualifiedId);
  return {
    path: qualifiedId.slice(0, at),
    qualifiedName: baseQualifiedId(qualifiedId).slice(at + 2),
    ordinal: ordinal ? Number(ordinal[1]) : null,
  };
}

/** Ids of one file's symbols in source order: repeated qualified names numbered from the second on. */
export function numberedIds(path: string, qualifiedNames: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return qualifiedNames.map((name) => {
    const ordinal = (seen.get(name) ?? 0) + 1;
    seen.set(name, ordinal);
    return qualifiedIdFor(path, name, ordinal);
  });
}
