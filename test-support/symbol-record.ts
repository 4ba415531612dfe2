/**
 * A symbol row for unit tests that need no index: `path` and `qualifiedName` (a dotted
 * name is a method), the rest plain defaults a test overrides with `extra`.
 */
import type { SymbolRecord } from "../lib/db/code-graph.ts";

export function symbolRecord(
  path: string,
  qualifiedName: string,
  extra: Partial<SymbolRecord> = {},
): SymbolRecord {
  const name = qualifiedName.split(".").pop() as string;
  return {
    id: 0,
    path,
    qualifiedId: `${path}::${qualifiedName}`,
    name,
    qualifiedName,
    kind: qualifiedName.includes(".") ? "method" : "function",
    language: "go",
    startLine: 1,
    endLine: 20,
    signature: "",
    docstring: null,
    parentId: null,
    exported: true,
    calls: "[]",
    raises: "[]",
    mutates: "[]",
    errorStrings: "[]",
    decorators: "[]",
    bases: "[]",
    fanIn: 0,
    fanOut: 0,
    ...extra,
  } as SymbolRecord;
}
