/**
 * The offline evidence engine: a deterministic answerer used when no language model
 * is configured or a provider fails. It composes an answer from evidence in the
 * context (error sites, call chains, mutations, structure, docstrings), cites every
 * statement, and names gaps the way a reader of code would: functions called from
 * the context whose definitions are not in it, ranked by relevance to the question,
 * plus names from the question not found yet. It says plainly that it is evidence,
 * not prose.
 */
import { normalizeGap } from "../qa/gaps.ts";
import type { ContextItem } from "../qa/context.ts";
import type { Triple } from "../qa/evidence-graph.ts";
import { queryTerms, splitIdentifier } from "../search/tokenize.ts";
import type { AnswerInput, AnswerOutput, Answerer } from "./answerer.ts";

const MAX_GAPS = 3;

/** Calls that are never worth fetching (builtins, logging, collections). */
const IGNORED_CALLS = new Set(
  (
    "print len str int float bool list dict set tuple isinstance issubclass getattr setattr hasattr super range " +
    "enumerate zip min max sum any all sorted reversed iter next repr type open format round abs map filter " +
    "append extend insert pop remove update get items keys values copy join split strip replace lower upper " +
    "startswith endswith encode decode debug info warning warn error exception critical log getLogger " +
    "push slice forEach then catch toString parseInt parseFloat stringify parse assign freeze " +
    "require console JSON Object Array Promise Math String Number Boolean Date Error Set Map " +
    "println printf sprintf errorf fmt new Ok Err Some unwrap expect clone into collect iter to_string"
  ).split(" "),
);

export class EvidenceEngine implements Answerer {
  readonly name = "evidence";
  readonly kind = "evidence" as const;

  async answer(input: AnswerInput, onDelta: (text: string) => void): Promise<AnswerOutput> {
    const gaps = findGaps(input);
    const answer = composeAnswer(input, gaps);
    // Stream by paragraph so the client renders progressively like a model answer
    // (yielding between paragraphs so each can leave the server on its own).
    for (const piece of answer.split(/(?<=\n\n)/)) {
      onDelta(piece);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const terms = queryTerms(input.question);
    const covered = terms.filter((t) => input.context.some((i) => i.text.toLowerCase().includes(t)));
    const reasoning =
      `Pass ${input.pass}: ${input.context.length} context items cover ${covered.length} of ${terms.length} question terms. ` +
      (gaps.length
        ? `Missing definitions that the evidence points to: ${gaps.join("; ")}.`
        : "No called function relevant to the question is missing from the context.");
    return {
      answer,
      gaps,
      reasoning,
      sufficient: gaps.length === 0,
      subQueries: new Map(gaps.map((g) => [g, `${g} ${terms.slice(0, 6).join(" ")}`])),
    };
  }
}

interface GapCandidate {
  text: string;
  score: number;
}

/** Definitions the context points at but does not contain, most relevant first. */
export function findGaps(input: AnswerInput): string[] {
  const terms = new Set(queryTerms(input.question));
  const inContext = new Set(
    input.context.flatMap((i) =>
      i.facts ? [i.facts.qualifiedName, i.facts.qualifiedName.split(".").pop() ?? ""] : [i.title],
    ),
  );
  const candidates = new Map<string, GapCandidate>();
  const consider = (text: string, name: string, score: number) => {
    if (IGNORED_CALLS.has(name) || name.length < 3 || inContext.has(name)) return;
    if (input.notFound.has(normalizeGap(text))) return;
    const overlap = splitIdentifier(name).filter((p) => terms.has(p)).length;
    const total = score + overlap * 2;
    const existing = candidates.get(name);
    if (!existing || existing.score < total) candidates.set(name, { text, score: total });
  };
  const itemScore = new Map(input.context.map((i) => [i.facts?.qualifiedName ?? i.title, i.score]));
  // Resolved callees outside the context: we know exactly where they live.
  for (const t of input.graph.triples) {
    if (t.relation !== "calls" || t.inContext || !t.objectPath) continue;
    const short = t.object.split(".").pop() ?? t.object;
    const weight = (itemScore.get(t.subject) ?? 0.3) * (0.5 + t.confidence);
    consider(`${t.object} in ${t.objectPath}`, short, 1 + weight);
  }
  // Names from the question that look like code but are not in the context.
  for (const id of input.anchors.identifiers.slice(0, 8)) {
    const name = id.replace(/\(\)$/, "").split(/[.:]+/).pop() ?? id;
    if (!/[_A-Z]|\(\)$/.test(id) && !id.includes(".")) continue;
    if (input.context.some((i) => i.text.includes(name))) continue;
    consider(`${name}()`, name, 1.5);
  }
  return [...candidates.values()]
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_GAPS)
    .map((c) => c.text);
}

function cite(item: ContextItem): string {
  return item.path ? `${item.path}:${item.startLine}-${item.endLine}` : "";
}

/** Prose lifted from docstrings and docs, with Markdown emphasis characters escaped (`__init__` stays literal). */
function firstSentence(text: string): string {
  const clean = text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/([*_~<>[\]])/g, "\\$1");
  const match = clean.match(/^(.{20,240}?[.!?])(\s|$)/);
  return match?.[1] ?? clean.slice(0, 200);
}

function code(name: string): string {
  return `\`${name.replace(/`/g, "")}\``;
}

function composeAnswer(input: AnswerInput, gaps: string[]): string {
  const symbols = input.context.filter((i) => i.facts && i.path);
  const docs = input.context.filter((i) => !i.facts && i.path && (i.kind === "doc" || i.kind === "wiki"));
  const byName = new Map(symbols.map((s) => [s.facts?.qualifiedName ?? "", s]));
  const out: string[] = [];
  out.push(
    `_Evidence summary from the code index (offline engine, not a language model); pass ${input.pass} of at most ${input.maxPasses}._`,
  );
  const sections: string[] = [];
  if (input.mode === "diagnostic") sections.push(diagnosticSection(input, symbols, byName));
  if (input.mode === "exploratory") sections.push(exploratorySection(input, symbols));
  if (input.mode === "analytical") sections.push(analyticalSection(input, symbols));
  if (input.mode === "conceptual" || docs.length)
    sections.push(docsSection(docs, input.mode === "conceptual" ? 4 : 2));
  sections.push(relevantCodeSection(symbols, input.mode === "conceptual" ? 6 : 4));
  out.push(...sections.filter(Boolean));
  if (gaps.length && input.pass < input.maxPasses) {
    out.push(`**Still looking for:** ${gaps.map(code).join(", ")}.`);
  }
  if (symbols.length === 0 && docs.length === 0) {
    out.push(
      "I found nothing in the index that matches this question. Try naming a function, file or error message.",
    );
  }
  return out.join("\n\n") + "\n";
}

function diagnosticSection(
  input: AnswerInput,
  symbols: ContextItem[],
  byName: Map<string, ContextItem>,
): string {
  const lines: string[] = [];
  // Raised types the question names (custom ones like PaymentDeclined have no Error suffix).
  const anchorTypes = new Set([...input.anchors.exceptionTypes, ...input.anchors.identifiers]);
  const anchorMessages = input.anchors.messages.map((m) => m.toLowerCase());
  const questionText = input.question.toLowerCase();
  const sites = symbols
    .filter((s) => (s.facts?.raises.length ?? 0) + (s.facts?.errorStrings.length ?? 0) > 0)
    .map((s) => {
      const f = s.facts as NonNullable<ContextItem["facts"]>;
      const typeHit = f.raises.some((r) => anchorTypes.has(r));
      const msgHit = f.errorStrings.some((e) => {
        const literal = e.toLowerCase().split("{")[0]?.trim() ?? "";
        return (
          (literal.length >= 8 && questionText.includes(literal)) ||
          anchorMessages.some(
            (m) => m.includes(e.toLowerCase().slice(0, 30)) || e.toLowerCase().includes(m.slice(0, 30)),
          )
        );
      });
      return { s, f, rank: (msgHit ? 4 : 0) + (typeHit ? 2 : 0) + s.score };
    })
    .sort((a, b) => b.rank - a.rank)
    .slice(0, 4);
  if (sites.length) {
    lines.push("**Where the error can originate**");
    for (const { s, f } of sites) {
      const raises = f.raises.length ? ` raises ${f.raises.map(code).join(", ")}` : "";
      const msgs = f.errorStrings.length
        ? ` with ${f.errorStrings
            .slice(0, 2)
            .map((m) => `"${m}"`)
            .join(", ")}`
        : "";
      lines.push(
        `- ${code(f.qualifiedName)}${raises}${msgs || (raises ? "" : " reports an error")} — ${cite(s)}`,
      );
    }
  }
  const chains = callChains(
    input.graph.triples,
    sites.map((x) => x.f.qualifiedName),
    byName,
  );
  if (chains.length) {
    lines.push("", "**How execution gets there**");
    lines.push(...chains.map((c) => `- ${c}`));
  }
  const mutators = symbols.filter((s) => (s.facts?.mutates.length ?? 0) > 0).slice(0, 4);
  if (mutators.length) {
    lines.push("", "**State that can influence it**");
    for (const m of mutators)
      lines.push(
        `- ${code(m.facts?.qualifiedName ?? m.title)} writes ${(m.facts?.mutates ?? []).slice(0, 4).map(code).join(", ")} — ${cite(m)}`,
      );
  }
  return lines.join("\n");
}

/** "caller → site" chains from called_by triples, each hop cited where it is in context. */
function callChains(triples: Triple[], sites: string[], byName: Map<string, ContextItem>): string[] {
  const out: string[] = [];
  for (const site of sites.slice(0, 3)) {
    const callers = triples.filter((t) => t.subject === site && t.relation === "called_by").slice(0, 3);
    for (const c of callers) {
      const callerItem = byName.get(c.object);
      const where = callerItem
        ? cite(callerItem)
        : c.objectPath && c.objectLines
          ? `${c.objectPath}:${c.objectLines[0]}-${c.objectLines[1]}`
          : "";
      const upstream = triples.find((t) => t.subject === c.object && t.relation === "called_by");
      const prefix = upstream ? `${code(upstream.object)} → ` : "";
      // The citation goes right after the caller it locates: verification reads the name before it.
      out.push(`${prefix}${code(c.object)}${where ? ` (${where})` : ""} → ${code(site)}`);
    }
  }
  return out.slice(0, 6);
}

function exploratorySection(input: AnswerInput, symbols: ContextItem[]): string {
  const flow = input.context.find((i) => i.kind === "flow" && i.key.startsWith("flow:"));
  const callers = input.context.find((i) => i.kind === "flow" && i.key.startsWith("callers:"));
  const lines: string[] = [];
  if (callers) {
    lines.push("**Called by**", "");
    lines.push(...treeLines(callers.text));
    lines.push("");
  }
  if (flow) {
    lines.push("**Call flow**", "");
    lines.push(...treeLines(flow.text));
  }
  const steps = symbols.filter((s) => s.facts?.docstring).slice(0, 5);
  if (steps.length) {
    lines.push("", "**What the main steps do**");
    for (const s of steps)
      lines.push(
        `- ${code(s.facts?.qualifiedName ?? s.title)}: ${firstSentence(s.facts?.docstring ?? "")} — ${cite(s)}`,
      );
  }
  return lines.join("\n");
}

/**
 * A rendered call tree (`name()  [path:a-b]`, four spaces a level) as nested Markdown
 * bullets. The root of a callers tree is the function asked about; its children call it.
 */
function treeLines(text: string): string[] {
  const lines: string[] = [];
  for (const raw of text.split("\n").slice(0, 24)) {
    const m = raw.match(/^(\s*)(?:[→←]\s*)?(.+?)\(\)\s+\[(.+?):(\d+)-(\d+)\]$/);
    if (!m) continue;
    const depth = Math.floor((m[1] ?? "").length / 4);
    lines.push(`${"  ".repeat(depth)}- ${code(m[2] ?? "")} — ${m[3]}:${m[4]}-${m[5]}`);
  }
  return lines;
}

function analyticalSection(input: AnswerInput, symbols: ContextItem[]): string {
  const structure = input.context.find((i) => i.kind === "structure");
  const lines: string[] = [];
  if (structure) {
    lines.push("**Structure**");
    for (const raw of structure.text.split("\n")) {
      if (!raw.startsWith("- [")) continue;
      const m = raw.match(/^- \[(\w+)\] ([\w-]+): (.+?)(?: \[(.+?)\])?$/);
      if (m) lines.push(`- **${m[1]}** ${m[2]}: ${m[3]}${m[4] ? ` — ${m[4]}` : ""}`);
    }
    const summary = structure.text
      .split("\n")
      .filter((l) => /^(Cycles|Highest fan-out|Highest fan-in):/.test(l));
    for (const s of summary) lines.push(`- ${s.replace(/\[(.+?)\]/g, "— $1")}`);
  }
  const flagged = symbols.slice(0, 4);
  if (flagged.length) {
    lines.push("", "**Code behind the findings**");
    for (const s of flagged) {
      const f = s.facts;
      lines.push(
        `- ${code(f?.qualifiedName ?? s.title)} (fan-in ${f?.fanIn ?? 0}, fan-out ${f?.fanOut ?? 0}, ${s.endLine - s.startLine + 1} lines) — ${cite(s)}`,
      );
    }
  }
  return lines.join("\n");
}

function docsSection(docs: ContextItem[], max: number): string {
  if (docs.length === 0) return "";
  const lines = ["**What the documentation says**"];
  for (const d of docs.slice(0, max)) {
    const text = d.text.replace(/^#+\s.*$/gm, "").replace(/[`*_]/g, "");
    lines.push(`- ${d.title.split(" › ").pop()}: ${firstSentence(text)} — ${cite(d)}`);
  }
  return lines.join("\n");
}

function relevantCodeSection(symbols: ContextItem[], max: number): string {
  const picked = symbols.slice(0, max);
  if (picked.length === 0) return "";
  const lines = ["**Relevant code**"];
  for (const s of picked) {
    const f = s.facts as NonNullable<ContextItem["facts"]>;
    const doc = f.docstring ? `: ${firstSentence(f.docstring)}` : "";
    lines.push(
      `- ${code(f.signature || f.qualifiedName)}${doc} — ${cite(s)}${s.reason ? ` _(${s.reason})_` : ""}`,
    );
  }
  return lines.join("\n");
}
