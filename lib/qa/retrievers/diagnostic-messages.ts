/**
 * Diagnostic retrieval's message step: the error messages a report quotes, found at the
 * places that write them — as recorded error strings, as templates whose placeholders the
 * report filled in, and as phrases in code. A message is often written in pieces: a
 * family of templates sharing their wording (`"String value length (%d) exceeds the
 * maximum allowed"`, `"Name length (%d) exceeds …"`) of which only one produced it, and
 * a wrapper whose placeholder holds another place's message (`fmt.Errorf("load config:
 * %w", err)`, `sprintf('Failed to parse dotenv file. %s', $error)`). Each piece is
 * looked up where it is written.
 */
import "server-only";
import { searchChunks, symbolsWithErrorString, type SymbolRecord } from "../../db/code-graph.ts";
import { ftsMatchExpression } from "../../db/tokenize.ts";
import { matchMessage, messageWords, recallsMessage, templatePieces } from "../../search/message-text.ts";
import {
  chunkCandidate,
  symbolCandidate,
  type Candidate,
  type RetrievalInput,
  type SignalList,
} from "./shared.ts";

/** How deep a message's placeholders are followed into the messages they hold. */
const NESTING = 2;

/** 2. Quoted error messages: at their raise sites, as templates, and as phrases in code. */
export async function messageSignals(input: RetrievalInput): Promise<SignalList[]> {
  const { generationId, anchors } = input;
  const messageCandidates: Candidate[] = [];
  let templated: SymbolRecord[] | null = null;
  const templates = async () => (templated ??= await templatedSymbols(generationId));
  for (const message of anchors.messages.slice(0, 6)) {
    for (const fragment of messageFragments(message)) {
      const found = await symbolsWithErrorString(generationId, fragment, 10);
      for (const s of producers(found, message))
        messageCandidates.push(symbolCandidate(s, `emits the error "${truncate(fragment, 60)}"`));
      if (found.length) break;
    }
  }
  // 2a. Messages made from a template (`"Cannot index %s with %s"`, `f"no order {id}"`,
  // `"Failed to emit {Event}"`): the stored template, placeholders as wildcards, against
  // the message; what a placeholder held may be another place's message, looked up in turn.
  const innerCandidates: Candidate[] = [];
  if (messageCandidates.length === 0 && anchors.messages.length > 0) {
    let messages = anchors.messages.slice(0, 6);
    for (let depth = 0; depth < NESTING && messages.length; depth++) {
      const matched = templateMatches(await templates(), messages);
      const list = depth === 0 ? messageCandidates : innerCandidates;
      for (const m of matched)
        list.push(symbolCandidate(m.symbol, `emits an error made from "${truncate(m.template, 60)}"`));
      const inner = [...new Set(matched.flatMap((m) => m.filled))];
      innerCandidates.push(...(await innerMessageSites(input, inner)));
      messages = inner;
    }
  }

  // 2d. A message written back without the code's quotes and brackets, or partly from
  // memory: the error strings holding its longest words, kept when they write it word for
  // word or share a long run of its words.
  if (messageCandidates.length === 0)
    for (const message of anchors.messages.slice(0, 4))
      for (const { symbol, literal } of await writtenByWords(generationId, message))
        messageCandidates.push(symbolCandidate(symbol, `emits the error "${truncate(literal, 60)}"`));

  // 2e. No message quoted: one written into the question's own sentence, without quotes
  // ("adding a route fails with number of opening and closing brackets differs").
  if (anchors.messages.length === 0)
    for (const { symbol, literal } of await writtenByWords(generationId, input.question))
      messageCandidates.push(symbolCandidate(symbol, `emits the error "${truncate(literal, 60)}"`));

  // 2b. The message's words as a phrase in code: messages built in a variable, logged or
  // formatted elsewhere (`err = f"Could not interpret value {v}"; raise ValueError(err)`)
  // are not recorded as error strings, but their text is in the code.
  const phraseCandidates: Candidate[] = [];
  for (const message of anchors.messages.slice(0, 4)) {
    for (const phrase of messagePhrases(message)) {
      const match = ftsMatchExpression([phrase]);
      if (!match) continue;
      const hits = await searchChunks(generationId, match, { kinds: ["code", "file"], limit: 8 });
      for (const h of hits) phraseCandidates.push(chunkCandidate(h, `contains "${truncate(phrase, 60)}"`));
      if (hits.length) break;
    }
  }
  // 2c. The headings of the report's layout (`Caused by:`): the formatter printing them decides it.
  const layoutCandidates: Candidate[] = [];
  for (const heading of reportHeadings(input.question, anchors.messages)) {
    const found = await symbolsWithErrorString(generationId, heading, 6);
    if (found.length > 5) continue;
    for (const s of found) layoutCandidates.push(symbolCandidate(s, `prints the report's "${heading}"`));
  }
  // Words quoted verbatim that occur in few places are near-certain evidence; common ones less so.
  const phraseFiles = new Set(phraseCandidates.map((c) => c.chunk?.path)).size;
  return [
    { name: "messages", weight: 4, candidates: messageCandidates },
    // The place writing the inner part of a composed message decides it: the wrapper only passes it on.
    { name: "inner-messages", weight: 4, candidates: innerCandidates },
    { name: "layout", weight: 3, candidates: layoutCandidates },
    {
      name: "message-text",
      weight: phraseFiles === 0 ? 0 : Math.max(2, 6 / Math.max(1, phraseFiles / 2)),
      candidates: phraseCandidates,
    },
  ];
}

/**
 * A heading a report's layout prints on a line of its own, two words or more, perhaps
 * framed (`Caused by:`, `Stack backtrace:`, `*** Check failure stack trace: ***`).
 */
const HEADING = /^[ \t]*(?:[*=#-]+[ \t]*)?([A-Z][A-Za-z]+(?: [a-z]+){1,4}:)[ \t]*(?:[*=#-]+)?[ \t]*$/gm;

/**
 * The headings of a quoted report: lines naming a part of its layout, after its first
 * quoted message when it quotes one.
 */
export function reportHeadings(question: string, messages: string[]): string[] {
  const starts = messages.map((m) => question.indexOf(m)).filter((i) => i >= 0);
  const after = question.slice(starts.length ? Math.min(...starts) : 0);
  return [...new Set([...after.matchAll(HEADING)].map((m) => m[1] ?? ""))].filter(Boolean).slice(0, 3);
}

async function templatedSymbols(generationId: string): Promise<SymbolRecord[]> {
  return [
    ...(await symbolsWithErrorString(generationId, "%", 400)),
    ...(await symbolsWithErrorString(generationId, "{", 400)),
  ];
}

/** Words of a message looked up to find the error strings it was written from. */
const LOOKUP_WORDS = 3;

/** The symbols whose error strings hold a message's words (see `recallsMessage`), with the string. */
async function writtenByWords(
  generationId: string,
  message: string,
): Promise<{ symbol: SymbolRecord; literal: string }[]> {
  const words = [...new Set(messageWords(message).filter((w) => w.length >= 5 && !/\d/.test(w)))]
    .sort((a, b) => b.length - a.length)
    .slice(0, LOOKUP_WORDS);
  const found = new Map<string, SymbolRecord>();
  for (const word of words)
    for (const s of await symbolsWithErrorString(generationId, word, 60)) found.set(s.qualifiedId, s);
  return [...found.values()].flatMap((symbol) => {
    const literal = (JSON.parse(symbol.errorStrings) as string[]).find((e) => recallsMessage(e, message));
    return literal ? [{ symbol, literal }] : [];
  });
}

/** A symbol writing a template that produces one of the messages, and what its placeholders held. */
export interface TemplateMatch {
  symbol: SymbolRecord;
  template: string;
  /** the text each placeholder stood for, where it reads like a message of its own */
  filled: string[];
}

/** The symbols whose stored templates produce one of the messages, each once. */
export function templateMatches(
  symbols: Pick<SymbolRecord, "qualifiedId" | "errorStrings">[],
  messages: string[],
): TemplateMatch[] {
  const out: TemplateMatch[] = [];
  const seen = new Set<string>();
  for (const s of symbols) {
    if (seen.has(s.qualifiedId)) continue;
    for (const template of JSON.parse(s.errorStrings) as string[]) {
      const held = isTemplate(template)
        ? messages.map((m) => matchMessage(template, m, TEMPLATE_LETTERS)).find((m) => m !== null)
        : undefined;
      if (!held) continue;
      seen.add(s.qualifiedId);
      out.push({ symbol: s as SymbolRecord, template, filled: held.flatMap(innerMessage) });
      break;
    }
  }
  return out;
}

/** What a placeholder held, when it reads as a message (two words or more), not a value. */
function innerMessage(text: string | undefined): string[] {
  const t = (text ?? "").trim();
  return t.length >= 8 && t.split(/\s+/).filter((w) => /[A-Za-z]{2}/.test(w)).length >= 2 ? [t] : [];
}

/**
 * The places writing a message a wrapper's placeholder held: a recorded error string, else
 * code holding a string literal that wrote part of it (an error value, a result's failure
 * or a message builder's template: `Error::create('unexpected whitespace')`,
 * `sprintf('Encountered %s at [%s].', …)`), found by the message's words.
 */
async function innerMessageSites(input: RetrievalInput, messages: string[]): Promise<Candidate[]> {
  const out: Candidate[] = [];
  for (const message of messages.slice(0, 4)) {
    const found = await symbolsWithErrorString(input.generationId, message, 5);
    for (const s of found) out.push(symbolCandidate(s, `emits the error "${truncate(message, 60)}"`));
    if (found.length) continue;
    const match = ftsMatchExpression(message.match(/[A-Za-z]{3,}/g) ?? []);
    if (!match) continue;
    const hits = await searchChunks(input.generationId, match, { kinds: ["code"], limit: 30 });
    for (const h of hits) {
      const piece = writtenPiece(h.text, message);
      if (piece) out.push(chunkCandidate(h, `writes "${truncate(piece, 60)}" of the message`));
    }
  }
  return out;
}

/** A string literal of the code (two words or more) that wrote part of the message, if any. */
export function writtenPiece(code: string, message: string): string | null {
  const lower = message.toLowerCase();
  for (const m of code.matchAll(/"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`([^`]*)`/g)) {
    const literal = (m[1] ?? m[2] ?? m[3] ?? "").trim();
    if (innerMessage(literal).length === 0) continue;
    if (lower.includes(literal.toLowerCase()) || producesMessage(literal, message)) return literal;
  }
  return null;
}

/**
 * The symbols found by a fixed piece of a message that can have written it: when some of
 * them hold a template producing the whole message, those only — a family of templates
 * sharing their wording (`"… exceeds the maximum allowed"`) has one member that wrote it.
 */
export function producers<T extends Pick<SymbolRecord, "errorStrings">>(found: T[], message: string): T[] {
  const produces = (s: T) =>
    (JSON.parse(s.errorStrings) as string[]).some((t) => producesMessage(t, message));
  const exact = found.filter(produces);
  return exact.length ? exact : found;
}

/** Literal letters a template needs to tell the message it makes from others'. */
const TEMPLATE_LETTERS = 10;

function isTemplate(text: string): boolean {
  return templatePieces(text).length > 1;
}

/**
 * Whether a template error string makes the message: its words in order, whatever
 * punctuation the report put between them, its placeholders standing for the values
 * (see lib/search/message-text.ts); never for a plain literal or too little literal text.
 */
export function producesMessage(template: string, message: string): boolean {
  return isTemplate(template) && matchMessage(template, message, TEMPLATE_LETTERS) !== null;
}

/** The literal stretches of a message of three words or more, longest first (placeholders, quoted values and numbers cut it). */
function messagePhrases(message: string): string[] {
  return message
    .split(/\{[^}]*\}|%[sdr]|'[^']*'|"[^"]*"|`[^`]*`|\d+|[:;()[\]]|[.?!](?:\s|$)/)
    .map((p) => p.replace(/\s+/g, " ").trim())
    .filter((p) => p.split(" ").filter((w) => /[A-Za-z]{2}/.test(w)).length >= 3)
    .sort((a, b) => b.length - a.length)
    .slice(0, 2);
}

/** Long messages are searched by their most distinctive literal pieces. */
function messageFragments(message: string): string[] {
  const cleaned = message.replace(/\s+/g, " ").trim();
  const pieces = cleaned
    .split(/\{[^}]*\}|%[sdr]|'[^']*'|"[^"]*"|`[^`]*`|\d+/)
    .map((p) => p.trim())
    .filter((p) => p.length >= 12);
  return [cleaned.slice(0, 80), ...pieces.sort((a, b) => b.length - a.length).slice(0, 2)].filter(
    (f) => f.length >= 8,
  );
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
