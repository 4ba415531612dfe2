/**
 * How a question is read for its opening: the clause that asks and what it asks about
 * ("what decides whether a redirect is followed" → decided / "whether a redirect is
 * followed"), the "when I call X" clause an exploratory answer starts from, and where a
 * flow's end clause begins ("… until a handler sends it"). Pure text; no evidence.
 */
/**
 * What the question asks to be explained, as it says it: "how does requests decide
 * whether to follow a redirect" → decided / "whether to follow a redirect"; "what caps
 * the number of retries" → capped / "the number of retries".
 */
export function askedTopic(question: string): { verb: string; object: string } | null {
  const q = question
    .trim()
    .replace(/\s+/g, " ")
    .replace(/[?.!]+$/, "");
  for (const s of askingClauses(q).reverse()) {
    const topic = topicOf(s);
    if (topic) return topic;
  }
  return null;
}

/** The clauses that ask: "When a browser sends X, what decides whether a 304 is returned?" → the second. */
export function askingClauses(question: string): string[] {
  // The commas of a list after "between"/"among" ("between gzip, deflate or none") join, not split.
  const LIST_COMMA = "\u0000";
  const kept = question.replace(/\b(?:between|among) [^,?.;]+(?:, [^,?.;]+)+ (?:or|and) /gi, (list) =>
    list.replaceAll(",", LIST_COMMA),
  );
  return kept
    .split(/(?<=[.?!])\s+|,\s+/)
    .map((c) =>
      c
        .replaceAll(LIST_COMMA, ",")
        .replace(/[?.!]+$/, "")
        // "…, and where is the order decided?": the conjunction joins, the clause still asks.
        .replace(/^(?:and|but|so|or|then|also)\s+(?=(?:how|what|which|where|when)\b)/i, ""),
    )
    .filter((c) => /^(?:how|what|which|where|when)\b/i.test(c));
}

function topicOf(s: string): { verb: string; object: string } | null {
  const verbs =
    "decide|determine|compute|calculate|cap|limit|control|choose|pick|set|select|build|parse|resolve|find|match|validate|check|convert|generate|create|load|store|format|render|handle|detect|know|count|measure|order|sort|merge|split|encode|decode|register|dispatch|apply|infer|estimate|normalize|serialize";
  const what = new RegExp(`^(?:what|which \\w+) (?:exactly )?(${verbs})(?:s|es)? (.+)$`, "i").exec(s);
  if (what?.[1] && what[2] && said(what[2])) return asked(what[1], what[2]);
  // A verb after an article is a noun ("turn a format string"): not what is asked.
  const how = new RegExp(
    `^how (?:does|do|did|can|will|would) (?:.+? )?(?<!\\b(?:a|an|the|its|this|that) )(${verbs}) (.+)$`,
    "i",
  ).exec(s);
  if (how?.[1] && how[2] && said(how[2])) return asked(how[1], how[2]);
  const passive =
    /^(?:how|where|when) (?:is|are|was|were|does|do) (.+?) (computed|calculated|decided|determined|defined|configured|set|stored|handled|parsed|built|created|chosen|registered|validated|generated|resolved|loaded|formatted|capped|limited|matched|counted|sorted|merged|normalized|serialized|rendered|kept|tracked|cached|applied|inferred|estimated)\b/i.exec(
      s,
    );
  if (passive?.[1] && passive[2]) {
    // "how is it decided whether X": the whether-clause is what is decided.
    const rest = s.slice((passive.index ?? 0) + passive[0].length).trim();
    const object =
      /^(?:it|this|that)$/i.test(passive[1]) && /^(?:whether|which|what|when|how)\b/i.test(rest)
        ? rest
        : passive[1];
    return { verb: passive[2].toLowerCase(), object: clause(object) };
  }
  return null;
}

/**
 * The topic as a sentence can say it: "choose between gzip, deflate or none" is a choice
 * made between all three (the list kept whole), "decide not to descend" is whether to
 * descend, "decide if X" is whether X.
 */
function asked(verb: string, rest: string): { verb: string; object: string } {
  const between = /^(between|among) (.+)$/i.exec(rest);
  if (between?.[1] && between[2]) {
    const list =
      between[2].split(
        /,? (?:given|depending on|based on|for (?:a|an|the|each|every))\b|;|,? (?:and|or) (?:how|what|where|why|which|when)\b/i,
      )[0] ?? between[2];
    return { verb: "made", object: `The choice ${between[1].toLowerCase()} ${list.trim()}` };
  }
  const whether = /^(?:(?:not )?to |if |whether )(.+)$/i.exec(rest);
  if (whether?.[1]) {
    const infinitive = /^(?:not )?to /i.test(rest);
    return { verb: pastParticiple(verb), object: clause(`whether ${infinitive ? "to " : ""}${whether[1]}`) };
  }
  return { verb: pastParticiple(verb), object: clause(rest) };
}

/**
 * Whether the words after the verb name something: "… something it can match against"
 * leaves a preposition or a pronoun where the thing asked about should be.
 */
function said(object: string): boolean {
  const head = clause(object).toLowerCase();
  // A word followed by "of" is a noun ("the max_open limit of open handles"), not the verb.
  if (/^of\b/.test(head)) return false;
  return !/^(?:against|for|with|to|on|in|at|by|from|into|of|about|up|out|it|them|this|that|one)$/.test(head);
}

const IRREGULAR: Record<string, string> = {
  set: "set",
  choose: "chosen",
  find: "found",
  build: "built",
  know: "known",
  format: "formatted",
  split: "split",
};

function pastParticiple(verb: string): string {
  const v = verb.toLowerCase();
  if (IRREGULAR[v]) return IRREGULAR[v];
  if (v.endsWith("e")) return `${v}d`;
  if (/[^aeiou]y$/.test(v)) return `${v.slice(0, -1)}ied`;
  if (/[^aeiou][aeiou][pt]$/.test(v) && v.length <= 4) return `${v}${v.slice(-1)}ed`;
  return `${v}ed`;
}

/** The object of the question cut before a second clause, its first letter capitalised. */
function clause(text: string): string {
  // Code the question quotes (`name: value`) is cut nowhere inside.
  const quoted: string[] = [];
  const masked = text.replace(/`[^`]*`/g, (c) => `\uE000${quoted.push(c) - 1}\uE000`);
  const cut = (
    masked.split(
      /,|;|:(?!:)(?<!::)| (?:and|or) (?:how|what|where|why|which|when)\b| when | if | once | so that /i,
    )[0] ?? masked
  ).replace(/\uE000(\d+)\uE000/g, (_, i: string) => quoted[Number(i)] ?? "");
  const trimmed = cut.trim().replace(/^(?:exactly|actually) /i, "");
  return trimmed.slice(0, 1).toUpperCase() + trimmed.slice(1);
}

/** Whether a noun phrase is plural, by its head ("the backoff time between retries": time). */
export function plural(phrase: string): boolean {
  if (/^(?:whether|which|how|what|when|where|why)\b/i.test(phrase)) return false;
  const head =
    phrase.split(/\s(?:of|for|in|on|to|from|with|between|at|by|per|when|that|which|into|across)\s/i)[0] ??
    phrase;
  return /\b(?:and|or)\b/.test(head) || /[^s]s$/i.test(head.trim());
}

/** Error words, which an answer to a question that asks about no error leaves out of its opening. */
export const ERROR_WORDS =
  /\b(?:errors?|exceptions?|rais(?:e|es|ed|ing)|throws?|fail(?:s|ed|ure)?|panics?)\b/i;

/**
 * How an exploratory answer begins, in the question's terms: "When you call
 * `dayjs.extend(utc)`, it runs …" for "what happens when I call dayjs.extend(utc)?", else
 * "It runs …". A clause that speaks of errors is left out (the answer frames none).
 */
export function whenAsked(question: string, verb: string): string {
  // The clause ends where its sentence does: `?`, `:` or `.` then a new sentence or the end (not
  // Rust's `?` operator, `https://`, `std::io`).
  const m = /\b[Ww]hen\s+(.{3,120}?)\s*(?:[?:;.](?=\s+[A-Z]|\s*$)|$)/.exec(question.trim());
  // Where the flow ends is not when it starts ("when I call get(url) until a handler sends it").
  const whole = m?.[1]?.replace(/,.*$/, "").trim() ?? "";
  const end = flowEndAt(whole);
  const clause = (end > 0 ? whole.slice(0, end) : whole).trim();
  // "When does a value get quoted?" asks when; it names no moment to start from.
  if (!clause || ASKS_WHEN.test(clause) || ERROR_WORDS.test(clause) || !balanced(clause))
    return capitalize(verb);
  const own = clause
    .replace(/\bI\b/g, "you")
    .replace(/\bI'm\b/gi, "you're")
    .replace(/\b(?:my)\b/gi, "your")
    .replace(/\bme\b/gi, "you");
  return `When ${own}, ${verb}`;
}

/** A "when" that opens a question ("when does …", "when is …") rather than a clause. */
const ASKS_WHEN = /^(?:do|does|did|is|are|was|were|will|would|can|could|should|shall|must|has|have|had)\b/i;

/**
 * Where the flow a question asks about ends, when it says so ("… up to my handler calling
 * mux.Vars(r)", "… until I get the ValidationResult back", "down to the reduction"): the
 * index its end clause starts at, or -1. What is named there is where the walk should
 * arrive, not where it starts.
 */
export function flowEndAt(question: string): number {
  return question.search(FLOW_END);
}

const FLOW_END =
  /\b(?:up\s+to|until|till|down\s+to|all\s+the\s+way\s+(?:down\s+)?to|ending\s+(?:at|with|in))\s/i;

/** Whether a clause cut from a question leaves no quote, bracket or backtick open. */
function balanced(text: string): boolean {
  const count = (c: string) => text.split(c).length - 1;
  return (
    count("`") % 2 === 0 &&
    count("'") % 2 === 0 &&
    count('"') % 2 === 0 &&
    count("(") === count(")") &&
    count("[") === count("]") &&
    count("{") === count("}")
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
