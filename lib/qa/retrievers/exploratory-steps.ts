/**
 * The steps an exploratory question names, as the code runs them: the method a named class
 * does its work in, the receiver a bare method runs on (the class named beside it, or the
 * first class the flow reaches), the overload whose parameters fit the arguments written,
 * and the class an inherited method is called on. Test code and test helpers are never
 * steps unless the question is about tests.
 */
import "server-only";
import {
  symbolsByName,
  symbolsByQualifiedIds,
  symbolsByQualifiedName,
  symbolsInFile,
  type SymbolRecord,
} from "../../db/code-graph.ts";
import { splitIdentifier, stem } from "../../db/tokenize.ts";
import { sameStem, type ConceptTerm } from "../concepts.ts";
import { normalizeName, resolveSubjects } from "../subjects.ts";
import { isTestPath, isTestSymbol, type Candidate } from "./shared.ts";
import { parameterWords } from "./exploratory-unresolved.ts";
import { ancestorTypes, flatten, implemented, type FlowNode } from "./exploratory-walk.ts";
import { isConstructor } from "./conceptual.ts";
import { flowEndAt } from "../../answerers/question-clauses.ts";

/**
 * A later step named as a bare method (`… and the first nextToken() call`) runs on what the
 * earlier steps built: the method of that name of the first class their flows reach
 * (`new UTF8StreamJsonParser(…)` → `UTF8StreamJsonParser.nextToken`), when the match found
 * belongs to a class they do not reach (an interface's or base class's declaration).
 */
export async function reachedReceiverMethod(
  generationId: string,
  entry: SymbolRecord,
  flows: FlowNode[],
): Promise<SymbolRecord | null> {
  if (entry.kind !== "method" || flows.length === 0) return null;
  const reached: string[] = [];
  for (const n of flows.flatMap(flatten)) {
    const cls = CLASS_KINDS.has(n.symbol.kind) ? n.symbol.qualifiedName : n.symbol.parentId;
    if (cls && !reached.includes(cls)) reached.push(cls);
  }
  if (entry.parentId && reached.includes(entry.parentId)) return null;
  for (const cls of reached) {
    const own = await symbolsByQualifiedName(generationId, `${cls}.${entry.name}`, 5);
    const best = own.find((s) => s.fanOut > 0) ?? own[0];
    if (best) return best;
  }
  return null;
}

/**
 * Tests, and the code that serves them — e2e page objects, fixtures, mocks, test data and
 * test helpers — which neither start nor join a flow unless the question is about tests.
 */
export function isTestCode(path: string): boolean {
  return isTestPath(path) || TEST_HELPER_PATH.test(path);
}

const TEST_HELPER_PATH =
  /(^|\/)(?:e2e|fixtures|__fixtures__|__mocks__|testdata|test-support|test-?utils?|cypress|playwright)\//;

/**
 * Scores a symbol's name against the question's concepts (0 when it shares none); words
 * only its class's name carries count half, so every method of `FixtureRequest` is not
 * "about fixtures".
 */
export function relevanceOf(terms: ConceptTerm[], ownerCounts = 0.5): (s: SymbolRecord) => number {
  return (s) => {
    const own = splitIdentifier(s.name).map(stem);
    const owner = splitIdentifier(
      s.qualifiedName.slice(0, Math.max(0, s.qualifiedName.lastIndexOf("."))),
    ).map(stem);
    return terms.reduce(
      (n, t) =>
        n + (own.some((p) => sameStem(t, p)) ? 1 : owner.some((p) => sameStem(t, p)) ? ownerCounts : 0),
      0,
    );
  };
}

/** The method of a class that does its work for this question: one named like the question, else `__call__`, `run`, `handle` … */
export async function workingMethod(
  generationId: string,
  cls: SymbolRecord,
  terms: ConceptTerm[],
): Promise<SymbolRecord | null> {
  // A constructor builds the object; the work is done by its methods.
  const methods = (await symbolsInFile(generationId, cls.path)).filter(
    (s) => s.parentId === cls.qualifiedName && !isConstructor(s),
  );
  if (methods.length === 0) return null;
  const relevant = relevanceOf(terms);
  const scored = methods
    .map((m) => ({
      m,
      score: relevant(m) * 2 + (WORKING_METHOD.test(m.name) ? 1 : 0) + Math.min(1, m.fanOut / 10),
    }))
    .sort((a, b) => b.score - a.score);
  return scored[0] && scored[0].score > 0 ? scored[0].m : null;
}

/**
 * One step per subject the question names, in its order: the subject's best match, or a
 * same-named implementation that calls something when the best match is a declaration
 * that calls nothing (an interface's or base class's method); a class leads to its working
 * method. A class named beside a method it has ("after UTF8StreamJsonParser has returned …,
 * I call getText()") is the receiver: the step is its own method, not a step of its own. A
 * method written with its arguments (`createParser(inputStream)`) is the overload whose
 * parameters they fit. Values, fields and tests are no steps.
 */
export async function namedSteps(
  generationId: string,
  question: string,
  subjects: Candidate[],
  terms: ConceptTerm[],
  tests: boolean,
): Promise<SymbolRecord[]> {
  const byMention = new Map<string, SymbolRecord[]>();
  const prelude = chainPrelude(question);
  for (const c of subjects)
    if (
      c.symbol &&
      (tests || !(isTestSymbol(c.symbol) || isTestCode(c.symbol.path))) &&
      !prelude.has(mentionName(c.reason))
    )
      byMention.set(c.reason, [...(byMention.get(c.reason) ?? []), c.symbol]);
  const picks = [...byMention.values()].map((list) => {
    const first = list[0] as SymbolRecord;
    // `TimeoutHandler` builds a `timeoutHandler` whose method does the work: same name, any case.
    return first.fanOut === 0
      ? (list.find(
          (s) =>
            normalizeName(s.name) === normalizeName(first.name) &&
            (s.fanOut > 0 || CLASS_KINDS.has(s.kind)) &&
            s !== first,
        ) ?? first)
      : first;
  });
  // A class named by its name matches its constructor too: the class is the step (its working method).
  for (const [i, pick] of picks.entries()) {
    if (!isConstructor(pick) || !pick.parentId) continue;
    const cls = (await symbolsByQualifiedName(generationId, pick.parentId, 3)).find(
      (s) => CLASS_KINDS.has(s.kind) && s.path === pick.path,
    );
    if (cls) picks[i] = cls;
  }
  const classes = picks.filter((p) => CLASS_KINDS.has(p.kind));
  const receivers = new Set<string>();
  const steps: SymbolRecord[] = [];
  for (const pick of picks) {
    let step: SymbolRecord | null = pick;
    if (pick.kind === "method" || pick.kind === "function") {
      const named = ownerNamed(question, pick);
      const own = named ? null : await receiverMethod(generationId, pick, classes);
      // The method's own class, named beside it, is its receiver either way.
      const receiver = own?.parentId ?? (named ? pick.parentId : null);
      if (receiver) receivers.add(receiver);
      step = await fittingOverload(generationId, own ?? pick, question);
    } else step = CLASS_KINDS.has(pick.kind) ? pick : null;
    if (step && !steps.some((x) => x.qualifiedId === step.qualifiedId)) steps.push(step);
  }
  const out: SymbolRecord[] = [];
  const walks = (path: string) => tests || !isTestCode(path);
  for (const named of steps) {
    // A call through an interface or abstract method runs its implementation (`JwtParser.parseSignedClaims` → `DefaultJwtParser`'s).
    const step =
      named.kind === "method" ? ((await implemented(generationId, [named], walks))[0] ?? named) : named;
    if (out.some((x) => x.qualifiedId === step.qualifiedId)) continue;
    if (!CLASS_KINDS.has(step.kind)) out.push(step);
    else if (!receivers.has(step.qualifiedName)) {
      const working = await workingMethod(generationId, step, terms);
      if (working && !out.some((x) => x.qualifiedId === working.qualifiedId)) out.push(working);
    }
    if (out.length >= 3) break;
  }
  return out;
}

/** The last name a subject's mention writes (`named in the question (Jwts.parser)` → parser). */
function mentionName(reason: string): string {
  const mention = /\((.+)\)$/.exec(reason)?.[1] ?? reason;
  return /([A-Za-z_$][\w$]*)[^\w$]*$/.exec(mention)?.[1] ?? mention;
}

/** A call that builds the object a chain runs on (`WalkDir::new("src")`, `NewRouter()`, `new Parser(…)`). */
const CONSTRUCTS = /^(?:new|New[A-Z_]\w*|create|of|from)$/;

/** A chain of calls written in the question: `Jwts.builder().subject("joe").signWith(key).compact()`. */
const CALL_CHAIN =
  /(?:[A-Za-z_$][\w$]*\s*(?:\.|::|->)\s*)?[A-Za-z_$][\w$]*\s*\([^()]*\)(?:\s*(?:\.|->)\s*[A-Za-z_$][\w$]*\s*\([^()]*\))+/g;

/**
 * The names of a chained call's prelude, which are no steps of the flow asked about: the
 * factory or getter calls without arguments at its head (`Jwts.builder()`, `Jwts.parser()`,
 * and their receiver) and the constructor building what it runs on (`WalkDir::new("src")`), and every call before the one the question says the flow starts from
 * ("… what happens from parseSignedClaims"). Walked, a factory's subtree (registries,
 * lookups) fills the answer in place of the flow.
 */
export function chainPrelude(question: string): Set<string> {
  const out = new Set<string>();
  const from = /\b(?:from|starting (?:at|with))\s+`?([A-Za-z_$][\w$]*)/i.exec(question)?.[1];
  for (const [chain] of question.matchAll(CALL_CHAIN)) {
    const calls = [
      ...chain.matchAll(/(?:([A-Za-z_$][\w$]*)\s*(?:\.|::|->)\s*)?([A-Za-z_$][\w$]*)\s*\(([^()]*)\)/g),
    ].map((m) => ({ receiver: m[1], name: m[2] ?? "", args: (m[3] ?? "").trim() }));
    const start = from ? calls.findIndex((c) => c.name === from) : -1;
    let head = 0;
    while (head < calls.length - 1 && (!calls[head]?.args || CONSTRUCTS.test(calls[head]?.name ?? "")))
      head++;
    const cut = Math.max(start, head);
    for (const c of calls.slice(0, cut)) {
      out.add(c.name);
      if (c.receiver) out.add(c.receiver);
    }
  }
  return out;
}

/**
 * The candidates named only in the question's end clause, apart from the rest: the mention a
 * candidate's reason quotes (`named in the question (mux.Vars)`) first written there.
 */
export function splitFlowEnds(
  question: string,
  candidates: Candidate[],
): { rest: Candidate[]; ends: Candidate[] } {
  const at = flowEndAt(question);
  const rest: Candidate[] = [];
  const ends: Candidate[] = [];
  for (const c of candidates) {
    const mention = /\((.+)\)$/.exec(c.reason)?.[1];
    const first = mention ? question.indexOf(mention) : -1;
    (at >= 0 && first > at ? ends : rest).push(c);
  }
  return { rest, ends };
}

/** Whether the question names the class a method belongs to (`Client.send`): then it is no bare method. */
export function ownerNamed(question: string, method: SymbolRecord): boolean {
  const escaped = method.parentId
    ?.split(/[.:\\]/)
    .pop()
    ?.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return !!escaped && new RegExp(`(?:^|[^\\w$])${escaped}(?![\\w$])`).test(question);
}

/** The method of that name one of these classes defines itself, when the match found is another class's. */
async function receiverMethod(
  generationId: string,
  method: SymbolRecord,
  classes: SymbolRecord[],
): Promise<SymbolRecord | null> {
  for (const cls of classes) {
    if (method.parentId === cls.qualifiedName) return null;
    const own = await symbolsByQualifiedName(generationId, `${cls.qualifiedName}.${method.name}`, 5);
    const best = own.find((s) => s.fanOut > 0) ?? own[0];
    if (best) return best;
  }
  return null;
}

/**
 * The overload of a method whose parameters fit the arguments the question writes
 * (`createParser(inputStream)` → `createParser(InputStream in)`), among the methods of its
 * class named as written (`createParser`, not the `_createParser` a loose match found);
 * the match itself when the question writes no arguments or none fits better.
 */
async function fittingOverload(
  generationId: string,
  method: SymbolRecord,
  question: string,
): Promise<SymbolRecord> {
  const calls = [...question.matchAll(/([A-Za-z_$][\w$]*)\s*\(([^()]*)\)/g)].filter(
    (m) => normalizeName(m[1] ?? "") === normalizeName(method.name),
  );
  const args = new Set(
    calls.flatMap((m) => (m[2] ?? "").match(/[A-Za-z_]\w*/g) ?? []).map((w) => w.toLowerCase()),
  );
  const written = calls.map((m) => m[1] ?? "").find((n) => n !== method.name);
  if (args.size === 0 && !written) return method.fanOut > 0 ? method : workingOverload(generationId, method);
  const owner = method.qualifiedName.slice(0, method.qualifiedName.length - method.name.length);
  const overloads = await symbolsByQualifiedName(generationId, `${owner}${written ?? method.name}`, 40);
  if (overloads.length === 0) return method;
  const fit = (s: SymbolRecord) => [...parameterWords(s.signature)].filter((w) => args.has(w)).length;
  const best = overloads
    .map((s) => ({ s, fit: fit(s) }))
    .sort((a, b) => b.fit - a.fit || a.s.startLine - b.s.startLine)[0] as { s: SymbolRecord; fit: number };
  return written || best.fit > fit(method) ? best.s : method;
}

/**
 * For a function that calls nothing, its overload in the same file that does the work: typed
 * declarations (Python's `@overload` stubs, TypeScript's overload signatures) come before
 * the implementation and only declare it.
 */
async function workingOverload(generationId: string, method: SymbolRecord): Promise<SymbolRecord> {
  const overloads = (await symbolsByQualifiedName(generationId, method.qualifiedName, 40)).filter(
    (s) => s.path === method.path && s.kind === method.kind && s.fanOut > 0,
  );
  return (
    overloads.sort((a, b) => b.fanOut - a.fanOut || b.endLine - b.startLine - (a.endLine - a.startLine))[0] ??
    method
  );
}

const CLASS_KINDS = new Set(["class", "struct", "interface", "trait", "type", "module"]);

/**
 * The class a question calls an inherited method on: `PoolManager.request` resolved to
 * `RequestMethods.request` runs with `self` a `PoolManager`.
 */
export async function dispatchClass(
  generationId: string,
  question: string,
  entry: SymbolRecord,
): Promise<SymbolRecord | null> {
  const subjects = await resolveSubjects(generationId, question);
  for (const s of subjects) {
    const parts = s.mention.parts;
    const owner = parts[parts.length - 2];
    if (!owner || s.symbols[0]?.qualifiedId !== entry.qualifiedId) continue;
    if (normalizeName(entry.qualifiedName.split(".").slice(-2, -1)[0] ?? "") === normalizeName(owner))
      return null;
    const classes = (await symbolsByName(generationId, owner, 5)).filter((c) => CLASS_KINDS.has(c.kind));
    return classes[0] ?? null;
  }
  // "dispatch on a GroupCountBased dispatcher", "what does a JsonReader's read do": a class the
  // question names apart from the method, built on the method's class, is the receiver.
  if (!entry.parentId) return null;
  const owner = `${entry.path}::${entry.parentId}`;
  for (const named of subjects.flatMap((s) => s.symbols)) {
    if (!CLASS_KINDS.has(named.kind) || named.qualifiedId === owner) continue;
    if ((await ancestorTypes(generationId, named.qualifiedId)).has(owner))
      return (await symbolsByQualifiedIds(generationId, [named.qualifiedId]))[0] ?? null;
  }
  return null;
}

const WORKING_METHOD =
  /^(?:__call__|call|run|main|handle|dispatch|execute|start|invoke|process|serve|apply)$/;
