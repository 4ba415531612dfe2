/**
 * What an analytical question asks for, so the answer leads with that figure: the
 * callers of a named symbol (and how they depend on each other), what a named file or
 * symbol depends on and what depends on it, the most imported files, import cycles,
 * the coupling or layering between two parts, the functions with the highest fan-in or
 * fan-out, the largest functions, code nothing calls, or — when it asks none of these —
 * an overview of the structure. Pure: read from the question's words.
 */

export type AnalyticalAsk =
  | "importers"
  | "callers"
  | "dependencies"
  | "most-imported"
  | "least-imported"
  | "cycles"
  | "coupling"
  | "layering"
  | "fan-in"
  | "fan-out"
  | "largest"
  | "dead-code"
  | "overview";

const ASKS: [AnalyticalAsk, RegExp][] = [
  // The other end of a ranking: "which files are depended on the least?", "the fewest callers".
  [
    "least-imported",
    /(?<!\bat )\b(?:least|fewest|rarely|seldom)\b[^?.]{0,30}?\b(?:import|includ|requir|depend|us|referenc|call|importers|dependents|users)\w*|\b(?:imported|included|required|depended on|used|referenced|called) (?:by )?(?:the )?(?:least|fewest)\b/i,
  ],
  ["cycles", /\bcycl(?:e|es|ic)\b|\bcircular\b/i],
  // Who uses a named part most: "which modules import core/logx the most", "depend most on X".
  [
    "importers",
    /\b(?:which|what)\b[^?]{0,60}?\b(?:import|include|require|use|depend on|call into|reference)s?\s+(?!by\b|the most\b)\S[^?]{0,80}?\s(?:the )?most\b|\b(?:depends?|rel(?:y|ies)) (?:the )?most (?:heavily )?on\b|\bwho (?:imports|includes|requires)\b/i,
  ],
  [
    "dead-code",
    /\bdead code\b|\bunused\b|\bnothing (?:else )?(?:calls|imports|uses|references)\b|\bno(?:body| one| other \w+) (?:calls|imports|uses)\b|\bnever (?:called|used|imported)\b|\buncalled\b/i,
  ],
  [
    "layering",
    /^\s*(?:does|do)\s[^?]{1,60}?\b(?:depend on|import|use|call into|reach into|rely on)\s[^?]{2,}|\blayer(?:ing|ed|s)?\b|\bnever imports?\b|\b(?:ever|only) imports? from\b|\bimports? (?:anything )?from\b.*\bor\b|\bback[- ]?references?\b|\bviolat\w+\b/i,
  ],
  [
    "fan-out",
    /\bfan[- ]?out\b|\b(?:calls|imports|requires|depends on) the most\b|\bmost (?:dependencies|imports)\b/i,
  ],
  [
    "largest",
    /\b(?:largest|longest|biggest|most complex|complexity|deepest nesting|most (?:nesting|branching|methods|lines)|by (?:line count|number of (?:lines|methods)))\b/i,
  ],
  [
    "callers",
    /\bcall(?:s|ing)? into\b|\bwhich (?:parts|modules|files|functions|methods|places|packages|components|classes)\b.{0,60}\b(?:call|use|invoke|render|reach|touch)\b|\bwhich (?:[\w-]+ )?\w+s\b[^?]{0,60}\b(?:go(?:es)? through|funnel into|(?:are|is) built on|depend on (?:the|a|an) (?!most\b))|\bwho (?:builds|creates|constructs|instantiates)\b|\bplaces (?:that )?(?:construct|create|instantiate|build)\b|\bwhere\b[^?]{0,40}\b(?:is|are) (?:a|an|the) [\w' -]{2,40}\b(?:created|constructed|instantiated)\b|\bhow many (?:places|functions|methods|modules|files|components|renderables|callers|packages|public methods)\b.{0,60}\b(?:call|use|invoke|render|throw|raise)\b|\bwho (?:else )?(?:calls|uses|invokes)\b|\bwhat (?:else )?(?:calls|invokes)\b|\blist (?:the |every |all )?(?:\w+ ){0,2}?(?:that|which) (?:call|run|invoke)s?\b|\bcallers?\b|\bused by\b(?! the most)|\bplaces (?:that )?call\b/i,
  ],
  [
    "dependencies",
    /\b(?:what|which \w+) (?:does|do) .{1,90}\bdepend on\b|\b(?:what|which \w+) (?:does|do) (?!(?:it|they|that|this|those|these)\b).{1,60}\b(?:import|include|require)\b|\bwhat depends on\b|\bwhich \w+ (?:import|include|require) (?:it|them)\b|\bimports and importers\b|\b(?:its|their) (?:imports|dependencies|dependents)\b|\bwhat would break\b|\bwhat .{1,40}\bdepend(?:s)? on (?:it|them)\b|\bleaf\b/i,
  ],
  [
    "most-imported",
    /\b(?:imported|required|included|depended on|used|referenced) (?:by )?the most\b|\b(?:import|include|require|reference|use)d? (?:by )?(?:the )?most (?:other )?(?:files|modules|packages)\b|\b(?:most|highest|heavily|widely) (?:imported|depended[- ]on|used|included|required)\b|\bdepended on (?:the )?most\b|\b(?:the )?most (?:callers|call sites|usages)\b|\b(?:most (?:often )?|most frequently )called\b|\bcalled the most\b|\bhubs?\b|\bfan[- ]?in\b|\brank\b.{0,40}\bby (?:fan-in|importers|dependents)\b/i,
  ],
  [
    "coupling",
    /\bcoupl(?:ed|ing)\b|\bcohesi(?:on|ve)\b|\bboundar(?:y|ies)\b|\bdepend on each other\b|\bcross(?:es)? (?:that|the) boundary\b/i,
  ],
  [
    "overview",
    /\barchitect\w*|\bassess\w*|\breview\b|\bevaluate\b|\bquality\b|\bstructur\w*|\bdesign\b|\bweak(?:ness|nesses| points?)\b|\bproblems?\b|\bsmells?\b|\borgani[sz]\w+|\bwhat(?:'s| is) wrong\b|\btech(?:nical)? debt\b|\bhotspots?\b/i,
  ],
];

/** Asks about a scope as a whole: two of them in one question make it an overview. */
export const SCOPE_ASKS: readonly AnalyticalAsk[] = [
  "cycles",
  "coupling",
  "most-imported",
  "least-imported",
  "fan-in",
  "fan-out",
  "largest",
];

/** The asks of a question, most specific first (a question may ask two: "cycles, and how coupled"). */
export function analyticalAsks(question: string): AnalyticalAsk[] {
  let found = ASKS.filter(([, re]) => re.test(question)).map(([ask]) => ask);
  // "Which files are used the least?" is no ranking of the most used as well.
  if (found.includes("least-imported")) found = found.filter((a) => a !== "most-imported" && a !== "fan-in");
  return found.length ? found : ["overview"];
}

/** Whether the fan-in asked about is of functions (symbols) rather than of files or modules. */
export function asksAboutFunctions(question: string): boolean {
  // "Which classes are referenced by the most other files?" counts files, not callers.
  if (/\bby the most (?:other )?(?:source )?(?:files|modules|packages)\b/i.test(question)) return false;
  // "Which classes are used by the most other classes" ranks types by who uses them, as files.
  if (
    /\b(?:which|what|rank(?: the)?|list(?: the)?|top)\s+(?:\w+\s+){0,2}?(?:classes|class|interfaces?|types|structs|traits)\b/i.test(
      question,
    )
  )
    return false;
  return /\b(?:functions?|methods?|helpers?|classes|class|hooks?|symbols?|routines?)\b/i.test(question);
}

/**
 * Whether a ranking question ranks folders (packages, directories, namespaces, crates)
 * rather than files: by the noun it asks about ("which packages …", "rank the folders"),
 * not any folder it mentions ("which modules in the src folder …" ranks files).
 */
export function ranksFolders(question: string): boolean {
  const noun =
    /\b(?:which|what|rank(?: the)?|list(?: the)?|top)\s+(?:\w+\s+){0,2}?(packages?|folders?|director(?:y|ies)|namespaces?|crates?|modules?|files?|headers?|classes|interfaces|components|sources?)\b/i.exec(
      question,
    )?.[1];
  return noun ? /^(?:packages?|folders?|director|namespaces?|crates?)/i.test(noun) : false;
}

/**
 * Whether the question asks where its subject is created rather than used ("where is a
 * code writer created?", "list the places that construct one", "who instantiates Parser").
 */
export function asksConstruction(question: string): boolean {
  return /\b(?:is|are) (?:a|an|the) [\w' -]{2,40}\b(?:created|constructed|instantiated)\b|\b(?:construct|create|instantiate)s? (?:one|it|them|instances?|objects?)\b|\bwho (?:creates|constructs|instantiates)\b|\bplaces (?:that )?(?:construct|create|instantiate)\b/i.test(
    question,
  );
}

/**
 * Whether the question asks which files import the code it names ("which modules require
 * the request extension that adds req.login?"): the importers of that code's file, which
 * a side-effect import reaches and no call does.
 */
export function asksImportersOf(question: string): boolean {
  return /\b(?:which|what) (?:other )?(?:modules|files|packages|headers|sources)\b[^?]{0,20}?\b(?:import|require|include)s?\b(?! (?:from|by)\b)(?![^?]*\bmost\b)/i.test(
    question,
  );
}
