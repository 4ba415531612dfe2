/**
 * The conceptual opening: what decides or computes the thing asked about, where, quoting
 * the deciding line(s) ("Whether to follow a redirect is decided in `resolve_redirects`
 * (requests/sessions.py:91-185): `while resp.is_redirect:`"), then the next definition.
 */
import type { AnswerInput, ContextItem } from "./contract.ts";
import { cite, code, escapeInline, firstSentence, isAuxiliary } from "./evidence-reading.ts";
import { citeLead, isTestSymbol, quote, rankedLeads } from "./lead-definition.ts";
import { askedTopic, ERROR_WORDS, plural } from "./question-clauses.ts";

export function conceptualOpening(input: AnswerInput, symbols: ContextItem[]): string {
  const leads = rankedLeads(input, symbols);
  const lead = leads[0];
  if (!lead?.item.facts) return "";
  const { item, lines } = lead;
  const where = `${code(item.facts?.qualifiedName ?? item.title)} (${citeLead(item, lines)})`;
  const asked = askedTopic(input.question);
  // The question's words come back in prose: a name it wrote bare (`__init__`) stays literal.
  const topic = asked && { ...asked, object: escapeInline(asked.object) };
  const said = item.facts?.docstring ? firstSentence(item.facts.docstring) : "";
  // A docstring about the errors a function raises frames an error the question never asked about.
  const docstring =
    ERROR_WORDS.test(said.replace(/`[^`]*`/g, "")) && !ERROR_WORDS.test(input.question) ? "" : said;
  const doc = docstring && !/[.!?]$/.test(docstring) ? `${docstring}.` : docstring;
  const sentences: string[] = [];
  if (topic) {
    sentences.push(
      `${topic.object} ${plural(topic.object) ? "are" : "is"} ${topic.verb} in ${where}${lines.length ? `: ${quote(lines)}` : doc ? `: ${doc}` : ""}.`,
    );
  } else if (lines.length) {
    sentences.push(`${where} is where this happens: ${quote(lines)}.`);
  } else {
    sentences.push(`The main definition for this is ${where}${doc ? `: ${doc}` : "."}`);
  }
  if (topic && lines.length && doc) sentences.push(doc);
  // The definition next in line by what its body answers, when it is a different function of
  // the code; else the next one retrieved.
  // The same method of another class (an override of the lead) says nothing new.
  const member = (s: ContextItem) => s.facts?.qualifiedName.split(".").at(-1);
  const differs = (s: ContextItem) =>
    s !== item &&
    !!s.facts &&
    s.facts.qualifiedName !== item.facts?.qualifiedName &&
    member(s) !== member(item);
  // A runner-up that shares no word with the question (a helper valued for a condition of
  // its own) gives way to one that speaks of what is asked.
  const runnersUp = leads.slice(1).filter((l) => differs(l.item));
  const other =
    (runnersUp.find((l) => l.onTopic) ?? runnersUp[0])?.item ??
    symbols.find((s) => differs(s) && !isAuxiliary(s.path ?? "") && !isTestSymbol(s));
  // What decides is often a pair of functions (the loop checking an option and the predicate
  // it calls, the parser and the state it switches on): a third definition that speaks of
  // what is asked and holds a deciding line of its own is named beside the runner-up.
  const third = runnersUp.find(
    (l) =>
      l.item !== other && l.onTopic && l.lines.length > 0 && (!other || member(l.item) !== member(other)),
  )?.item;
  const named = [other, third].flatMap((s) =>
    s?.facts ? [`${code(s.facts.qualifiedName)} (${cite(s)})`] : [],
  );
  if (named.length) sentences.push(`Related: ${named.join(", ")}.`);
  return sentences.map((x) => x.replace(/\.\.$/, ".")).join(" ");
}
