/**
 * A start for a call on an instance a factory made (`await got(url)` where `const got =
 * create(defaults)`, `ky.post(…)` where `const ky = createInstance()`): the instance is no
 * symbol of the index, but the factory is, and so is the function it returns when that is
 * defined inside it under the instance's name (`create.got`). The flow a call on the instance
 * runs starts there.
 */
import "server-only";
import {
  searchChunks,
  symbolsByName,
  symbolsByQualifiedName,
  type SymbolRecord,
} from "../../db/code-graph.ts";
import { ftsMatchExpression } from "../../db/tokenize.ts";
import { isTestPath, isTestSymbol } from "./shared.ts";

/** The first call the question writes: `got(…)`, `ky.post(…)`, `client.get(…)` (the instance and the method). */
export function writtenInstanceCall(question: string): { instance: string; method: string | null } | null {
  for (const m of question.matchAll(WRITTEN_CALL)) {
    const [, first = "", second] = m;
    if (NOT_AN_INSTANCE.test(first)) continue;
    return { instance: first, method: second ?? null };
  }
  return null;
}

/**
 * The name of the factory an instance is assigned from in a piece of code (`const got =
 * create(defaults)` → `create`; `app := NewApp(cfg)` → `NewApp`; `client = make_client()` →
 * `make_client`), not a class constructed with `new`.
 */
export function factoryOf(text: string, instance: string): string | null {
  const name = instance.replace(/\$/g, "\\$");
  const assigned = new RegExp(
    String.raw`(?:^|[\n;])[ \t]*(?:(?:export[ \t]+)?(?:const|let|var)[ \t]+)?${name}[ \t]*(?::[^=\n]+)?(?::=|=)(?!=)[ \t]*(?:await[ \t]+)?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)[ \t]*\(`,
  );
  const m = assigned.exec(text);
  const factory = m?.[1]?.split(".").pop();
  return factory && factory !== "new" && factory !== "require" && factory !== "import" ? factory : null;
}

/**
 * Where a flow started by a call on a factory-made instance begins: the function the factory
 * defines under the instance's name when the instance itself is called (`create.got`), else the
 * factory (which builds the instance's methods: `createInstance` for `ky.post`). Null when the
 * question writes no call, or its instance is assigned from no factory the index knows.
 */
export async function factoryStart(generationId: string, question: string): Promise<SymbolRecord | null> {
  const call = writtenInstanceCall(question);
  if (!call) return null;
  // The instance's own name, an English word as often as not (`got`), searched as written: first
  // as a declaration (`const got`), then anywhere. Module-level code is in its file's chunk.
  const declared = ftsMatchExpression(DECLARATIONS.map((d) => `${d} ${call.instance}`));
  const anywhere = ftsMatchExpression([call.instance]);
  const hits = [
    ...(declared ? await searchChunks(generationId, declared, { limit: 20, kinds: ["code", "file"] }) : []),
    ...(anywhere ? await searchChunks(generationId, anywhere, { limit: 40, kinds: ["code", "file"] }) : []),
  ];
  for (const hit of hits) {
    if (isTestPath(hit.path)) continue;
    const name = factoryOf(hit.text, call.instance);
    if (!name) continue;
    // The factory that does the most work of its name (one that only defines the functions it
    // returns calls nothing itself).
    const factory = (await symbolsByName(generationId, name, 20))
      .filter((s) => (s.kind === "function" || s.kind === "method") && !isTestSymbol(s))
      .sort((a, b) => b.fanOut - a.fanOut)[0];
    if (!factory) continue;
    if (call.method) return factory;
    const own = (
      await symbolsByQualifiedName(generationId, `${factory.qualifiedName}.${call.instance}`, 2)
    ).find((s) => s.path === factory.path && (s.kind === "function" || s.kind === "method"));
    return own ?? factory;
  }
  return null;
}

/** The words declaring a variable, before its name. */
const DECLARATIONS = ["const", "let", "var"];

/** A call written in the question, on an instance or not: `got(`, `ky.post(`. */
const WRITTEN_CALL = /(?<![\w$.])([A-Za-z_$][\w$]*)(?:\s*\.\s*([A-Za-z_$][\w$]*))?\s*\(/g;

/** Words that open a call without naming an instance. */
const NOT_AN_INSTANCE =
  /^(?:await|new|return|if|for|while|switch|typeof|function|async|yield|print|require|import|e\.g|i\.e)$/;
