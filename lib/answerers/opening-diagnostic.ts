/**
 * The diagnostic opening: where the error is raised or handled and under which condition;
 * a message built apart from its raise is found where it is written, with the helper that
 * raises it; a symptom with no quoted error gets the code behind it, never "no raise site
 * matches"; then where the site is called from (a pasted trace's frames first).
 */
import type { AnswerInput, ContextItem } from "./contract.ts";
import { bodyStatements } from "./body-shape.ts";
import {
  cite,
  code,
  conditionOf,
  errorSites,
  escapeInline,
  isAuxiliary,
  isAuxiliaryCaller,
  joinWords,
  raisedMessage,
  uniqueBy,
  type ErrorSite,
} from "./evidence-reading.ts";
import { citeLead, leadDefinition, quote, TYPE_KINDS } from "./lead-definition.ts";
import { decidingCaller, type DecidingCaller } from "./opening-diagnostic-callers.ts";
import {
  detailsWritten,
  messageWritten,
  traceCallers,
  writtenAt,
  type WrittenMessage,
} from "./written-messages.ts";

/** A line of pasted code that raises, throws or stops with an error status. */
const FAILING_LINE =
  /\b(?:raise|throw|throws|halt|abort|panic!?|fail|error|reject|exit)\b|\b[45]\d\d\b|\breturn\s+(?:err|error|nil,\s*err)\b/i;

/**
 * The opening a diagnostic answer takes from code the user pasted for one of its gaps
 * (marked unverified): the line of it that fails, or its first line.
 */
function providedExcerptOpening(input: AnswerInput): string {
  const excerpt = input.context.find((i) => i.origin === "user" && !i.path && i.text.trim());
  if (!excerpt) return "";
  const lines = excerpt.text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const line = lines.find((l) => FAILING_LINE.test(l)) ?? lines[0] ?? "";
  const gap = /^Excerpt for (.+?) \(/.exec(excerpt.title)?.[1];
  return `By the code you provided${gap ? ` for ${code(gap)}` : ""} (not verified), this comes from ${quote([{ text: line, score: 0, at: 0 }])}.`;
}

export function diagnosticOpening(
  input: AnswerInput,
  symbols: ContextItem[],
  byName: Map<string, ContextItem>,
): string {
  const sites = errorSites(input);
  const quotesError = input.anchors.exceptionTypes.length > 0 || input.anchors.messages.length > 0;
  // The site the body lists first, when it matches what the question quotes or names.
  const site = sites[0]?.matched ? sites[0] : undefined;
  // A quoted message no site reports as written is built apart from its raise: a format
  // string handed to a checking helper, a constant, an f-string assigned first.
  const written = sites.some((x) => x.message) ? null : messageWritten(input);
  if (written && written.item !== site?.s) return writtenOpening(written, site, input, symbols, byName);
  if (!site) {
    // What the user pasted for a gap answers before anything the index only comes close to.
    const provided = providedExcerptOpening(input);
    if (provided) return provided;
    // A symptom without a quoted error: the code behind it, with the lines that decide it.
    const lead = leadDefinition(input, symptomLeads(symbols));
    if (!lead?.item.facts) return "";
    const where = `${code(lead.item.facts.qualifiedName)} (${citeLead(lead.item, lead.lines)})`;
    const reached = reachedFrom(decidingCaller(lead.item, symbols));
    // An unmatched site is the closest only when it ranks with the code the answer leads with.
    const closest = sites[0] && leading(symbols).slice(0, 3).includes(sites[0].s) ? sites[0] : undefined;
    if (quotesError)
      return closest
        ? `No raise site in the index matches this error exactly; the closest is ${code(closest.f.qualifiedName)} (${cite(closest.s)}), which raises ${closest.f.raises.map(code).join(", ") || "an error"}${lead.item !== closest.s ? `; the code the question names leads to ${where}` : ""}.${reached}`
        : `No raise site in the index matches this error exactly; the closest code is ${where}${lead.lines.length ? `: ${quote(lead.lines)}` : "."}`.replace(
            /\.\.$/,
            ".",
          ) + reached;
    return `The behaviour comes from ${where}${lead.lines.length ? `, where ${quote(lead.lines)}` : ""}.${reached}`;
  }
  const said = input.anchors.messages.join(" ") || input.question;
  const sentences = [`${raisedAt(site, said)}.`];
  // An outer error the question names first leads; the cause it reports (the site whose
  // message the question quotes) follows, as the body lists them.
  const cause = sites[1];
  if (cause?.message && !site.message && cause.raised !== site.raised) {
    // The raised type's own constructor building the message is no cause: it words the error.
    const builds = !!site.raised && cause.f.qualifiedName.startsWith(`${site.raised}.`);
    sentences[0] = builds
      ? `${raisedAt(site, said)}; its message "${escapeInline(cause.message)}" is built by ${code(cause.f.qualifiedName)} (${cite(cause.s)}).`
      : `${raisedAt(site, said)}; the cause it reports: ${raisedAt(cause, said)}.`;
  }
  // The detail the message wraps, and what that detail wraps when it is a template too.
  const [detail, inner] = site.message ? detailsWritten(site.message, input) : [];
  if (detail && detail.item !== site.s) {
    sentences.push(`The detail it carries ${writtenAt(detail)}.`);
    if (inner && inner.item !== detail.item) sentences.push(`Inside it, ${writtenAt(inner)}.`);
  }
  const from = calledFrom(site.f.qualifiedName, input, symbols, byName);
  if (from) sentences.push(from);
  return sentences.join(" ");
}

/**
 * "The message "…" is written in `f` (path:a-b) when `cond`": where a quoted message is
 * built, the helper that raises it when one does, then where it is called from.
 */
function writtenOpening(
  written: WrittenMessage,
  site: ErrorSite | undefined,
  input: AnswerInput,
  symbols: ContextItem[],
  byName: Map<string, ContextItem>,
): string {
  const { item } = written;
  const name = item.facts?.qualifiedName;
  const sentences = [`The message ${writtenAt(written)}.`];
  const helper = site && shortName(site.f.qualifiedName);
  if (site?.raised && helper && item.text.includes(`${helper}(`))
    sentences.push(
      `It is raised as ${code(site.raised)} by ${code(site.f.qualifiedName)} (${cite(site.s)}).`,
    );
  const from = name ? calledFrom(name, input, symbols, byName) : "";
  if (from) sentences.push(from);
  return sentences.join(" ");
}

function shortName(qualifiedName: string): string {
  return qualifiedName.split(".").pop() ?? qualifiedName;
}

/**
 * "It is called from …": the callers a pasted stack trace shows, in its order (the frame
 * after the site's, then the next), or else the call graph's, each cited.
 */
function calledFrom(
  name: string,
  input: AnswerInput,
  symbols: ContextItem[],
  byName: Map<string, ContextItem>,
): string {
  const site = symbols.find((s) => s.facts?.qualifiedName === name);
  const traced = site ? traceCallers(site, input, symbols) : [];
  if (traced.length)
    return `It is called from ${traced
      .map((s) => `${code(s.facts?.qualifiedName ?? s.title)} (${cite(s)})`)
      .join(", itself called from ")}.`;
  // A caller among the answer's code whose condition guards the call says when it happens.
  const deciding = site ? decidingCaller(site, symbols) : null;
  if (deciding?.condition) return reachedFrom(deciding).trim();
  const callers = uniqueBy(
    input.graph.triples.filter(
      (t) =>
        t.subject === name && t.relation === "called_by" && !isAuxiliaryCaller(t.objectPath ?? "", t.object),
    ),
    (t) => t.object,
  ).slice(0, 2);
  if (callers.length === 0) return "";
  const named = callers.map((t) => {
    const item = byName.get(t.object);
    const at = item
      ? cite(item)
      : t.objectPath && t.objectLines
        ? `${t.objectPath}:${t.objectLines[0]}-${t.objectLines[1]}`
        : "";
    return `${code(t.object)}${at ? ` (${at})` : ""}`;
  });
  return `It is called from ${joinWords(named)}.`;
}

/**
 * " It is reached from `caller` (path:a-b) when `cond`.": the caller among the answer's
 * code under whose condition the lead runs (see opening-diagnostic-callers.ts), or "".
 */
function reachedFrom(caller: DecidingCaller | null): string {
  if (!caller?.item.facts) return "";
  const when = caller.condition ? ` when ${code(caller.condition)}` : "";
  return ` It is reached from ${code(caller.item.facts.qualifiedName)} (${cite(caller.item)})${when}.`;
}

/** The definitions of the code, in the answer's order (tests, docs and examples aside). */
function leading(symbols: ContextItem[]): ContextItem[] {
  return symbols.filter((s) => s.facts && !isAuxiliary(s.path ?? ""));
}

/**
 * The definitions a symptom is explained by, those that decide nothing last: a setter
 * or registration that only stores what it is given (`r.strictSlash = value`), a type
 * or interface that only declares, a class declared in a header.
 */
function symptomLeads(symbols: ContextItem[]): ContextItem[] {
  const mute = (s: ContextItem) => storesOnly(s) || declaresOnly(s);
  return [...symbols.filter((s) => !mute(s)), ...symbols.filter(mute)];
}

/** A field assignment (`r.x = v`, `this.x = append(this.x, fn)`, `@x = v`, `$this->x = $v`). */
const STORE = /^(?:[\w$]+(?:\.|->)[\w.$>-]+|@\w+)\s*(?:=|\+=|\|=)(?!=)/;

/** A loop over what a setter is given, storing each (`for _, fn := range mwf {`, `for (const h of hooks) {`). */
const STORE_LOOP = /^for\b[^;]*\b(?:range|of|in)\b[^;]*\{?$/;

/** A body that only stores fields and hands back its receiver. */
export function storesOnly(item: Pick<ContextItem, "text" | "facts">): boolean {
  if (TYPE_KINDS.has(item.facts?.kind ?? "")) return false;
  // Its statements: not its doc comment, signature or braces.
  const body = bodyStatements(item.text.split("\n"));
  return (
    body.some((l) => STORE.test(l)) &&
    body.every(
      (l) => STORE.test(l) || STORE_LOOP.test(l) || /^return\s+[\w$]+;?$/.test(l) || /^self$/.test(l),
    )
  );
}

/** A type, interface or trait, or a class declared in a header: declarations, no code that runs. */
function declaresOnly(item: ContextItem): boolean {
  const kind = item.facts?.kind ?? "";
  if (kind === "interface" || kind === "type" || kind === "trait") return true;
  return kind === "class" && /\.(?:h|hh|hpp|hxx)$/.test(item.path ?? "");
}

/**
 * "`Type("message")` is raised by `site` (path:a-b) when `condition`" — what a site raises,
 * where and when. A site raising its type on several lines is quoted by the line whose
 * message comes closest to what the question `said`, and its condition is that line's.
 */
function raisedAt(site: ErrorSite, said: string): string {
  // The message raised with the type, read from the raise line when the question did not quote it.
  const message = site.message ?? (site.raised ? raisedMessage(site.s.text, site.raised, said) : null);
  const what = site.raised
    ? `${code(`${site.raised}(${message ? JSON.stringify(message) : "…"})`)} is raised`
    : `The message "${escapeInline(message ?? site.f.errorStrings[0] ?? "")}" is reported`;
  const condition = siteCondition(site, message);
  return `${what} by ${code(site.f.qualifiedName)} (${cite(site.s)})${condition ? ` ${condition}` : ""}`;
}

/** A line that raises, throws or panics. */
const RAISE_LINE = /\b(?:raise|throw|fail|panic!?)\b/;
/** A raise guarded on its own line (`raise MISSING_ADAPTER_ERROR unless @adapter`). */
const RAISE_MODIFIER = /\b(?:raise|fail)\b.*?\s(if|unless)\s+(.+?);?$/;
/** A raise of a conditional (`raise cond ? A.new(…) : e`, `throw cond ? new A() : e`): the condition and its first branch. */
const RAISE_BRANCH = /\b(?:raise|throw|fail)\s+(.+?)\s\?\s(.+?)\s:\s/;

/**
 * "when `cond`" / "unless `cond`": the condition around the line that raises the message,
 * else around the site's one raise line (a message held in a constant is not on it), or
 * the guard written after that raise.
 */
function siteCondition(site: ErrorSite, message: string | null): string | null {
  const text = site.s.text;
  const direct = (message ? conditionOf(text, message) : null) ?? conditionOf(text, site.raised ?? "");
  if (direct) return `when ${code(direct)}`;
  // A message a log call reports is not under the condition of the site's raise.
  if (!site.raised) return null;
  const raises = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => RAISE_LINE.test(l));
  const line = raises.length === 1 ? raises[0] : undefined;
  if (!line) return null;
  const guard = RAISE_MODIFIER.exec(line);
  if (guard?.[2]) return `${guard[1] === "unless" ? "unless" : "when"} ${code(guard[2])}`;
  // `raise options[:foul] ? NetworkError.new(…) : e`: which branch raises the error is the condition.
  const branch = RAISE_BRANCH.exec(line);
  if (branch?.[1] && branch[2] && site.raised) {
    const wraps = branch[2].includes(site.raised);
    return `${wraps ? "when" : "unless"} ${code(branch[1])}`;
  }
  const around = conditionOf(text, line);
  return around ? `when ${code(around)}` : null;
}

// ------------------------------------------------------------------ exploratory
