/**
 * Exploratory retrieval: find entry points that match the subject of the question,
 * walk the call graph forward a few hops into a flow tree, and fetch the pivotal
 * functions (entry, branch points, terminals) within the source budget. A question
 * that asks who calls something ("what calls X", "where is X used") also gets the
 * callers of its entry, two hops up, as a tree of their own.
 */
import "server-only";
import {
  callersOf,
  calleesOf,
  symbolsByName,
  symbolsByQualifiedIds,
  type SymbolRecord,
} from "../../db/code-graph.ts";
import { hybridSearch, lexicalSearch } from "../../search/hybrid.ts";
import { syntheticItem } from "../context.ts";
import type { DiagramPart } from "../types.ts";
import { escapeLabel } from "../../wiki/structure.ts";
import { attachSymbols } from "./diagnostic.ts";
import {
  chunkCandidate,
  docsItems,
  fuseSignals,
  isTestPath,
  lookupNames,
  packCandidates,
  rankFiles,
  symbolCandidate,
  type RetrievalInput,
  type RetrievalOutput,
  type SignalList,
} from "./shared.ts";

interface FlowNode {
  symbol: SymbolRecord;
  depth: number;
  children: FlowNode[];
}

export async function retrieveExploratory(input: RetrievalInput): Promise<RetrievalOutput> {
  const { generationId, anchors, config } = input;
  const lists: SignalList[] = [];
  const named: SymbolRecord[] = [];
  for (const name of lookupNames(anchors, 8))
    named.push(...(await symbolsByName(generationId, name.split(".").pop() ?? name, 5)));
  lists.push({
    name: "named",
    weight: 4,
    candidates: named.map((s) => symbolCandidate(s, "named in the question")),
  });
  const lexical = await lexicalSearch(generationId, input.question, { limit: 25, kinds: ["code"] });
  lists.push({
    name: "bm25",
    weight: 2,
    candidates: lexical.map((c) => chunkCandidate(c, "matches the question's terms")),
  });
  const semantic = await hybridSearch(input.repositoryId, generationId, input.question, {
    limit: 10,
    kinds: ["code"],
  });
  lists.push({
    name: "semantic",
    weight: 0.8,
    candidates: semantic.map((c) => chunkCandidate(c, "similar to the question")),
  });
  const entryRanked = fuseSignals(lists);
  await attachSymbols(
    generationId,
    entryRanked.map((r) => r.candidate),
  );

  // Entry points: public functions first, then methods; classes lead to their methods through the graph.
  // A function the question names is where the trace starts; otherwise prefer public API.
  const namedInQuestion = new Set(lookupNames(anchors, 8).map((n) => n.split(".").pop() ?? n));
  const entries = entryRanked
    .flatMap((r) => (r.candidate.symbol ? [r.candidate.symbol] : []))
    .sort(
      (a, b) =>
        Number(namedInQuestion.has(b.name)) - Number(namedInQuestion.has(a.name)) ||
        entryPriority(b) - entryPriority(a),
    )
    .slice(0, 2);

  const flows: FlowNode[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.qualifiedId)) continue;
    flows.push(
      await walkForward(
        generationId,
        entry,
        0,
        Math.min(config.maxCallGraphHops + 1, 4),
        config.maxCalleesPerHop,
        seen,
        config.features.useCallGraph,
      ),
    );
  }

  // Callers of the entry, when the question asks for them: the function the question
  // names if any, else the best entry.
  const callerTrees: FlowNode[] = [];
  if (config.features.useCallGraph && asksForCallers(input.question)) {
    const target = entries.find((e) => namedInQuestion.has(e.name)) ?? entries[0];
    if (target) callerTrees.push(await walkBackward(generationId, target, 0, 2, CALLERS_PER_HOP));
  }
  const callerSymbols = callerTrees.flatMap((t) => flatten(t).slice(1));

  const flowSymbols = flows.flatMap(flatten);
  const pivotal = flowSymbols
    .map((n, order) => ({ n, order }))
    .sort((a, b) => pivotScore(b.n) - pivotScore(a.n) || a.order - b.order)
    .map(({ n }) =>
      symbolCandidate(
        n.symbol,
        n.depth === 0
          ? "entry point"
          : n.children.length > 1
            ? "branch point in the flow"
            : n.children.length === 0
              ? "end of the call chain"
              : "step in the flow",
      ),
    );
  const callerCandidates = callerSymbols.map((n) =>
    symbolCandidate(n.symbol, n.depth === 1 ? "calls the function asked about" : "calls one of its callers"),
  );
  const ranked = fuseSignals([
    { name: "flow", weight: 3, candidates: pivotal },
    { name: "callers", weight: 3, candidates: callerCandidates },
    ...lists,
  ]);

  const budget = config.modeBudgets.exploratory;
  const flowText = flows.map((f) => renderFlow(f)).join("\n\n");
  const items = flowText
    ? [
        syntheticItem("flow:" + entries.map((e) => e.qualifiedId).join(","), "flow", "Call flow", flowText, {
          reason: "call graph walked forward from the entry points",
          score: 1,
          pass: input.pass,
          maxTokens: 400,
        }),
      ]
    : [];
  const callersText = callerTrees
    .filter((t) => t.children.length > 0)
    .map(
      (t) =>
        `Who calls ${t.symbol.qualifiedName} (each ← line calls the line above it):\n${renderFlow(t, "", "←")}`,
    )
    .join("\n\n");
  if (callersText) {
    items.push(
      syntheticItem(
        "callers:" + callerTrees.map((t) => t.symbol.qualifiedId).join(","),
        "flow",
        "Callers",
        callersText,
        {
          reason: "call graph walked backward from the function asked about",
          score: 1,
          pass: input.pass,
          maxTokens: 300,
        },
      ),
    );
  }
  items.push(
    ...(await packCandidates(
      input,
      ranked,
      Math.min(budget.source, config.initialRetrievalBudget) - items.reduce((n, i) => n + i.tokens, 0),
      { maxItems: 10 },
    )),
  );
  items.push(
    ...(await docsItems(input, input.question, {
      budget: budget.docs,
      used: items.reduce((n, i) => n + i.tokens, 0),
      limit: 2,
    })),
  );
  return {
    items,
    diagram: flows.length ? flowDiagram(flows, callerTrees) : null,
    rankedFiles: rankFiles(ranked).slice(0, 30),
    rankedSymbols: ranked
      .flatMap((r) => (r.candidate.symbol ? [r.candidate.symbol.qualifiedId] : []))
      .slice(0, 50),
  };
}

function entryPriority(s: SymbolRecord): number {
  let score = 0;
  if (s.exported) score += 2;
  if (s.kind === "function") score += 2;
  if (s.kind === "method") score += 1;
  if (/route|handler|endpoint|main|command|view|controller/i.test(`${s.decorators} ${s.name}`)) score += 2;
  score += Math.min(3, s.fanOut / 3);
  return score;
}

function pivotScore(n: FlowNode): number {
  if (n.depth === 0) return 10;
  if (n.children.length > 1) return 6 - n.depth;
  if (n.children.length === 0) return 5 - n.depth;
  return 3 - n.depth;
}

async function walkForward(
  generationId: string,
  symbol: SymbolRecord,
  depth: number,
  maxDepth: number,
  maxCallees: number,
  seen: Set<string>,
  useGraph: boolean,
): Promise<FlowNode> {
  seen.add(symbol.qualifiedId);
  const node: FlowNode = { symbol, depth, children: [] };
  if (!useGraph || depth >= maxDepth) return node;
  const edges = (await calleesOf(generationId, symbol.qualifiedId, 40)).filter(
    (e) => e.dstId && e.confidence >= 0.4,
  );
  const ids = [...new Set(edges.map((e) => e.dstId as string))]
    .filter((id) => !seen.has(id))
    .slice(0, maxCallees);
  const callees = await symbolsInIdOrder(generationId, ids);
  for (const callee of callees) {
    if (seen.has(callee.qualifiedId)) continue;
    node.children.push(
      await walkForward(
        generationId,
        callee,
        depth + 1,
        maxDepth,
        Math.max(2, maxCallees - 2),
        seen,
        useGraph,
      ),
    );
  }
  return node;
}

const CALLERS_PER_HOP = 6;

/** "what calls X", "who uses X", "callers of X", "where is X called/used/invoked", "call sites of X". */
const CALLER_QUESTION = new RegExp(
  [
    // what/who calls X; which functions (of the code) call/use X — not "which … does X call"
    String.raw`\b(?:who|what)\s+(?:calls|invokes|uses|triggers)\b`,
    String.raw`\bwhich(?:\s+(?!does\b|do\b|did\b)\w+){0,4}\s+(?:call|invoke|use|trigger)s?\b`,
    String.raw`\bcallers?\s+(?:of|for)\b`,
    String.raw`\bcall[- ]sites?\b`,
    String.raw`\bwhere\s+(?:is|are)\b.{1,80}?\b(?:called|invoked|used|referenced)\b`,
    String.raw`\bwhere\s+(?:does|do)\b.{1,80}?\b(?:use|call|invoke|reference)\b`,
    String.raw`\b(?:is|are)\s+\S+\s+(?:called|invoked|used)\s+(?:from|by)\b`,
  ].join("|"),
  "i",
);

export function asksForCallers(question: string): boolean {
  return CALLER_QUESTION.test(question);
}

/**
 * Callers of `symbol`, then their callers: a tree whose children are callers (so
 * `renderFlow` draws it upward). Only resolved edges of fair confidence, strongest
 * first, tests last.
 */
async function walkBackward(
  generationId: string,
  symbol: SymbolRecord,
  depth: number,
  maxDepth: number,
  maxCallers: number,
  seen = new Set<string>([symbol.qualifiedId]),
): Promise<FlowNode> {
  const node: FlowNode = { symbol, depth, children: [] };
  if (depth >= maxDepth) return node;
  // Code before tests: a test calling X says less about how X is used than the code does.
  const edges = (await callersOf(generationId, symbol.qualifiedId, 40))
    .filter((e) => e.confidence >= 0.4)
    .sort((a, b) => Number(isTestPath(a.srcPath)) - Number(isTestPath(b.srcPath)));
  const ids = [...new Set(edges.map((e) => e.srcId))].filter((id) => !seen.has(id)).slice(0, maxCallers);
  ids.forEach((id) => seen.add(id));
  const callers = await symbolsInIdOrder(generationId, ids);
  for (const caller of callers) {
    node.children.push(
      await walkBackward(generationId, caller, depth + 1, maxDepth, Math.max(2, maxCallers - 3), seen),
    );
  }
  return node;
}

/** The symbols with these ids, in the order of the ids (edges come ranked; the query does not keep it). */
async function symbolsInIdOrder(generationId: string, ids: string[]): Promise<SymbolRecord[]> {
  const order = new Map(ids.map((id, i) => [id, i]));
  const symbols = await symbolsByQualifiedIds(generationId, ids);
  return symbols.sort((a, b) => (order.get(a.qualifiedId) ?? 0) - (order.get(b.qualifiedId) ?? 0));
}

function flatten(node: FlowNode): FlowNode[] {
  return [node, ...node.children.flatMap(flatten)];
}

/** A call tree as indented lines; `arrow` says how a child relates to its parent (→ callee, ← caller). */
function renderFlow(node: FlowNode, indent = "", arrow = "→"): string {
  const s = node.symbol;
  const line = `${indent}${indent ? `${arrow} ` : ""}${s.qualifiedName}()  [${s.path}:${s.startLine}-${s.endLine}]`;
  return [line, ...node.children.map((c) => renderFlow(c, `${indent}    `, arrow))].join("\n");
}

function flowDiagram(flows: FlowNode[], callerTrees: FlowNode[] = []): DiagramPart {
  const nodes = [...flows, ...callerTrees].flatMap(flatten);
  const ids = new Map<string, string>();
  nodes.forEach((n) => {
    if (!ids.has(n.symbol.qualifiedId)) ids.set(n.symbol.qualifiedId, `f${ids.size}`);
  });
  const lines = ["graph TD"];
  for (const [qid, id] of ids) {
    const n = nodes.find((x) => x.symbol.qualifiedId === qid) as FlowNode;
    lines.push(`  ${id}["${escapeLabel(n.symbol.qualifiedName)}"]`);
  }
  const edges = new Set<string>();
  const visit = (n: FlowNode) => {
    for (const c of n.children) {
      edges.add(`  ${ids.get(n.symbol.qualifiedId)} --> ${ids.get(c.symbol.qualifiedId)}`);
      visit(c);
    }
  };
  flows.forEach(visit);
  // Caller trees point the other way: a caller's arrow goes into what it calls.
  const visitCallers = (n: FlowNode) => {
    for (const c of n.children) {
      edges.add(`  ${ids.get(c.symbol.qualifiedId)} --> ${ids.get(n.symbol.qualifiedId)}`);
      visitCallers(c);
    }
  };
  callerTrees.forEach(visitCallers);
  lines.push(...edges);
  return {
    kind: "call-flow",
    title: callerTrees.some((t) => t.children.length > 0)
      ? "Callers and call flow of the entry point"
      : "Call flow from the entry point",
    mermaid: lines.join("\n"),
    nodes: [...ids].map(([qid, id]) => {
      const n = nodes.find((x) => x.symbol.qualifiedId === qid) as FlowNode;
      return {
        id,
        label: n.symbol.qualifiedName,
        path: n.symbol.path,
        startLine: n.symbol.startLine,
        endLine: n.symbol.endLine,
      };
    }),
  };
}
