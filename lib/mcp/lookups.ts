/** Lookups several tools share: a folder scope given by the caller, and symbols by any form of their name. */
import "server-only";
import {
  symbolsByName,
  symbolsByQualifiedName,
  symbolsOfQualifiedId,
  type SymbolRecord,
} from "../db/code-graph.ts";
import { WayfinderError } from "../errors.ts";
import { isSafeRelativePath } from "../paths.ts";

/** A folder or file the caller wants results under, as a clean repository-relative path. */
export function cleanScope(scope: string | undefined): string | null {
  if (!scope) return null;
  const clean = scope
    .trim()
    .replace(/^(\.\/)+/, "")
    .replace(/\/+$/, "");
  if (!clean || clean === ".") return null;
  if (!isSafeRelativePath(clean))
    throw new WayfinderError("bad_request:scope", `Not a path inside the repository: ${scope}`);
  return clean;
}

export const inScope = (path: string, scope: string | null) =>
  !scope || path === scope || path.startsWith(`${scope}/`);

/** Symbols by qualified id (`path::Class.method`), qualified name (`Class.method`) or plain name. */
export async function lookupSymbols(
  generationId: string,
  name: string,
  limit: number,
): Promise<SymbolRecord[]> {
  const ref = name.trim();
  if (ref.includes("::")) return (await symbolsOfQualifiedId(generationId, ref)).slice(0, limit);
  if (ref.includes(".")) {
    const qualified = await symbolsByQualifiedName(generationId, ref, limit);
    if (qualified.length) return qualified;
  }
  return symbolsByName(generationId, ref.split(".").pop() ?? ref, limit);
}
