// The hand-written signals of each mode (a traceback, "walk me through", "which … most
// imported", "what does X do") and the scope a question names. The trained classifier
// (classify-model.ts) reads the signals as features beside the question's words; on their
// own they still make a weighted-vote classifier (`classifyByRules`), kept as the baseline
// the training report compares with. What in a question is an error, a log line or a
// symptom is read in diagnostic-evidence.ts. The table of signals is most of this file.

import { extractAnchors, splitFences } from "../search/anchors";
import { isPathLike, normalizePath } from "../search/written-paths.ts";

import { QUERY_MODE_LIST, type QueryMode } from "../answerers/contract.ts";

export type { QueryMode };

export interface RuleClassification {
  mode: QueryMode;
  reasoning: string;
  scope: string | null;
  confidence: number;
}

export interface Prepared {
  /** Original text, used where case or layout matters (tracebacks, exception names). */
  raw: string;
  /** Lower-cased prose with fenced code removed, so code never reads as intent. */
  prose: string;
  exceptionTypes: string[];
  frameCount: number;
  hasFence: boolean;
}

interface Signal {
  /** stable name of the signal: the classifier's feature is `r:<id>` */
  id: string;
  mode: QueryMode;
  weight: number;
  /** Describes the signal in the reasoning sentence; `$` is replaced by what matched. */
  label: string;
  match: (q: Prepared) => string | null;
}

const inProse =
  (pattern: RegExp) =>
  (q: Prepared): string | null =>
    pattern.exec(q.prose)?.[0]?.trim() ?? null;

// A mode with no signal must still beat nothing: conceptual is the "general question" default.
const CONCEPTUAL_BASELINE = 0.75;

const SIGNALS: readonly Signal[] = [
  // Diagnostic: something is failing and the user wants the cause.
  {
    mode: "diagnostic",
    weight: 4,
    id: "exception-type",
    label: "an exception type ($)",
    match: (q) => q.exceptionTypes[0] ?? null,
  },
  {
    mode: "diagnostic",
    weight: 3,
    id: "stack-trace",
    label: "a stack trace",
    match: (q) => (q.frameCount > 0 || /Traceback \(most recent call last\)/.test(q.raw) ? "trace" : null),
  },
  {
    mode: "diagnostic",
    weight: 3,
    id: "why-getting",
    label: 'a "why am I getting" question',
    match: inProse(
      /\bwhy (?:am|are|do|does|is) (?:i|we|it|this|they) (?:getting|seeing|hitting|receiving)\b/,
    ),
  },
  {
    mode: "diagnostic",
    weight: 3,
    id: "why-does-fail",
    label: 'a "why does X get/raise" question ("$")',
    match: inProse(
      /\bwhy (?:do|does|did|would|could) (?:[\w.()]+ ){1,3}(?:get|see|hit|receive|raise|throw|fail|crash|return (?:none|null|nan|an? error|(?:a |an |http |status )?[45]\d\d))\b/,
    ),
  },
  {
    mode: "diagnostic",
    weight: 3,
    id: "error-name-message",
    label: "an error name with its message ($)",
    // `PaymentDeclined: card declined` — a custom exception printed the way runtimes print errors.
    // At the start of a line the message may start upper-case (`ScopeMismatch: You tried …`).
    match: (q) =>
      (/\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+: [a-z]/.exec(q.raw)?.[0]?.slice(0, -3) ??
        /^\s*[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+: [A-Z][a-z]/m.exec(q.raw)?.[0]?.trim().slice(0, -4)) ||
      null,
  },
  {
    mode: "diagnostic",
    weight: 2.5,
    id: "failure-word",
    label: 'failure wording ("$")',
    match: inProse(
      /\b(?:fail(?:s|ed|ing|ures?)?|crash(?:es|ed|ing)?|broken|breaks|hangs?|hanging|freez(?:es|ing)|stuck|times? ?out|timing out|timed out|segfaults?|panic(?:s|ked)?|leak(?:s|ing)?|regression|exits? with (?:code|status))\b/,
    ),
  },
  {
    mode: "diagnostic",
    weight: 2.5,
    id: "not-working",
    label: 'something not working ("$")',
    match: inProse(
      /\b(?:(?:does ?n[o']?t|do ?n[o']?t|did ?n[o']?t|is ?n[o']?t|are ?n[o']?t|wo ?n[o']?t|can ?n[o']?t|cannot|never) (?:(?:the|this|my|our|a|an|it|its|\w+'s) (?:[\w-]+ ){0,2})?(?:work|working|load|start|run|update|save|persist|show|appear|return|compile|connect|match|get)\w*|no longer (?:works?|\w+s)|not (?:working|persisted|saved|found|caught|updated|recognized|respected))\b/,
    ),
  },
  {
    mode: "diagnostic",
    weight: 3,
    id: "expected-actual",
    label: 'expected-versus-actual behaviour ("$")',
    match: inProse(
      /\bwhen it should(?:n[o']?t)?\b|\bshould(?:n[o']?t)? (?:\w+ ){0,6}(?:but|instead)\b|\b(?:returns?|returned|prints?|printed|gives?|gave|shows?|showed|renders?|rendered|outputs?|yields?|comes? back|sends?|sent|produces?|produced)\b[^.?!]{0,60}\binstead of\b|\bexpected (?:behaviou?r|output|result)\b|\bactual (?:behaviou?r|output|result)\b|\bwrong (?:results?|values?|output|lines?|answers?|order|path|status)\b|\bincorrect(?:ly)?\b|\bunexpected(?:ly)?\b|\bpoint(?:s)? to the wrong\b|\bbut (?:it |they |this |that )?should\b|\b(?:returns?|returning|gives?|shows?|yields?) (?:no|nothing|empty|an empty|none|null|undefined|nan)\b/,
    ),
  },
  {
    mode: "diagnostic",
    weight: 2,
    id: "error-word",
    label: 'error wording ("$")',
    match: inProse(/\b(?:errors?|exceptions?|stack ?traces?|tracebacks?|warnings?|bugs?|buggy)\b/),
  },
  {
    mode: "diagnostic",
    weight: 2.5,
    id: "quoted-error",
    label: "a quoted error message ($)",
    // "stops with 'Unrecognized option found: foo'": a message in quotes that reads like an error.
    match: (q) =>
      /["“'`][^"”'`\n]{0,80}\b(?:not (?:found|allowed|supported|recognized|set)|no such|invalid|unrecognized|unknown|cannot|can't|could not|couldn't|missing|failed|unable|unexpected|denied|refused|forbidden|too (?:long|large|many)|not be|may not|must (?:be|not))\b[^"”'`\n]{0,120}["”'`]/i.exec(
        q.raw,
      )?.[0] ?? null,
  },
  {
    mode: "diagnostic",
    weight: 1.5,
    id: "fix-request",
    label: 'a request to fix something ("$")',
    match: inProse(/\b(?:fix|fixing|debug|debugging|troubleshoot|work ?around|resolve this|solve this)\b/),
  },
  {
    mode: "diagnostic",
    weight: 2,
    id: "raise-word",
    label: 'raise/throw wording ("$")',
    match: inProse(/\b(?:raise|raises|raised|raising|throw|throws|threw|thrown)\b/),
  },
  {
    mode: "diagnostic",
    weight: 2.5,
    id: "http-status",
    label: "an HTTP status code ($)",
    match: inProse(
      /\b(?:returns?|returning|got|gets|getting|status|responds? with|response|http|a|an) (?:(?:status|code|error|http) )?[45]\d\d\b|\b[45]\d\d (?:error|response|status|from)\b/,
    ),
  },
  {
    mode: "diagnostic",
    weight: 2,
    id: "performance",
    label: 'a performance symptom ("$")',
    match: inProse(
      /\b(?:too slow|very slow|so slow|slow(?:er)? than|takes forever|out of memory|oom|memory usage)\b/,
    ),
  },
  {
    mode: "diagnostic",
    weight: 3,
    id: "bug-report",
    label: "bug-report structure ($)",
    match: inProse(
      /\b(?:steps to reproduce|to reproduce|expected (?:behaviou?r|result|output)|actual (?:behaviou?r|result|output)|what happened|what you expected|mcve|minimal (?:complete |reproducible |verifiable )*example|mre)\b|^[ \t]*(?:#+[ \t]*)?(?:expected|actual)(?: (?:behaviou?r|result|output))?[ \t]*:/m,
    ),
  },
  {
    mode: "diagnostic",
    weight: 1.5,
    id: "expectation",
    label: 'a stated expectation ("$")',
    match: inProse(
      /\b(?:i thought|my understanding (?:was|is)|i (?:would )?expect(?:ed)?|supposed to|should (?:be|return|work|have|not|still))\b/,
    ),
  },
  {
    mode: "diagnostic",
    weight: 1.5,
    id: "long-paste",
    label: "pasted code in a long report",
    match: (q) => (q.hasFence && q.raw.length > 300 ? "fence" : null),
  },
  {
    mode: "diagnostic",
    weight: 0.5,
    id: "why",
    label: "a why-question",
    match: inProse(
      /^\s*why\b(?! (?:am|are|do|does|is) (?:i|we|it|this|they) (?:getting|seeing|hitting|receiving)\b)/,
    ),
  },

  // Exploratory: follow execution or data forward through the code.
  {
    mode: "exploratory",
    weight: 3,
    id: "trace-request",
    label: 'a request to trace or walk through code ("$")',
    match: inProse(
      /(?<!stack )\btrac(?:e|ing)\b|\bwalk (?:me |us )?through\b|\bwalkthrough\b|\bstep[- ]by[- ]step\b/,
    ),
  },
  {
    mode: "exploratory",
    weight: 3,
    id: "what-happens",
    label: 'a "what happens when" question',
    match: inProse(/\bwhat happens (?:when|after|if|before|during|on|once)\b/),
  },
  {
    mode: "exploratory",
    weight: 2,
    id: "flow-word",
    label: 'flow wording ("$")',
    match: inProse(/\b(?:data ?flow|control ?flow|flows?|flowing)\b/),
  },
  {
    mode: "exploratory",
    weight: 3,
    id: "call-order",
    label: 'execution order or call chains ("$")',
    match: inProse(
      /\b(?:execution|call|calling|startup|boot|request|initiali[sz]ation|middleware) (?:order|sequence|path|chain|graph|lifecycle)\b|\bin (?:what|which) order\b|\border of (?:execution|calls|operations)\b|\bsequence of\b|\bcall (?:chain|path|graph)\b|\bstartup sequence\b/,
    ),
  },
  {
    mode: "exploratory",
    weight: 2.5,
    id: "callers",
    label: 'callers or callees ("$")',
    match: inProse(
      /\b(?:who|what|which functions?) (?:calls|invokes|uses)\b|\bcallers?\b|\bcallees?\b|\bwhere (?:is|are) \S+ (?:called|invoked|used|referenced)\b|\bcall[- ]sites?\b|\bwhich functions does\b|\bwhat does \S+ call\b/,
    ),
  },
  {
    mode: "exploratory",
    weight: 2.5,
    id: "how-connect",
    label: 'how components connect ("$")',
    match: inProse(
      /\bhow (?:does|do|is|are) .{1,60}?\b(?:call|calls|invoke|invokes|reach(?:es)?|gets? (?:to|from)|connect(?:s|ed)?|interact(?:s)?|passed to|hand(?:s|ed)? off|triggers?|triggered|wired|routed|dispatch(?:ed|es)?|flow into|restored|propagat(?:e|es|ed))\b/,
    ),
  },
  {
    mode: "exploratory",
    weight: 2,
    id: "from-to",
    label: 'a from-to path ("$")',
    match: inProse(/\bfrom (?:the |a |an )?[a-z][a-z .\-/_]{1,40}? to (?:the |a |an )?[a-z][a-z\-/_]{1,30}/),
  },
  {
    mode: "exploratory",
    weight: 2,
    id: "code-path",
    label: 'a path through the code ("$")',
    match: inProse(
      /\bthe path (?:a|an|the) \w+ takes\b|\bend(?:s)? up\b|\bgets? (?:passed|sent|routed|forwarded)\b|\bfollow(?:s|ing)? (?:the |a |an )?(?:request|call|data|flow|path|code|execution|chain|message)\b|\bfollow\b.{1,80}?\b(?:call|request|invocation)\b.{0,40}?\b(?:down|through|into|all the way)\b|\b(?:down|all the way) to the\b/,
    ),
  },
  {
    mode: "exploratory",
    weight: 1.5,
    id: "pipeline",
    label: 'pipeline or lifecycle wording ("$")',
    match: inProse(/\b(?:lifecycle|life cycle|end[- ]to[- ]end|entry ?points?|pipeline)\b/),
  },

  // Analytical: judge the structure or quality of the code.
  {
    mode: "analytical",
    weight: 3,
    id: "architecture",
    label: 'architecture wording ("$")',
    match: inProse(/\barchitect(?:ure|ural|urally)\b/),
  },
  {
    mode: "analytical",
    weight: 3.5,
    id: "whats-wrong",
    label: 'a "what is wrong with" assessment',
    match: inProse(/\bwhat(?:'s| is) wrong with\b/),
  },
  {
    mode: "analytical",
    weight: 3,
    id: "problems",
    label: 'a request for problems or flaws ("$")',
    match: inProse(
      /\b(?:what|which) (?:are |is )?(?:the )?(?:main |biggest |major |potential |key |architectural |design |structural )*(?:problems?|issues|risks?|flaws?|weaknesses|concerns|shortcomings|downsides)\b|\b(?:problems?|issues|risks|concerns) (?:do you see|you see|with the)\b|\bany (?:problems|issues|risks|concerns|smells)\b/,
    ),
  },
  {
    mode: "analytical",
    weight: 3,
    id: "quality",
    label: 'quality wording ("$")',
    match: inProse(
      /\b(?:code quality|quality|flaws?|flawed|weakness(?:es)?|shortcomings?|code smells?|smells?|anti-?patterns?|tech(?:nical)? debt|hot ?spots?|fan[- ](?:in|out)|god (?:class|object)|dead code)\b/,
    ),
  },
  {
    mode: "analytical",
    weight: 3,
    id: "assess",
    label: 'a request to assess ("$")',
    match: inProse(
      /\b(?:assess(?:ment)?|audit|critique|critici[sz]e)\b|\b(?:evaluate|review|analy[sz]e|judge|rate) (?:the|this|our|my|how|its|whether|code)\b|\b(?:code review|design review|evaluation of (?:the|this|our) (?:code|design|architecture|structure|module)|structural analysis)\b/,
    ),
  },
  {
    mode: "analytical",
    weight: 2.5,
    id: "coupling",
    label: 'dependency or coupling wording ("$")',
    match: inProse(
      /\b(?:coupl(?:ed|ing)|cohesi(?:on|ve)|dependenc(?:y|ies)|depend(?:s|ed|ing|ent)? on|circular|layer(?:ing|ed)|modular(?:ity)?|separation of concerns|boundar(?:y|ies))\b/,
    ),
  },
  {
    mode: "analytical",
    weight: 2,
    id: "structure",
    label: 'structure or design wording ("$")',
    match: inProse(/(?<!data )\bstructur(?:e|ed|al|ing)\b|\bdesign(?:ed)?\b|\borgani[sz](?:ed|ation)\b/),
  },
  {
    mode: "analytical",
    weight: 2,
    id: "maintainability",
    label: 'maintainability wording ("$")',
    match: inProse(
      /\b(?:maintainab(?:le|ility)|scalab(?:le|ility)|complexity|most complex|refactor(?:ing)?|duplicat(?:ed|ion)|bottlenecks?|trade-?offs?|pros and cons|best practices?|improvements?|well[- ](?:structured|designed|organi[sz]ed)|clean)\b/,
    ),
  },

  // Conceptual: what something is, does, or how to use it.
  {
    mode: "conceptual",
    weight: 2,
    id: "what-does",
    label: 'a what-is/what-does question ("$")',
    match: inProse(
      /\bwhat (?:does|do) .{1,60}?\b(?:do|does|mean|produce|return|contain|accept|represent)\b|\bpurpose of\b|\bused for\b|\bwhat is \S+ for\b|\bwhat \S+ (?:is|are) for\b/,
    ),
  },
  {
    mode: "conceptual",
    weight: 1,
    id: "what-is",
    label: 'a what-is question ("$")',
    match: inProse(/^\s*what(?:'s| is| are) (?:a|an|the)\b/),
  },
  {
    mode: "conceptual",
    weight: 2,
    id: "how-to",
    label: 'a how-to question ("$")',
    match: inProse(/\bhow (?:do|can|should|would) (?:i|we|you|one)\b|\bhow to\b/),
  },
  {
    mode: "conceptual",
    weight: 2,
    id: "how-works",
    label: 'a how-does-it-work question ("$")',
    match: inProse(/\bhow (?:does|do|is|are) .{1,60}?\bwork(?:s|ing)?\b/),
  },
  {
    mode: "conceptual",
    weight: 1.5,
    id: "explain",
    label: 'a request for explanation or location ("$")',
    match: inProse(
      /\b(?:explain|describe|overview|introduction|summari[sz]e|difference between|where (?:is|are) .{1,40}?(?:defined|configured|declared|set|stored|located|implemented|computed|calculated|decided|determined|built|created|generated|parsed|validated|checked|formatted|chosen|kept|cached|registered))\b/,
    ),
  },
  {
    mode: "conceptual",
    weight: 1.5,
    id: "options",
    label: 'a question about supported options ("$")',
    match: inProse(
      /\b(?:what|which) (?:options|flags|arguments|parameters|languages|formats|providers|commands|settings)\b/,
    ),
  },
];

// Ties go to the mode whose retrieval is most specific: a symptom beats a flow, a flow beats
// an assessment, and anything beats the general default.
const TIE_ORDER: readonly QueryMode[] = ["diagnostic", "exploratory", "analytical", "conceptual"];

/** The signals a question carries, with what each matched. */
export function matchedSignals(
  q: Prepared,
): { id: string; mode: QueryMode; weight: number; label: string }[] {
  const out: { id: string; mode: QueryMode; weight: number; label: string }[] = [];
  for (const signal of SIGNALS) {
    const found = signal.match(q);
    if (found !== null)
      out.push({
        id: signal.id,
        mode: signal.mode,
        weight: signal.weight,
        label: signal.label.replace("$", clip(found)),
      });
  }
  return out;
}

/** Classifies a question into a retrieval mode with deterministic weighted rules. */
export function classifyByRules(question: string): RuleClassification {
  const q = prepare(question);
  const scores: Record<QueryMode, number> = {
    conceptual: CONCEPTUAL_BASELINE,
    diagnostic: 0,
    exploratory: 0,
    analytical: 0,
  };
  const hits: Record<QueryMode, string[]> = {
    conceptual: [],
    diagnostic: [],
    exploratory: [],
    analytical: [],
  };
  for (const signal of matchedSignals(q)) {
    scores[signal.mode] += signal.weight;
    hits[signal.mode].push(signal.label);
  }
  const ranked = [...TIE_ORDER].sort(
    (a, b) => scores[b] - scores[a] || TIE_ORDER.indexOf(a) - TIE_ORDER.indexOf(b),
  );
  const mode = ranked[0] ?? "conceptual";
  const runnerUp = ranked[1] ?? "conceptual";
  const anySignal = QUERY_MODE_LIST.some((m) => hits[m].length > 0);
  return {
    mode,
    reasoning: explain(mode, hits[mode], runnerUp, hits[runnerUp]),
    scope: extractScope(question),
    confidence: anySignal ? confidenceFrom(scores[mode], scores[runnerUp]) : 0.4,
  };
}

/**
 * The part of the codebase a question is about: a path if one is written in the prose,
 * else a component named as "the X module/package/layer/…", else null. Paths inside
 * tracebacks are left out: they locate the failure, not the user's area of interest.
 */
export function extractScope(question: string): string | null {
  const prose = stripTraceLines(splitFences(question.replace(/\r\n?/g, "\n")).prose);
  for (const raw of prose.split(/[\s"'`()<>[\]{},;|]+/)) {
    const token = raw.replace(/(?::\d+){1,2}$/, "").replace(/[.:!?]+$/, "");
    if (!token || /^(?:\/|~|[A-Za-z]:[\\/])/.test(token) || token.includes("://")) continue;
    if (isPathLike(token)) return normalizePath(token);
  }
  const named = new RegExp(
    `\\b(?:the|our|my|this|that)\\s+((?:[\\w.-]+\\s+){0,2}?[\\w.-]+)\\s+(?:${SCOPE_NOUNS})s?\\b`,
    "gi",
  );
  for (const m of prose.matchAll(named)) {
    const name = m[1] ? scopeName(m[1]) : null;
    if (name) return name;
  }
  const area = /\b(?:the|our|in)\s+(frontend|backend|cli|ui|client|server)\b/i.exec(prose);
  return area?.[1]?.toLowerCase() ?? null;
}

const SCOPE_NOUNS =
  "module|package|folder|directory|dir|layer|service|component|subsystem|library|crate|namespace|code|system|endpoint|app|router|controller|plugin";

// prettier-ignore
const FUNCTION_WORDS = new Set([
  "between", "and", "or", "of", "to", "with", "from", "in", "on", "for", "how", "is", "are", "was", "does", "do",
  "what", "which", "when", "where", "why", "into", "by", "at", "as",
]);

// prettier-ignore
const VAGUE_WORDS = new Set([
  "whole", "entire", "overall", "current", "same", "new", "old", "other", "existing", "main", "source", "this",
  "that", "my", "our", "the", "a", "an", "its", "all", "every",
]);

// "the whole qa module" names "qa"; "the module boundaries between app" names nothing.
function scopeName(phrase: string): string | null {
  const words = phrase.split(/\s+/).map((w) => w.toLowerCase());
  if (words.some((w) => FUNCTION_WORDS.has(w))) return null;
  const kept = words.filter((w) => !VAGUE_WORDS.has(w));
  return kept.length > 0 ? kept.join(" ") : null;
}

export function prepare(question: string): Prepared {
  const raw = question.replace(/\r\n?/g, "\n");
  const { prose } = splitFences(raw);
  const anchors = extractAnchors(raw);
  return {
    raw,
    prose: prose.toLowerCase().replace(/[’‘]/g, "'"),
    exceptionTypes: anchors.exceptionTypes,
    frameCount: anchors.stackFrames.length,
    hasFence: /^[ \t]*(?:```|~~~)/m.test(raw),
  };
}

function stripTraceLines(text: string): string {
  return text
    .split("\n")
    .filter((l) => !/^\s*(?:File "|at\s|Traceback \()/.test(l))
    .join("\n");
}

function confidenceFrom(top: number, second: number): number {
  const margin = (top - second) / (top + 1);
  const value = 0.5 + 0.45 * margin;
  return Math.round(Math.min(0.95, Math.max(0.3, value)) * 100) / 100;
}

function explain(mode: QueryMode, found: string[], runnerUp: QueryMode, runnerUpFound: string[]): string {
  const name = mode[0]?.toUpperCase() + mode.slice(1);
  if (found.length === 0) {
    return runnerUpFound.length > 0
      ? `${name} by default: the only signals (${runnerUp}: ${joinList(runnerUpFound)}) were too weak to choose another mode.`
      : `${name} by default: no error, tracing or assessment signal was found, so it is treated as a general question.`;
  }
  const other = runnerUpFound.length > 0 ? `; weaker ${runnerUp} signals: ${joinList(runnerUpFound)}` : "";
  return `${name} because the question has ${joinList(found)}${other}.`;
}

function joinList(items: string[]): string {
  const unique = [...new Set(items)];
  if (unique.length <= 1) return unique[0] ?? "";
  return `${unique.slice(0, -1).join(", ")} and ${unique[unique.length - 1]}`;
}

/** A quoted piece of the question, cut to one short line. */
export function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, " ");
  return oneLine.length > 40 ? `${oneLine.slice(0, 40)}…` : oneLine;
}
