/**
 * Call edges of small multi-file sources, as the index would store them: each file goes
 * through extraction, each symbol is read the way resolution reads a stored row (return
 * type from its signature included), and every symbol's calls are resolved.
 */
import { numberedIds } from "../lib/db/symbol-ids.ts";
import { extractSource } from "../lib/indexer/extract/index.ts";
import type { ResolverFile } from "../lib/indexer/module-scope.ts";
import { Resolver, type ResolvedEdge, type ResolverSymbol } from "../lib/indexer/resolve.ts";
import { toTableSymbol } from "../lib/indexer/resolver-tables.ts";
import type { CodeLanguage, ExtractedCall } from "../lib/indexer/types.ts";

const LANGUAGE: Record<string, CodeLanguage> = {
  java: "java",
  cs: "csharp",
  go: "go",
  rs: "rust",
  ts: "typescript",
  php: "php",
  py: "python",
  js: "javascript",
  rb: "ruby",
  cc: "cpp",
  h: "cpp",
};

/** Call edges of every symbol of these files, as `Caller.method -> Callee.method@confidence` (ids without the path). */
export async function callEdges(sources: Record<string, string>): Promise<string[]> {
  const symbols: ResolverSymbol[] = [];
  const files: ResolverFile[] = [];
  const calls = new Map<string, ExtractedCall[]>();
  for (const [path, source] of Object.entries(sources)) {
    const language = LANGUAGE[path.split(".").pop() ?? ""] as CodeLanguage;
    const extraction = await extractSource(language, source);
    files.push({ path, language, imports: extraction.imports });
    const ids = numberedIds(
      path,
      extraction.symbols.map((s) => s.qualifiedName),
    );
    extraction.symbols.forEach((s, i) => {
      const qualifiedId = ids[i] as string;
      symbols.push(
        toTableSymbol({
          id: symbols.length + 1,
          qualifiedId,
          path,
          name: s.name,
          qualifiedName: s.qualifiedName,
          kind: s.kind,
          parentId: s.parent,
          language,
          bases: JSON.stringify(s.bases),
          startLine: s.startLine,
          signature: s.signature,
        }),
      );
      calls.set(qualifiedId, s.calls);
    });
  }
  const resolver = new Resolver(symbols, files);
  const edges: ResolvedEdge[] = symbols.flatMap((s) => resolver.callEdges(s, calls.get(s.qualifiedId) ?? []));
  const short = (id: string | null) => (id ?? "").replace(/^.*::/, "");
  return edges.map((e) => `${short(e.srcId)} -> ${short(e.dstId)}@${e.confidence}`);
}
