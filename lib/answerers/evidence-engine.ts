/**
 * The offline evidence engine: a deterministic answerer used when no language model
 * is configured or a provider fails. It composes an answer from evidence in the
 * context (error sites, call chains, mutations, structure, docstrings), cites every
 * statement, and names gaps the way a reader of code would: functions called from
 * the context whose definitions are not in it, ranked by relevance to the question,
 * plus names from the question not found yet. It says plainly that it is evidence,
 * not prose.
 */
import { groupByReason } from "./reasons.ts";
import { normalizeGap } from "./gap-format.ts";
import type { ContextItem } from "./contract.ts";
import type { Triple } from "./contract.ts";
import { queryTerms, splitIdentifier, stem } from "../db/tokenize.ts";
import { firstParagraph } from "./markdown.ts";
import {
  cite,
  code,
  errorSites,
  escapeInline,
  firstSentence,
  flowNodes,
  isAuxiliary,
  isAuxiliaryCaller,
  mainPath,
  uniqueBy,
} from "./evidence-reading.ts";
import { openingFor } from "./opening.ts";
import type { AnswerInput, AnswerOutput, Answerer, QueryMode } from "./contract.ts";

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

/**
 * What is still missing for this question, and only that: names the question uses that
 * no context item holds; for a diagnostic question, a caller of the error site when none
 * is in context (how execution gets there); for an exploratory one, the next step of the
 * traced flow when its source is not in context; for a conceptual one, a function the
 * leading definition calls whose name carries the question's concept. Callees that do
 * not bear on the question are never gaps, so an answer whose evidence suffices stops.
 */
export function findGaps(input: AnswerInput): string[] {
  const gaps: GapCandidate[] = [];
  // A method in context stands for its class too (answers cite the method that answers).
  const inContext = new Set(
    input.context.flatMap((i) => (i.facts ? namesInContext(i.facts.qualifiedName) : [i.title])),
  );
  const add = (text: string, score: number) => {
    if (input.notFound.has(normalizeGap(text)) || gaps.some((g) => g.text === text)) return;
    gaps.push({ text, score });
  };
  // Names from the question that look like code but are not in the context.
  for (const id of input.anchors.identifiers.slice(0, 8)) {
    const name = id.replace(/\(\)$/, "").split(/[.:]+/).pop() ?? id;
    if (!/[_A-Z]|\(\)$/.test(id) && !id.includes(".")) continue;
    if (IGNORED_CALLS.has(name) || name.length < 3 || inContext.has(name)) continue;
    if (input.context.some((i) => i.text.includes(name))) continue;
    add(`${name}()`, 3);
  }
  const outside = (t: Triple) => !t.inContext && t.objectPath !== null && !inContext.has(t.object);
  MODE_GAPS[input.mode](input, { inContext, outside, add });
  return gaps
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_GAPS)
    .map((g) => g.text);
}

/** What findGaps hands a mode's own gap rule. */
interface GapScope {
  inContext: Set<string>;
  /** a triple's object is a definition of the repository not in context */
  outside: (t: Triple) => boolean;
  add: (text: string, score: number) => void;
}

const located = (t: Triple) => `${t.object} in ${t.objectPath}`;

/** Each mode's own gap beside the names the question uses (see findGaps). */
const MODE_GAPS: Record<QueryMode, (input: AnswerInput, scope: GapScope) => void> = {
  diagnostic(input, { inContext, outside, add }) {
    const site = errorSites(input)[0];
    if (!site) return;
    // Callers in code: a test that triggers the error is not how execution gets there.
    const callers = input.graph.triples.filter(
      (t) =>
        t.subject === site.f.qualifiedName &&
        t.relation === "called_by" &&
        !isAuxiliaryCaller(t.objectPath ?? "", t.object),
    );
    if (callers.length > 0 && !callers.some((t) => t.inContext || inContext.has(t.object))) {
      const best = callers.filter(outside).sort((a, b) => b.confidence - a.confidence)[0];
      if (best) add(located(best), 2);
    }
  },
  exploratory(input, { inContext, add }) {
    for (const step of mainPath(flowNodes(input)).slice(1, 3)) {
      if (inContext.has(step.name) || inContext.has(step.name.split(".").pop() ?? "")) continue;
      add(`${step.name} in ${step.path}`, 2);
      break;
    }
  },
  conceptual(input, { outside, add }) {
    const terms = new Set(queryTerms(input.question).flatMap((t) => [t, stem(t)]));
    const lead = input.context.find((i) => i.facts && !isAuxiliary(i.path ?? ""));
    const callees = input.graph.triples.filter(
      (t) => t.subject === lead?.facts?.qualifiedName && t.relation === "calls" && outside(t),
    );
    const relevant = callees.find((t) =>
      splitIdentifier(t.object.split(".").pop() ?? t.object).some((p) => terms.has(p) || terms.has(stem(p))),
    );
    if (relevant) add(located(relevant), 1);
  },
  analytical() {},
};

/** `A.B.c` → A.B.c, c, and its enclosing A.B, B, A. */
function namesInContext(qualifiedName: string): string[] {
  const parts = qualifiedName.split(".");
  const out = [qualifiedName, parts[parts.length - 1] ?? ""];
  for (let i = parts.length - 1; i > 0; i--) out.push(parts.slice(0, i).join("."), parts[i - 1] as string);
  return out;
}

/**
 * How each mode's answer is laid out under its opening: its own section, how many items of
 * relevant code (analytical answers list their code as the code behind the findings), and
 * how much documentation (a conceptual answer always has that section).
 */
const MODE_LAYOUT: Record<
  QueryMode,
  {
    section:
      | ((input: AnswerInput, symbols: ContextItem[], byName: Map<string, ContextItem>) => string)
      | null;
    relevantCode: number | null;
    docs: number;
    docsAlways: boolean;
  }
> = {
  conceptual: { section: null, relevantCode: 6, docs: 3, docsAlways: true },
  diagnostic: { section: diagnosticSection, relevantCode: 4, docs: 2, docsAlways: false },
  exploratory: {
    section: (input, symbols) => exploratorySection(input, symbols),
    relevantCode: 4,
    docs: 2,
    docsAlways: false,
  },
  analytical: {
    section: (input, symbols) => analyticalSection(input, symbols),
    relevantCode: null,
    docs: 2,
    docsAlways: false,
  },
};

function composeAnswer(input: AnswerInput, gaps: string[]): string {
  const symbols = input.context.filter((i) => i.facts && i.path);
  const docs = input.context.filter((i) => !i.facts && i.path && (i.kind === "doc" || i.kind === "wiki"));
  const byName = new Map(symbols.map((s) => [s.facts?.qualifiedName ?? "", s]));
  const out: string[] = [];
  const direct = openingFor(input, symbols, byName);
  if (direct) out.push(direct);
  out.push(
    `_Evidence summary from the code index (offline engine, not a language model); pass ${input.pass} of at most ${input.maxPasses}._`,
  );
  const layout = MODE_LAYOUT[input.mode];
  const sections: string[] = [providedSection(input.context)];
  if (layout.section) sections.push(layout.section(input, symbols, byName));
  // A diagnostic answer points at the code that fails, not at the tests that exercise it.
  const listed = input.mode === "diagnostic" ? symbols.filter((s) => !isAuxiliary(s.path ?? "")) : symbols;
  if (layout.relevantCode) sections.push(relevantCodeSection(listed, layout.relevantCode));
  const shownDocs = input.mode === "diagnostic" ? docsOnTheError(docs, input) : docs;
  if (layout.docsAlways || shownDocs.length)
    sections.push(docsSection(shownDocs, layout.docs, input.question));
  out.push(...sections.filter(Boolean));
  if (gaps.length && input.pass < input.maxPasses) {
    out.push(`**Still looking for:** ${gaps.map(code).join(", ")}.`);
  }
  if (symbols.length === 0 && docs.length === 0 && !direct) {
    out.push(
      "I found nothing in the index that matches this question. Try naming a function, file or error message.",
    );
  }
  return `${withoutRepeatedLines(out.join("\n\n"))}\n`;
}

/**
 * The documentation a diagnostic answer quotes: sections that speak of the error itself
 * (its type, a quoted message or literal), not those that only share the question's words.
 */
function docsOnTheError(docs: ContextItem[], input: AnswerInput): ContextItem[] {
  const { exceptionTypes, messages, literals } = input.anchors;
  const needles = [...exceptionTypes, ...literals, ...messages.map((m) => m.slice(0, 30))]
    .map((n) => n.toLowerCase().trim())
    .filter((n) => n.length >= 6);
  return docs.filter((d) => needles.some((n) => d.text.toLowerCase().includes(n)));
}

/** The same evidence line twice (a caller reached along two paths) says nothing new. */
function withoutRepeatedLines(text: string): string {
  const seen = new Set<string>();
  return text
    .split("\n")
    .filter((line) => {
      const key = line.trim();
      if (!key.startsWith("- ") && !/^\s+- /.test(line)) return true;
      if (seen.has(line)) return false;
      seen.add(line);
      return true;
    })
    .join("\n");
}

// ------------------------------------------------------------------ the evidence

function diagnosticSection(
  input: AnswerInput,
  symbols: ContextItem[],
  byName: Map<string, ContextItem>,
): string {
  const lines: string[] = [];
  const sites = errorSites(input).slice(0, 4);
  if (sites.length) {
    lines.push("**Where the error can originate**");
    for (const { s, f, message } of sites) {
      const raises = f.raises.length ? ` raises ${f.raises.map(code).join(", ")}` : "";
      // The message the question quotes first, among a site's several.
      const messages = message ? [message, ...f.errorStrings.filter((m) => m !== message)] : f.errorStrings;
      const msgs = messages.length
        ? ` with ${messages
            .slice(0, 2)
            .map((m) => `"${escapeInline(m)}"`)
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

/** "caller → site" chains from called_by triples, each hop cited where it is in context; each chain once. */
function callChains(triples: Triple[], sites: string[], byName: Map<string, ContextItem>): string[] {
  const out: string[] = [];
  for (const site of sites.slice(0, 3)) {
    // A test calling the site shows how to reproduce it, not how execution gets there.
    const callers = uniqueBy(
      triples.filter(
        (t) =>
          t.subject === site &&
          t.relation === "called_by" &&
          !isAuxiliaryCaller(t.objectPath ?? "", t.object),
      ),
      (t) => t.object,
    ).slice(0, 3);
    for (const c of callers) {
      const callerItem = byName.get(c.object);
      const where = callerItem
        ? cite(callerItem)
        : c.objectPath && c.objectLines
          ? `${c.objectPath}:${c.objectLines[0]}-${c.objectLines[1]}`
          : "";
      const upstream = triples.find(
        (t) =>
          t.subject === c.object &&
          t.relation === "called_by" &&
          !isAuxiliaryCaller(t.objectPath ?? "", t.object),
      );
      const prefix = upstream ? `${code(upstream.object)} → ` : "";
      // The citation goes right after the caller it locates: verification reads the name before it.
      const chain = `${prefix}${code(c.object)}${where ? ` (${where})` : ""} → ${code(site)}`;
      if (!out.includes(chain)) out.push(chain);
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
    const m = raw.match(/^(\s*)(?:([→←⇒↪])\s*)?(.+?)\(\)\s+\[(.+?):(\d+)-(\d+)\]$/);
    if (!m) continue;
    const depth = Math.floor((m[1] ?? "").length / 4);
    // A call under a check or in an error handler, beside the flow's main line.
    const side = m[2] === "↪" ? " *(under a check or on an error)*" : "";
    lines.push(`${"  ".repeat(depth)}- ${code(m[3] ?? "")} — ${m[4]}:${m[5]}-${m[6]}${side}`);
  }
  return lines;
}

function analyticalSection(input: AnswerInput, symbols: ContextItem[]): string {
  const structure = input.context.find((i) => i.kind === "structure");
  const lines: string[] = [];
  if (structure) {
    // The figure's own evidence: the lines under its `Answer:` line, up to the general report.
    const text = structure.text.split("\n");
    const start = text.findIndex((l) => l.startsWith("Answer: "));
    const end = text.indexOf("", start + 1);
    const figure = start >= 0 ? text.slice(start + 1, end < 0 ? undefined : end) : [];
    if (figure.length) {
      lines.push("**The figure**");
      for (const raw of figure) {
        // A figure line is an item under the heading; its own items (`  - …`) nest one deeper.
        const item = raw.match(/^(\s*)- (.*)$/);
        const body = (item ? item[2] : raw) ?? "";
        lines.push(
          `${item ? `  ${item[1]}` : ""}- ${escapeInline(body.replace(/\[([^\]]+?:\d+-\d+)\]/g, "— $1"))}`,
        );
      }
      lines.push("");
    }
    const report: string[] = [];
    for (const raw of text) {
      if (!raw.startsWith("- [") || figure.includes(raw)) continue;
      const m = raw.match(/^- \[(\w+)\] ([\w-]+): (.+?)(?: \[(.+?)\])?$/);
      if (m) report.push(`- **${m[1]}** ${m[2]}: ${escapeInline(m[3] ?? "")}${m[4] ? ` — ${m[4]}` : ""}`);
    }
    const summary = text.filter((l) =>
      /^(Cycles|Highest fan-out|Highest fan-in|Most imported files):/.test(l),
    );
    for (const s of summary) report.push(`- ${escapeInline(s.replace(/\[(.+?)\]/g, "— $1"))}`);
    if (report.length) lines.push("**Structure**", ...report);
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

/**
 * What the documentation says, in its own words: a wiki page's purpose line, and from a
 * doc section the sentence that shares the most words with the question (a section whose
 * sentences share none is left out).
 */
function docsSection(docs: ContextItem[], max: number, question: string): string {
  if (docs.length === 0) return "";
  const terms = new Set(queryTerms(question).map((t) => stem(t)));
  const lines = ["**What the documentation says**"];
  for (const d of docs.slice(0, max)) {
    const text =
      d.kind === "wiki"
        ? (/\*\*Purpose\.\*\*\s*(.+)/.exec(d.text)?.[1] ?? d.text.split(/\n\s*\n/)[1] ?? "")
        : bestSentence(d.text, terms);
    if (!text.trim()) continue;
    const name = d.title
      .replace(/^Wiki: /, "")
      .split(" › ")
      .pop();
    lines.push(`- ${escapeInline(name ?? "")}: ${firstSentence(text)} — ${cite(d)}`);
  }
  return lines.length > 1 ? lines.join("\n") : "";
}

/** The sentence of a doc's prose (headings, code and markup left out) that carries the most question words (at least two). */
function bestSentence(text: string, terms: Set<string>): string {
  const prose = text
    // Fenced examples are code, not what the documentation says.
    .replace(/^\s*(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\s*\1[^\n]*$/gm, "")
    .split(/\n\s*\n/)
    .filter((p) => !/^\s*(?:>>>|\$ |\.\. |::)/.test(p))
    .map((p) => firstParagraph(p, 2000))
    .filter(Boolean)
    .join(" ");
  // One shared word (often the project's own name) is not enough to quote a sentence.
  let best = "";
  let bestHits = Math.min(1, terms.size - 1);
  for (const sentence of prose.split(/(?<=[.!?])\s+/)) {
    const words = new Set(splitIdentifier(sentence).map((t) => stem(t)));
    const hits = [...terms].filter((t) => words.has(t)).length;
    if (hits > bestHits) {
      best = sentence;
      bestHits = hits;
    }
  }
  return best;
}

/**
 * Why an item was picked, in italics. Asterisks, not underscores: a reason names paths
 * and identifiers (`in src/_pytest/main.py`, `wrap_session`), and an underscore that
 * follows a slash opens emphasis in Markdown, which ate the path's underscore and the
 * italics' end.
 */
export function reasonNote(reason: string): string {
  return `*(${escapeInline(reason)})*`;
}

/**
 * What the user provided for gaps: named locations (cited like any evidence) and pasted
 * excerpts, quoted and marked as not verified (they have no location to check).
 */
function providedSection(context: ContextItem[]): string {
  const provided = context.filter((i) => i.origin === "user");
  if (provided.length === 0) return "";
  const lines = ["**Provided by you**"];
  for (const item of provided) {
    if (item.path) {
      const name = item.facts ? code(item.facts.qualifiedName) : code(item.path);
      lines.push(`- ${name} — ${cite(item)} ${reasonNote(item.reason)}`);
    } else {
      lines.push(
        `- ${escapeInline(item.title).replace(/\((provided by the user, not verified)\)$/, "— *$1*")}:`,
        "",
        "  ```",
        ...item.text.split("\n").map((l) => `  ${l}`),
        "  ```",
      );
    }
  }
  return lines.join("\n");
}

/**
 * The most relevant symbols, with why they were picked said once per kind: what all
 * share in the heading, items with the same other reason listed under it.
 */
function relevantCodeSection(symbols: ContextItem[], max: number): string {
  const picked = symbols.slice(0, max);
  if (picked.length === 0) return "";
  const { shared, groups } = groupByReason(picked, (s) => s.reason);
  const lines = [`**Relevant code**${shared.length ? ` ${reasonNote(`all: ${shared.join("; ")}`)}` : ""}`];
  const entry = (s: ContextItem) => {
    const f = s.facts as NonNullable<ContextItem["facts"]>;
    const doc = f.docstring ? `: ${firstSentence(f.docstring)}` : "";
    return `${code(f.signature || f.qualifiedName)}${doc} — ${cite(s)}`;
  };
  for (const group of groups) {
    if (group.items.length === 1 || !group.reason) {
      const why = group.reason ? ` ${reasonNote(group.reason)}` : "";
      for (const s of group.items) lines.push(`- ${entry(s)}${why}`);
      continue;
    }
    lines.push(`- ${reasonNote(group.reason)}:`, ...group.items.map((s) => `  - ${entry(s)}`));
  }
  return lines.join("\n");
}
