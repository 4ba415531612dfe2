/**
 * The clause a question asks in, and the kind of verb it asks with: the mode classifier's
 * features for the conceptual/exploratory boundary. "How does X get from A to B", "how is
 * X turned into Y", "where does X end up" follow a movement through the code (exploratory);
 * "how does X decide", "what caps Y", "where is Z defined" ask for one deciding place
 * (conceptual). Words alone do not tell them apart ("how does" starts both), the verb of
 * the asking clause does. In a report whose first sentences set the scene ("Our service
 * calls flush on shutdown. What does flush do …?") the asking sentence is the last question,
 * not the first sentence. Pure functions over the lower-cased prose.
 */

/** Kinds of verb that separate the modes, by what the answer has to show. */
export type VerbClass = "motion" | "transform" | "sequence" | "decide" | "define";

const VERB_CLASSES: readonly { kind: VerbClass; pattern: RegExp }[] = [
  {
    // something moving through the code, or made to happen on the way ("how does the
    // header get set"): the answer is a path
    kind: "motion",
    pattern:
      /\b(?:get|gets|getting|got)\s+(?:from|to|into|through|back|picked up|[a-z]+ed|set|put|built|sent|run|written|read|made|done|thrown|caught|shown|drawn|taken|given|split|bound|held|found)\b|\breach(?:es|ed|ing)?\b|\bend(?:s|ed)? up\b|\bmakes? (?:its|their) way\b|\b(?:pass(?:es|ed)?|flows?|travels?|propagat(?:e|es|ed)|forward(?:s|ed)?|dispatch(?:es|ed)?|hand(?:s|ed)?|routes?|routed|carrie[sd]|threaded|sends?|sent|delivers?|delivered)\s+(?:[\w.'"-]+\s+){0,4}?(?:through|to|into|down|along|back|between)\b|\bwhat happens to\b|\bwhere does .{1,60}?\b(?:go|come from)\b/,
  },
  {
    // a value changed into another by several steps: the answer is the chain that does it
    kind: "transform",
    pattern:
      /\b(?:turn(?:s|ed|ing)?|convert(?:s|ed|ing)?|transform(?:s|ed|ing)?|compile[sd]?|expand(?:s|ed)?|translate[sd]?|rewritten|rewrites?|merged?)\b.{0,60}?\binto\b|\bbecomes?\b/,
  },
  {
    // an order of events: the answer is a sequence
    kind: "sequence",
    pattern:
      /\bin (?:what|which) order\b|\bstep by step\b|\bstate by state\b|\bone by one\b|\bfor each\b|\bper (?:row|item|line|call|request|record|argument|token|element|iteration|chunk|entry|file)\b|\bthen\b|\buntil\b|\bon the way\b|\bbetween the moment\b|\bfrom the moment\b|\bwhich (?:functions|methods|calls|steps|hooks) run\b|\b(?:runs?|called|happens?) (?:first|next|afterwards)\b/,
  },
  {
    // a choice or a computation made in one place: the answer is the deciding code
    kind: "decide",
    pattern:
      /\b(?:decide[sd]?|deciding|determine[sd]?|determining|choose[sd]?|chooses|chosen|picks?|selects?|computes?|computed|calculate[sd]?|caps?|capped|limits?|validates?|checks? (?:whether|if|that)|tells? .{1,40}? apart|distinguish(?:es)?)\b/,
  },
  {
    // what something is or where it lives: the answer is a definition
    kind: "define",
    pattern:
      /\b(?:defined|declared|configured|stored|kept|holds?|means?|represents?|difference between|purpose of|used for|stands? for|consists? of)\b/,
  },
];

/** The verb classes a piece of prose uses. */
export function verbClasses(text: string): VerbClass[] {
  return VERB_CLASSES.filter((c) => c.pattern.test(text)).map((c) => c.kind);
}

/**
 * Whether the asking clause is about one call the user makes, written as code with its
 * parentheses ("what does app.use(passport.initialize()) do", "how does
 * MethodSpec.overriding(element) build …"): what that call runs is a path from it, while
 * the same opener about a library or a feature ("how does the router decide") asks for one
 * place.
 */
export function asksAboutCall(clause: string): boolean {
  return CALL_SUBJECT.test(clause);
}

/**
 * Whether the question asks what one call does when it runs: the asking clause is about a
 * call written as code and asks with a verb of doing, not of deciding, defining or
 * returning ("how does diff() compute …", "what does Sub("server") return" ask for one place).
 */
export function followsCall(prose: string): boolean {
  const { text } = askingClause(prose);
  if (!asksAboutCall(text)) return false;
  // the verb that goes with the call, not one of a second question joined to it ("how does
  // err.chain() walk the causes, and what does root_cause() return?")
  const part = text.split(SECOND_QUESTION)[0] ?? text;
  const kinds = verbClasses(part);
  return !kinds.includes("decide") && !kinds.includes("define") && !ONE_PLACE_VERB.test(part);
}

/**
 * Whether the question follows a run: its asking clause, read after a setting of the scene
 * ("when I send …, ", "if I call A then B, "), asks with a verb of movement or of sequence
 * and with no verb of deciding or defining.
 */
export function followsRun(prose: string): boolean {
  const text = withoutScene(askingClause(prose).text);
  const kinds = verbClasses(text);
  return (
    !YES_NO.test(text) &&
    RUN_SHAPE.test(text) &&
    !kinds.includes("decide") &&
    !kinds.includes("define") &&
    !/\bwhy\b/.test(text)
  );
}

// "Is …", "does …", "are … kept?": a case of behaviour, answered by one mechanism.
const YES_NO = /^(?:is|are|does|do|did|can|could|will|would|should|has|have)\b/;

// What follows an event, what a function does per item, where a value goes and comes back,
// what a program does as it starts, how one part is wired to another, the steps asked for.
const RUN_SHAPE =
  /^(?:walk (?:me |us )?through|trace|follow|step through)\b|^(?:at|on|during) (?:start-?up|boot|launch)\b|\b(?:wired|hooked|plugged) (?:up )?(?:to|into|back to|together)\b|\bstep by step\b|^what (?:does|do) .{1,80}? do (?:for each|for every|per|after|between|until|on each|to each|with each|once)\b|\bwhat happens (?:when|after|to|inside|next|between|if|once|on)\b|\bwhat (?:runs|gets called|is called)\b|\bwhere (?:does|do) .{1,60}?\bgo\b(?! wrong)|\bgets? (?:it|them) back\b/;

/**
 * Whether the question asks for a decision: its asking clause, read after a setting of the
 * scene, asks with a verb of deciding ("where is the order decided", "how does X work out
 * which …") or for a position in a stack ("which one ends up outermost"), and with no verb
 * of movement.
 */
export function asksDecision(prose: string): boolean {
  const text = withoutScene(askingClause(prose).text);
  // "ends up outermost" is a place in an order, not a movement
  const kinds = verbClasses(text.replace(DECISION, " "));
  return (
    (DECISION.test(text) || kinds.includes("decide")) &&
    !kinds.includes("motion") &&
    !kinds.includes("sequence") &&
    !RUN_SHAPE.test(text) &&
    !A_CHAIN.test(prose)
  );
}

/**
 * Whether the question asks which of two outcomes the code gives in a case: its asking
 * clause, read after a setting of the scene, is a yes/no question offering alternatives
 * ("if I register A then B, does A or B see the request first?", "are the headers replaced
 * or combined?"). One mechanism's behaviour, not a run, unless a run is asked for outright.
 */
export function asksCase(prose: string): boolean {
  const text = withoutScene(askingClause(prose).text);
  return YES_NO.test(text) && /\bor\b/.test(text) && !RUN_SHAPE.test(text) && !A_CHAIN.test(prose);
}

// A chain asked for outright: "walk me through", "trace", "follow", "which functions …".
const A_CHAIN = /\b(?:walk (?:me |us )?through|trace|follow)\b|\bwhich (?:functions|methods|calls|steps)\b/;

const DECISION =
  /\bworks? out\b|\b(?:ends?|ended) up (?:innermost|outermost|first|last|on top|at the bottom)\b/;

/**
 * Whether the question asks about the code's structure at all: a relation between parts
 * (depends, imports, includes, calls, uses, wraps, defines, registers, implements), a
 * measure (most, how many, fan-in, size, cycles), a part of the code as such (files,
 * folders, modules, packages, classes, functions, methods, tests) or a judgement of it
 * (architecture, quality, unused, dead code). An analytical reading of a question with none
 * of these ("which escape sequences are allowed in a value?", "which HTTP methods make it
 * retry?") asks for the values a rule accepts: one deciding place.
 */
export function namesStructure(question: string): boolean {
  return STRUCTURE.test(question);
}

const STRUCTURE =
  /\b(?:depend\w*|import\w*|includ\w*|call(?:s|ed|ers?|ing)?|invok\w*|callee\w*|used|unused|uses?|using|most|least|fan-?(?:in|out)|coupl\w*|cycl\w*|circular|how many|count\w*|number of|organi[sz]\w*|layer\w*|architectur\w*|hotspots?|complex\w*|largest|biggest|smallest|reference\w*|implement\w*|inherit\w*|extend\w*|subclass\w*|overrid\w*|defin\w*|declar\w*|register\w*|(?:which|what|other|source|header) files?|files? (?:in|under|that|which|of the)|folders?|director(?:y|ies)|modules?|packages?|crates?|namespaces?|classes|functions|(?<!(?:http|request) )methods|parts|structure|diagram|graph|tests?|dead|duplicat\w*|entry points?|exports?|re-?export\w*|wrap\w*|touch\w*|reach\w*|pull\w*|share[sd]?|between|across|within|split|spread|size|lines? of code|loc|list|places|ranked|move|code paths?|quality|design|weak\w*|assess|evaluate|review)\b/i;

/** The asking clause without a leading setting of the scene ("when I call X, how …"). */
export function withoutScene(clause: string): string {
  return clause.replace(SCENE, "");
}

const SCENE = /^(?:when|whenever|if|once|after|before|since|with|given)\b[^,?]{1,200},\s*/;

const SECOND_QUESTION =
  /,?\s+(?:and|or|but)\s+(?=(?:what|how|why|which|when|where|who|is|are|does|do|can|will)\b)|[;?]/;

const CALL_SUBJECT =
  /^(?:how|what|where|when)\s+(?:does|do|did|will|happens when (?:i|you|we) call)\s+(?:(?:calling|iterating over|a call to|the call|my|a|an|the)\s+)?\$?[\w.$:<>#\\-]*[\w>]\(/;

// Verbs that ask for a value or a rule rather than the steps that produce it ("what does
// node.as<int>() do with a scalar that is not a number?" asks how one case is treated; "what does
// router.mount(sub) do with the requests under its prefix?" still follows them).
const ONE_PLACE_VERB =
  /\b(?:do with an?|returns?|mean|means|accept|accepts|allow|allows|expect|expects|differ|support|supports|cost|costs|work|treat|treats|handle|handles)\b/;

export interface AskingClause {
  /** the sentence that asks (the last one ending in a question mark, else the first) */
  text: string;
  /** its first word, lower-cased ("how", "what", "where", … or "other") */
  opener: string;
  /** prose sentences before it: a report or a setting of the scene */
  contextBefore: number;
}

const OPENERS = new Set(
  "how what where which who why when is are does do can could should trace walk show list explain describe find give tell in".split(
    " ",
  ),
);

/** The sentence of the question that asks, and how much context comes before it. */
export function askingClause(prose: string): AskingClause {
  const sentences = prose
    .split(/(?<=[.?!])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => /[a-z]/.test(s));
  let at = -1;
  sentences.forEach((s, i) => {
    if (/\?\s*$/.test(s)) at = i;
  });
  if (at < 0) at = 0;
  const text = sentences[at] ?? "";
  const first = /^[^a-z]*([a-z]+)/.exec(text)?.[1] ?? "";
  return { text, opener: OPENERS.has(first) ? first : "other", contextBefore: at };
}
