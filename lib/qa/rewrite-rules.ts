// Offline follow-up rewriting. Retrieval needs a question that stands on its own, but in a
// conversation people write "who calls it?" or "what about load_env?". These rules splice
// the previous turn's subjects (the code names and paths it was about) into such follow-ups
// and leave self-contained questions untouched. They run when no model is configured and
// whenever the model rewrite fails.

import { extractAnchors } from "../search/anchors";
import { isPathLike } from "../search/written-paths.ts";

export interface PriorTurn {
  question: string;
  /** Identifiers and paths the turn was about, most important first. */
  subjects: string[];
}

export interface RewriteResult {
  standalone: string;
  rewritten: boolean;
}

const MAX_SUBJECTS = 3;
// A follow-up leaning on the conversation is short; long text is a question of its own.
const MAX_FOLLOW_UP_CHARS = 400;

const REFERENCE_NOUNS =
  "functions?|methods?|class(?:es)?|files?|modules?|components?|helpers?|symbols?|ones?|code|endpoints?|types?|interfaces?|hooks?|variables?|constants?|structs?|packages?|routes?|handlers?";
const DEICTIC = new RegExp(`\\b(this|that|these|those|the same|said)\\s+(${REFERENCE_NOUNS})\\b`, "gi");
const PRONOUN = /\b(it's|its|it|they|them|their)\b/gi;

// "it" that refers to nothing: "is it possible", "it seems", "what does it mean".
const DUMMY_IT =
  /\b(?:is it (?:possible|necessary|safe|ok|okay|normal|expected|true|worth|better|recommended)|it (?:seems|looks like|depends|appears)|what does it mean|does it matter|it is (?:possible|necessary|worth|better|recommended|safe)|make it (?:so|possible))\b/i;
const BARE_DEMONSTRATIVE =
  /\b(?:this|that|these|those)(?=\s*[?.!,]|\s*$|\s+(?:is|was|does|do|did|happen|happens|work|works|mean|means)\b)/i;
const CONTINUATION =
  /^(?:and|also|so|then|but|ok(?:ay)?|same for|how come|why(?: not)?|where|who|when|any|(?:what|how) about)\b/i;
const WHAT_ABOUT = /^(?:(?:and|but|ok(?:ay)?|so),?\s+)?(?:what|how) about\s+(.+?)\s*\??$/i;
const DANGLING_VERB =
  /\b(calls|uses|imports|raises|throws|returns|modifies|overrides|implements|extends|references|invokes)(\s*\?*\s*)$/i;
// "this"/"that" as the subject or object of a code verb stands for the code itself.
const DEMONSTRATIVE_CODE =
  /\b(?:this|that)(?=\s+(?:returns?|calls?|raises?|throws?|do|does|handles?|accepts?|takes?|uses?)\b)/gi;

/** Rewrites a follow-up into a standalone question using the previous turns' subjects. */
export function rewriteFollowUp(question: string, history: readonly PriorTurn[]): RewriteResult {
  const unchanged: RewriteResult = { standalone: question, rewritten: false };
  const trimmed = question.trim();
  const previous = latestSubjects(history);
  if (trimmed === "" || trimmed.length > MAX_FOLLOW_UP_CHARS || !previous) return unchanged;
  const { subjects, turn } = previous;
  const own = ownAnchors(trimmed);

  const replaced = replaceReferences(trimmed, subjects, own);
  if (replaced !== trimmed) return { standalone: replaced, rewritten: true };

  const about = WHAT_ABOUT.exec(trimmed);
  if (about?.[1] && own.names.length > 0) {
    const swapped = swapSubject(turn.question, subjects, about[1]);
    if (swapped) return { standalone: swapped, rewritten: true };
  }

  const dangling = DANGLING_VERB.exec(trimmed);
  if (dangling && own.names.length === 0) {
    const at = dangling.index + (dangling[1]?.length ?? 0);
    const standalone = `${trimmed.slice(0, at)} ${phrase(subjects, true)}${trimmed.slice(at).trim() || "?"}`;
    return { standalone, rewritten: true };
  }

  if (own.names.length === 0 && isFollowUpShaped(trimmed)) {
    return { standalone: `${trimmed} (about ${phrase(subjects, true)})`, rewritten: true };
  }
  return unchanged;
}

function latestSubjects(history: readonly PriorTurn[]): { subjects: string[]; turn: PriorTurn } | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const turn = history[i];
    if (!turn) continue;
    const given = turn.subjects.filter((s) => s.trim() !== "");
    const subjects = given.length > 0 ? given : derivedSubjects(turn.question);
    if (subjects.length > 0) return { subjects: subjects.slice(0, MAX_SUBJECTS), turn };
  }
  return null;
}

function derivedSubjects(question: string): string[] {
  const anchors = extractAnchors(question);
  return [...anchors.identifiers.slice(0, 2), ...anchors.paths.slice(0, 1)];
}

interface OwnAnchors {
  names: string[];
  /** Offset of the first code name or path in the question, or Infinity. */
  firstAt: number;
}

function ownAnchors(question: string): OwnAnchors {
  const anchors = extractAnchors(question);
  const names = [...anchors.identifiers, ...anchors.paths];
  const positions = names.map((n) => question.indexOf(n)).filter((i) => i >= 0);
  return { names, firstAt: positions.length > 0 ? Math.min(...positions) : Infinity };
}

// Pronouns after the question's own code name most likely refer to that name ("How does
// parse_config handle it…"), so only references that come first are replaced.
function replaceReferences(question: string, subjects: string[], own: OwnAnchors): string {
  let out = question.replace(DEICTIC, (match, _det: string, noun: string, offset: number) => {
    if (offset > own.firstAt) return match;
    return pickSubject(subjects, noun);
  });
  out = out.replace(DEMONSTRATIVE_CODE, (match: string, offset: number) =>
    offset > own.firstAt ? match : phrase(subjects, false),
  );
  if (DUMMY_IT.test(out)) return out;
  out = out.replace(PRONOUN, (match: string, _p: string, offset: number) => {
    if (offset > own.firstAt) return match;
    const word = match.toLowerCase();
    if (word === "its") return `${phrase(subjects, false)}'s`;
    if (word === "it's") return `${phrase(subjects, false)} is`;
    if (word === "it") return phrase(subjects, false);
    if (word === "their") return `${phrase(subjects, true)}'s`;
    return phrase(subjects, true);
  });
  return out;
}

// "this file" prefers a path subject; plural nouns take every subject.
function pickSubject(subjects: string[], noun: string): string {
  const lower = noun.toLowerCase();
  if (/^(?:files?|modules?|packages?)$/.test(lower)) {
    const path = subjects.find(isPathSubject);
    if (path) return path;
  }
  return phrase(subjects, /(?:s|es)$/.test(lower) && lower !== "class");
}

// Plural references mean the code names; a path joins them only when it is all there is.
function phrase(subjects: string[], plural: boolean): string {
  const code = subjects.filter((s) => !isPathSubject(s));
  const pool = plural && code.length > 0 ? code : subjects;
  const names = plural ? pool : pool.slice(0, 1);
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

// "What does parse_config do?" + "what about load_env?" → "What does load_env do?"
function swapSubject(previousQuestion: string, subjects: string[], replacement: string): string | null {
  const subject = subjects.find((s) => previousQuestion.includes(s));
  if (!subject) return null;
  return previousQuestion.split(subject).join(replacement);
}

function isFollowUpShaped(question: string): boolean {
  const words = question.split(/\s+/).filter(Boolean);
  if (words.length <= 3) return true;
  if (words.length <= 6 && CONTINUATION.test(question)) return true;
  return BARE_DEMONSTRATIVE.test(question) && words.length <= 8;
}

function isPathSubject(subject: string): boolean {
  return subject.includes("/") || isPathLike(subject);
}
