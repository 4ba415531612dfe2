/**
 * The call graph around a question's subject, for analytical questions about a named
 * symbol ("which parts call into Scene, and how do they depend on each other?", "what
 * does Command depend on and what depends on it?"): its callers up to two hops (a
 * class counts the calls into any of its methods from outside it), its callees up to
 * two hops, the files they are in with how many callers each holds, and the imports
 * among those files. Tests, examples and vendored code are left out unless the
 * question is about them. The diagram shows the subject, its busiest callers and
 * callees; the rest is counted in "+ N more" nodes.
 */
import "server-only";
import {
  callEdgesOfMany,
  symbolsByName,
  symbolsByQualifiedIds,
  symbolsInFile,
  type SymbolRecord,
} from "../../db/code-graph.ts";
import { symbolsCallingName } from "../../db/structure-queries.ts";
import { loadImportEdges } from "../../db/wiki-inputs.ts";
import { splitIdentifier } from "../../db/tokenize.ts";
import { escapeLabel } from "../../wiki/structure.ts";
import type { DiagramNode, DiagramPart } from "../types.ts";
import { storedCalls, TYPE_KINDS } from "./shared.ts";

export interface GraphSymbol {
  symbol: SymbolRecord;
  /** 1: calls the subject (or is called by it); 2: one hop further */
  depth: 1 | 2;
  /** calls along this hop */
  calls: number;
  /** the symbol one hop nearer the subject it connects to */
  via: string;
  /** the line of the first call along this hop (where a long caller makes it) */
  line?: number;
}

export interface SubjectGraph {
  /** the subject: the symbol named (a class with its methods counts as one) */
  subject: SymbolRecord;
  /** ids that stand for the subject (the class and its methods) */
  members: string[];
  /** whether the direct callers are those calling its name, none resolving to it */
  byName: boolean;
  /** of a class: its members called from outside it, most called first */
  used: { symbol: SymbolRecord; calls: number }[];
  callers: GraphSymbol[];
  callees: GraphSymbol[];
  /** files of the direct callers, with how many callers each holds and how many calls they make, busiest first */
  callerFiles: { path: string; callers: number; calls: number }[];
  /** imports among the caller files and the subject's file */
  fileImports: { from: string; to: string; count: number }[];
}

const MAX_MEMBERS = 80;
const CONSTRUCTOR = /^(?:constructor|__init__|__new__|initialize|new|__construct)$/;
const PER_SYMBOL = { callers: 40, callees: 25 };
const PER_HOP2 = { callers: 16, callees: 6 };
/** callers read over all the subject's members, and at most per member */
const CALLERS_READ = 2000;
const MAX_CALLERS_READ = 400;

/**
 * `constructions`: only the code that creates the subject counts ("where is a code writer
 * created?"): calls of a class itself (`new CodeWriter(…)`) and of its constructors.
 */
export async function subjectGraph(
  generationId: string,
  subject: SymbolRecord,
  keep: (path: string) => boolean,
  constructions = false,
  keepName: (qualifiedName: string) => boolean = () => true,
): Promise<SubjectGraph> {
  // An edge end by its id (`path::Qualified.name`): a test written inside a source file
  // (Rust's `mod tests`) is left out like a test file.
  const counts = (id: string | null) => !id || keepName(id.slice(id.indexOf("::") + 2));
  const members = [subject.qualifiedId];
  const memberRecords = new Map<string, SymbolRecord>();
  if (TYPE_KINDS.has(subject.kind)) {
    const inFile = await symbolsInFile(generationId, subject.path);
    const prefix = `${subject.qualifiedName}.`;
    const counted = (s: SymbolRecord) =>
      !constructions || s.name === subject.name || CONSTRUCTOR.test(s.name);
    for (const s of inFile)
      if (s.qualifiedName.startsWith(prefix) && counted(s) && members.length < MAX_MEMBERS) {
        members.push(s.qualifiedId);
        memberRecords.set(s.qualifiedId, s);
      }
  }
  const memberSet = new Set(members);
  // Callers come most confident first, so a method tests call a hundred times would have
  // its one guessed call from the library cut off: a few members read all their callers.
  const first = await callEdgesOfMany(generationId, members, {
    callers: Math.min(
      MAX_CALLERS_READ,
      Math.max(PER_SYMBOL.callers, Math.floor(CALLERS_READ / members.length)),
    ),
    callees: PER_SYMBOL.callees,
  });
  // Calls between the subject's own members are how it works inside, not who uses it.
  const otherOwner = await rivalReceiver(generationId, subject);
  const incoming = [...first.callers.values()]
    .flat()
    .filter((e) => !memberSet.has(e.srcId) && keep(e.srcPath) && counts(e.srcId) && !otherOwner(e));
  const direct = tally(
    incoming,
    (e) => e.srcId,
    (e) => e.dstId ?? "",
  );
  // Of a class, the members the others call, most called first (what they use it for).
  const used = [
    ...tally(
      incoming,
      (e) => e.dstId ?? "",
      (e) => e.srcId,
    ),
  ]
    .flatMap(([id, c]) => {
      const symbol = memberRecords.get(id);
      return symbol ? [{ symbol, calls: c.calls }] : [];
    })
    .sort((a, b) => b.calls - a.calls || a.symbol.startLine - b.symbol.startLine);
  // No resolved caller: the calls written with its name that resolved to nothing else
  // (`dispatch::set_global_default(..)` through a re-export the resolver does not follow).
  const byName = direct.size === 0 && !TYPE_KINDS.has(subject.kind);
  if (byName)
    for (const id of await callersByName(generationId, subject, keep)) {
      if (counts(id)) direct.set(id, { calls: 1, via: subject.qualifiedId });
    }
  // A method's callers the resolver left unresolved (`route.Match(…)` where several types
  // define Match): calls of its name on a receiver named like its class.
  else if (!constructions)
    for (const [id, t] of await callersByReceiver(generationId, subject, keep, memberSet))
      if (!direct.has(id) && counts(id)) direct.set(id, t);
  const out = tally(
    [...first.callees.values()]
      .flat()
      .filter((e) => e.dstId && !memberSet.has(e.dstId) && keep(e.dstPath ?? "") && counts(e.dstId)),
    (e) => e.dstId as string,
    (e) => e.srcId,
  );
  const second = await callEdgesOfMany(generationId, [...direct.keys(), ...out.keys()].slice(0, 120), {
    callers: PER_HOP2.callers,
    callees: PER_HOP2.callees,
  });
  const seen = new Set([...members, ...direct.keys(), ...out.keys()]);
  const upstream = tally(
    [...direct.keys()]
      .flatMap((id) => second.callers.get(id) ?? [])
      .filter((e) => !seen.has(e.srcId) && keep(e.srcPath) && counts(e.srcId)),
    (e) => e.srcId,
    (e) => e.dstId ?? "",
  );
  const downstream = tally(
    [...out.keys()]
      .flatMap((id) => second.callees.get(id) ?? [])
      .filter((e) => e.dstId && !seen.has(e.dstId) && keep(e.dstPath ?? "") && counts(e.dstId)),
    (e) => e.dstId as string,
    (e) => e.srcId,
  );
  const records = new Map(
    (
      await symbolsByQualifiedIds(generationId, [
        ...direct.keys(),
        ...out.keys(),
        ...upstream.keys(),
        ...downstream.keys(),
      ])
    ).map((s) => [s.qualifiedId, s]),
  );
  const listed = (counts: Map<string, Tally>, depth: 1 | 2): GraphSymbol[] =>
    sameNameOnce(
      [...counts].flatMap(([id, c]) => {
        const symbol = records.get(id);
        return symbol ? [{ symbol, depth, calls: c.calls, via: c.via, line: c.line }] : [];
      }),
    ).sort((a, b) => b.calls - a.calls || a.symbol.qualifiedName.localeCompare(b.symbol.qualifiedName));
  const callers = [...listed(direct, 1), ...listed(upstream, 2)];
  const callees = [...byWeight(listed(out, 1), subject), ...byWeight(listed(downstream, 2), subject)];
  const callerFiles = filesOfCallers(callers);
  sortCallers(callers, callerFiles, used);
  const fileImports = await importsAmong(generationId, [subject.path, ...callerFiles.map((f) => f.path)]);
  return {
    subject,
    members,
    byName: byName && direct.size > 0,
    used,
    callers,
    callees,
    callerFiles,
    fileImports,
  };
}

/**
 * One entry per function name in a file: the definitions of an overloaded or conditionally
 * compiled function (`from_path` for unix and for windows) are one caller, their calls summed.
 */
function sameNameOnce(list: GraphSymbol[]): GraphSymbol[] {
  const byName = new Map<string, GraphSymbol>();
  for (const g of list) {
    const key = `${g.symbol.path}::${g.symbol.qualifiedName}`;
    const seen = byName.get(key);
    if (!seen) byName.set(key, { ...g });
    else {
      seen.calls += g.calls;
      if (g.line && (!seen.line || g.line < seen.line)) seen.line = g.line;
    }
  }
  return [...byName.values()];
}

/**
 * Callees by how much of the subject's work they carry: called more often, longer (a
 * step that does the work, not a one-line conversion), beside the subject in its own
 * file (its own helpers), and not a utility every part of the code calls.
 */
function byWeight(list: GraphSymbol[], subject: SymbolRecord): GraphSymbol[] {
  // A type's span is its members, not the work one construction does.
  const span = (c: GraphSymbol) =>
    Math.min(c.symbol.endLine - c.symbol.startLine, TYPE_KINDS.has(c.symbol.kind) ? TYPE_SPAN : Infinity);
  const weight = (c: GraphSymbol) =>
    c.calls +
    Math.log2(2 + span(c)) +
    (c.symbol.path === subject.path ? OWN_FILE_WEIGHT : 0) -
    UTILITY_WEIGHT * Math.log2(1 + c.symbol.fanIn);
  return list
    .map((c) => ({ c, w: weight(c) }))
    .sort((a, b) => b.w - a.w || a.c.symbol.qualifiedName.localeCompare(b.c.symbol.qualifiedName))
    .map((x) => x.c);
}

const OWN_FILE_WEIGHT = 2;
const TYPE_SPAN = 10;
const UTILITY_WEIGHT = 0.5;

/** Files by how many calls their functions make into the subject ("which of them use it most"). */
function filesOfCallers(callers: GraphSymbol[]): SubjectGraph["callerFiles"] {
  const byFile = new Map<string, { callers: number; calls: number }>();
  for (const c of callers.filter((x) => x.depth === 1)) {
    const entry = byFile.get(c.symbol.path) ?? { callers: 0, calls: 0 };
    entry.callers++;
    entry.calls += c.calls;
    byFile.set(c.symbol.path, entry);
  }
  return [...byFile]
    .map(([path, n]) => ({ path, ...n }))
    .sort((a, b) => b.calls - a.calls || b.callers - a.callers || a.path.localeCompare(b.path));
}

/**
 * Direct callers before those two hops away; of a class, callers of the member used most
 * first (what the class is mostly used for); then by calls, those in the busiest files first.
 */
function sortCallers(
  callers: GraphSymbol[],
  callerFiles: SubjectGraph["callerFiles"],
  used: SubjectGraph["used"],
): void {
  const fileRank = new Map(callerFiles.map((f, i) => [f.path, i]));
  const usedRank = new Map(used.map((u, i) => [u.symbol.qualifiedId, i]));
  const rank = (c: GraphSymbol) => (c.depth === 1 ? (fileRank.get(c.symbol.path) ?? 0) : 0);
  const purpose = (c: GraphSymbol) => (c.depth === 1 ? (usedRank.get(c.via) ?? 0) : 0);
  callers.sort(
    (a, b) => a.depth - b.depth || purpose(a) - purpose(b) || b.calls - a.calls || rank(a) - rank(b),
  );
}

/** The imports among the files, counted per pair, most first. */
async function importsAmong(generationId: string, paths: string[]): Promise<SubjectGraph["fileImports"]> {
  const files = new Set(paths);
  const counts = new Map<string, { from: string; to: string; count: number }>();
  for (const e of await loadImportEdges(generationId, { from: [...files] })) {
    if (!files.has(e.dstPath) || e.srcPath === e.dstPath) continue;
    const key = `${e.srcPath}>${e.dstPath}`;
    const entry = counts.get(key) ?? { from: e.srcPath, to: e.dstPath, count: 0 };
    entry.count++;
    counts.set(key, entry);
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || a.from.localeCompare(b.from));
}

/**
 * Functions whose calls name the subject and resolve to no other function of that name:
 * the callers the resolved graph misses (a call through a re-export or an alias).
 */
async function callersByName(
  generationId: string,
  subject: SymbolRecord,
  keep: (path: string) => boolean,
): Promise<string[]> {
  const named = (await symbolsCallingName(generationId, subject.name, MAX_BY_NAME)).filter(
    (s) => s.qualifiedId !== subject.qualifiedId && keep(s.path),
  );
  const edges = await callEdgesOfMany(
    generationId,
    named.map((s) => s.qualifiedId),
    { callers: 0, callees: 40 },
  );
  const elsewhere = (id: string) =>
    (edges.callees.get(id) ?? []).some(
      (e) => e.dstId !== subject.qualifiedId && (e.dstId ?? "").split(/[.:]/).pop() === subject.name,
    );
  return named.filter((s) => !elsewhere(s.qualifiedId)).map((s) => s.qualifiedId);
}

const MAX_BY_NAME = 60;

/**
 * Functions calling a method's name on a receiver named like the method's class (`route`,
 * `self.route`, `this.pool` for `ConnectionPool`, `conn` for `Connection`) where the index
 * resolved that call to nothing: the callers a resolver misses when several types define
 * the name. Nothing for a function outside a class.
 */
async function callersByReceiver(
  generationId: string,
  subject: SymbolRecord,
  keep: (path: string) => boolean,
  members: Set<string>,
): Promise<Map<string, Tally>> {
  const out = new Map<string, Tally>();
  const owner = subject.qualifiedName.split(".").at(-2);
  if (!owner || TYPE_KINDS.has(subject.kind)) return out;
  const named = (await symbolsCallingName(generationId, subject.name, MAX_BY_NAME)).filter(
    (s) => !members.has(s.qualifiedId) && keep(s.path),
  );
  const sites = named.flatMap((s) => {
    const lines = storedCalls(s.calls)
      .filter((c) => c.name === subject.name && c.receiver && receiverNames(c.receiver, owner))
      .map((c) => c.line);
    return lines.length ? [{ symbol: s, lines }] : [];
  });
  if (sites.length === 0) return out;
  const edges = await callEdgesOfMany(
    generationId,
    sites.map((x) => x.symbol.qualifiedId),
    { callers: 0, callees: 200 },
  );
  for (const { symbol, lines } of sites) {
    // A call at that line the index resolved (to this method or another) is not a by-name guess.
    const resolved = new Set(
      (edges.callees.get(symbol.qualifiedId) ?? []).filter((e) => e.dstId).map((e) => e.line),
    );
    const open = lines.filter((l) => !resolved.has(l));
    if (open.length)
      out.set(symbol.qualifiedId, { calls: open.length, via: subject.qualifiedId, line: Math.min(...open) });
  }
  return out;
}

/**
 * Of a method, whether a call the resolver only guessed (split between the definitions of
 * its name) is written on a receiver named like another class defining that name
 * (`router.match(…)` guessed to be `Route.match` as well as `Router.match`).
 */
async function rivalReceiver(
  generationId: string,
  subject: SymbolRecord,
): Promise<(e: { raw: string; confidence: number }) => boolean> {
  const owner = subject.qualifiedName.split(".").at(-2);
  if (!owner || TYPE_KINDS.has(subject.kind)) return () => false;
  const rivals = [
    ...new Set(
      (await symbolsByName(generationId, subject.name))
        .map((s) => s.qualifiedName.split(".").at(-2) ?? "")
        .filter((o) => o && o !== owner),
    ),
  ];
  if (rivals.length === 0) return () => false;
  return (e) => {
    if (e.confidence >= 1) return false;
    const receiver = e.raw
      .split(/\.|->|::/)
      .slice(0, -1)
      .join(".");
    return (
      receiver !== "" && !receiverNames(receiver, owner) && rivals.some((o) => receiverNames(receiver, o))
    );
  };
}

/**
 * Whether a receiver is named like a class: its last part's words end the class's words
 * (`pool` for `HTTPConnectionPool`, `route` for `Route`, in the plural too: `retries` for
 * `Retry`, `handlers` for `Handler`), or it shortens the class's last word (`conn` for
 * `Connection`: at least three letters, and two fewer, so `route` is not a `Router`).
 */
export function receiverNames(receiver: string, owner: string): boolean {
  const last =
    receiver
      .split(/\.|->|::/)
      .pop()
      ?.replace(/^[@$&*]+|\(\)$/g, "") ?? "";
  const words = splitIdentifier(last).map((w) => singular(w.toLowerCase()));
  const ownerWords = splitIdentifier(owner).map((w) => singular(w.toLowerCase()));
  if (words.length === 0 || ownerWords.length === 0) return false;
  if (
    words.length <= ownerWords.length &&
    words.every((w, i) => ownerWords[ownerWords.length - words.length + i] === w)
  )
    return true;
  const tail = ownerWords.at(-1) as string;
  const word = words.length === 1 ? (words[0] as string) : "";
  return word.length >= 3 && tail.length - word.length >= 2 && tail.startsWith(word);
}

/** An English plural's singular (`retries` → `retry`, `matches` → `match`, `pools` → `pool`); other words as they are. */
function singular(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(?:ss|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** A symbol's edges counted: how many, the nearer end of the first, and its earliest call line. */
interface Tally {
  calls: number;
  via: string;
  line?: number;
}

/** Edges counted per symbol (`key`), remembering the nearer end of the first and the earliest call line. */
function tally<E extends { line?: number | null }>(
  edges: E[],
  key: (e: E) => string,
  nearer: (e: E) => string,
): Map<string, Tally> {
  const out = new Map<string, Tally>();
  for (const e of edges) {
    const k = key(e);
    const entry = out.get(k);
    const line = e.line && e.line > 0 ? e.line : undefined;
    if (entry) {
      entry.calls++;
      if (line && (!entry.line || line < entry.line)) entry.line = line;
    } else out.set(k, { calls: 1, via: nearer(e), line });
  }
  return out;
}

/** A symbol as the answer names it: its name in code, then where it is (the citation right after the name it locates). */
function named(s: SymbolRecord): string {
  return `\`${s.qualifiedName}\` (${s.path}:${s.startLine}-${s.endLine})`;
}

function located(s: SymbolRecord): string {
  return `[${s.path}:${s.startLine}-${s.endLine}]`;
}

/** The graph as lines of text for the answerer: what the figure is, then each caller and callee cited. */
export function renderSubjectGraph(g: SubjectGraph, label: string): string {
  const direct = g.callers.filter((c) => c.depth === 1);
  const further = g.callers.filter((c) => c.depth === 2);
  const lines = [`Subject: ${label} ${located(g.subject)}`];
  lines.push(
    `Callers: ${direct.length} in ${g.callerFiles.length} file${g.callerFiles.length === 1 ? "" : "s"} call ${label} directly; ${further.length} more call those`,
  );
  lines.push(
    `Caller files: ${g.callerFiles
      .slice(0, 10)
      .map((f) => `${f.path} (${f.callers})`)
      .join(", ")}`,
  );
  for (const c of direct.slice(0, 14))
    lines.push(`- caller ${named(c.symbol)}, ${c.calls} call${c.calls === 1 ? "" : "s"}`);
  for (const c of further.slice(0, 6))
    lines.push(`- 2 hops: ${named(c.symbol)} → \`${c.via.split("::").pop()}\``);
  const calls = g.callees.filter((c) => c.depth === 1);
  lines.push(`Callees: ${calls.length} outside it`);
  for (const c of calls.slice(0, 8)) lines.push(`- callee ${named(c.symbol)}`);
  lines.push(
    g.fileImports.length
      ? `Imports among these files: ${g.fileImports
          .slice(0, 10)
          .map((e) => `${e.from} → ${e.to} (${e.count})`)
          .join(", ")}`
      : "Imports among these files: none",
  );
  return lines.join("\n");
}

/** A diagram node for a symbol, linked to its span (labelled by its qualified name unless told). */
export function symbolNode(
  id: string,
  symbol: Pick<SymbolRecord, "qualifiedName" | "path" | "startLine" | "endLine">,
  label = symbol.qualifiedName,
): DiagramNode {
  return { id, label, path: symbol.path, startLine: symbol.startLine, endLine: symbol.endLine };
}

/**
 * The subject in the middle, its busiest direct callers above it (their second-hop
 * callers above them) and callees below; at most `max` nodes, the rest counted in one
 * "+ N more" node on each side.
 */
export function subjectDiagram(
  g: SubjectGraph,
  label: string,
  { max = 12, calleesFirst = false }: { max?: number; calleesFirst?: boolean } = {},
): DiagramPart {
  const room = max - 1;
  // The side asked about takes two thirds of the room, and whatever the other side leaves.
  const [major, minor] = calleesFirst ? [g.callees, g.callers] : [g.callers, g.callees];
  const majorRoom = Math.min(major.length, Math.max(Math.ceil((room * 2) / 3), room - minor.length));
  const minorRoom = room - majorRoom;
  const [callerRoom, calleeRoom] = calleesFirst ? [minorRoom, majorRoom] : [majorRoom, minorRoom];
  const pick = (list: GraphSymbol[], n: number) =>
    list.length > n ? list.slice(0, Math.max(0, n - 1)) : list;
  const callers = pick(g.callers, callerRoom);
  const callees = pick(g.callees, calleeRoom);
  const ids = new Map<string, string>([[g.subject.qualifiedId, "s0"]]);
  for (const m of g.members) ids.set(m, "s0");
  const nodes: DiagramNode[] = [symbolNode("s0", g.subject, label)];
  for (const c of [...callers, ...callees]) {
    if (ids.has(c.symbol.qualifiedId)) continue;
    const id = `n${nodes.length}`;
    ids.set(c.symbol.qualifiedId, id);
    nodes.push(symbolNode(id, c.symbol));
  }
  const lines = ["graph TD"];
  for (const n of nodes) lines.push(`  ${n.id}["${escapeLabel(n.label)}"]`);
  for (const c of callers) lines.push(`  ${ids.get(c.symbol.qualifiedId)} --> ${ids.get(c.via) ?? "s0"}`);
  for (const c of callees) lines.push(`  ${ids.get(c.via) ?? "s0"} --> ${ids.get(c.symbol.qualifiedId)}`);
  const more = (left: number, side: string, id: string, edge: string) => {
    if (left <= 0) return;
    lines.push(`  ${id}["+ ${left} more ${side}"]`, edge);
    nodes.push({ id, label: `+ ${left} more ${side}`, path: null, startLine: null, endLine: null });
  };
  more(g.callers.length - callers.length, "callers", "more_in", "  more_in --> s0");
  more(g.callees.length - callees.length, "callees", "more_out", "  s0 --> more_out");
  return {
    kind: "call-flow",
    title: `Who calls ${label}, and what it calls`,
    mermaid: lines.join("\n"),
    nodes,
  };
}
