/**
 * What in a question is an error, a log line or a symptom (the classifier's diagnostic
 * rule reads it: a question with none of these is not diagnostic on failure words alone).
 */
import { INLINE_LEVEL_MESSAGE } from "../search/anchors.ts";
import { clip, matchedSignals, type Prepared } from "./classify-rules.ts";

/**
 * What in a question is an error, a log line or a symptom: an exception type, a stack
 * trace, an error printed with its message, a quoted error, a log line at an error level,
 * or a symptom ("crashes", "fails with", "returns 500", "after upgrading", expected versus
 * actual). A failure word alone ("a failed job", "the error handler") is none of these:
 * "how does X decide when a failed job is retried" asks how the code works.
 */
export function diagnosticEvidence(q: Prepared): Evidence[] {
  const out: Evidence[] = [];
  const add = (id: string, text: string) => {
    if (!out.some((e) => e.id === id)) out.push({ id, text });
  };
  if (q.exceptionTypes[0]) add("exception", `an exception type (${q.exceptionTypes[0]})`);
  if (
    q.frameCount > 0 ||
    /Traceback \(most recent call last\)|\bpanicked at\b|^goroutine \d+ \[/m.test(q.raw)
  )
    add("trace", "a stack trace");
  const logLine = LOG_LINE.exec(q.raw)?.[0];
  if (logLine) add("log", `a log line (${clip(logLine.trim())})`);
  const printed =
    PRINTED_ERROR.exec(q.raw)?.[0] ??
    NAMED_ERROR.exec(q.raw)?.[0] ??
    q.raw
      .split("\n")
      .map((line) => INLINE_LEVEL_MESSAGE.exec(line)?.[0])
      .find(Boolean);
  if (printed) add("printed", `an error as printed (${clip(printed.trim())})`);
  const thrown = THROWN.exec(q.raw)?.[0];
  if (thrown) add("thrown", `an error thrown (${clip(thrown.trim())})`);
  for (const s of matchedSignals(q)) if (EVIDENCE_SIGNALS.includes(s.id)) add(s.id, s.label);
  const symptom = reported(SYMPTOM, q.prose);
  if (symptom) add("symptom", `a symptom ("${clip(symptom.trim())}")`);
  const status = ERROR_STATUS.exec(q.prose);
  const before = status ? q.prose.slice(Math.max(0, status.index - 60), status.index) : "";
  if (status && !/\b(?:whether|when|which|what decides|decides)\b/.test(before))
    add("status", `an error status (${clip(status[0].trim())})`);
  return out;
}

export interface Evidence {
  id: string;
  /** what was found, for a reader */
  text: string;
}

// A yes/no question about behaviour: "does X keep …", "will Y still …", "can Z …".
const ASKS_ABOUT_CASE = /^(?:does|do|will|would|can|could|should|is|are)\s/;

/** The sentence a position is in, from its start up to the position. */
function sentenceBefore(text: string, at: number): string {
  const start = Math.max(
    text.lastIndexOf(". ", at),
    text.lastIndexOf("? ", at),
    text.lastIndexOf("! ", at),
    text.lastIndexOf(", ", at),
  );
  return text.slice(start < 0 ? 0 : start + 2, at).trim();
}

/**
 * The first match that reports something that happened, not a case the question supposes:
 * "the upload fails with 413" reports, "when the solver fails, how does …" supposes.
 */
function reported(pattern: RegExp, text: string): string | null {
  const all = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
  for (const m of text.matchAll(all)) {
    const before = text.slice(Math.max(0, (m.index ?? 0) - 60), m.index ?? 0);
    if (/\b(?:when|whenever|if|once|unless|until|in case|what happens)\b[^.,;:?!]*$/.test(before)) continue;
    // "does X keep running the other checks after the first one fails?" asks about a case
    if (
      ASKS_ABOUT_CASE.test(sentenceBefore(text, m.index ?? 0)) &&
      /^[^.!]*\?/.test(text.slice(m.index ?? 0))
    )
      continue;
    return m[0];
  }
  return null;
}

// Signals that are themselves an error or a symptom (failure and error words alone are not).
const EVIDENCE_SIGNALS = [
  "error-name-message",
  "quoted-error",
  "why-getting",
  "why-does-fail",
  "not-working",
  "expected-actual",
  "bug-report",
  "performance",
  "fix-request",
];

// A log line at an error level: `2024-05-01 12:00:03 ERROR …`, `[ERROR] …`, `E0501 …`, `level=error`.
const LOG_LINE =
  /^.*(?:\b(?:ERROR|FATAL|CRITICAL|SEVERE|WARN(?:ING)?)\b[\]:]?\s|\[(?:error|fatal|crit|warn|emerg)\]|\blevel=(?:error|fatal|warn)\b|^[EF]\d{4} \d\d:\d\d).*$/m;

// An error or a failed test as a program prints it: `Error: invalid file`, `FAIL src/x.test.ts`,
// `error[E0382]: borrow of moved value`, `fatal: not a git repository`, `expect(received).toEqual(expected)`.
const PRINTED_ERROR =
  /^\s*(?:[\w.]*(?:Error|Exception)|error(?:\[\w+\])?|fatal|panic|FAIL(?:ED)?)(?::|!|\s+\S+\.\w+\b)\s*\S.*$|^\s*(?:\(error\)|-ERR)\s+\S.*$|\bexpect\(received\)/m;

// An error named with its message anywhere: `requests.exceptions.InvalidSchema: No connection
// adapters were found`, `fmt::format_error: invalid format specifier`, `HTTPError: 404`.
const NAMED_ERROR =
  /(?:^|[\s(`'"])(?:[A-Za-z_]\w*(?:\.|::))*(?:[A-Z]\w*(?:Error|Exception|Failure|Fault)|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[a-z][a-z0-9]*_(?:error|exception|failure))\s*:\s+\S[^\n]{3,}/;

// Something thrown or raised, named like an error: "throws fmt::format_error", "raises InvalidURL".
const THROWN =
  /\b(?:throws?|threw|thrown|throwing|raises?|raised|raising|panics? with|fails? with)\s+(?:an?\s+|the\s+)?`?(?:[A-Za-z_]\w*(?:\.|::))*(?:[A-Z]\w*(?:Error|Exception|Failure|Fault|Panic)|[a-z][a-z0-9]*_(?:error|exception)|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)\b/;

const SYMPTOM = new RegExp(
  [
    String.raw`\b(?:crash(?:es|ed|ing)|hangs|hung|hanging|freez(?:es|ing)|froze|deadlocks?|segfault(?:s|ed)?|panick(?:ed|ing)|panics(?! (?:in|when))|leak(?:s|ing)|stuck|timed out|times out|timing out)\b`,
    // "fails" is a verb; "failed" and "failing" only after what failed ("a failed job" is a noun phrase).
    String.raw`\bfails\b|\b(?:failed|failing) (?:to|with|when|on|for|after|if|because|silently|randomly|intermittently|sometimes|only)\b`,
    String.raw`\b(?:it|that|this|which|has|have|had|build|test|tests|request|call|job|command|query|install|compile|upload|login|check|step)s? (?:failed|is failing|are failing|keeps failing)\b`,
    String.raw`\b(?:is|are|keeps?|kept|started|starts|now) (?:failing|crashing|broken)\b`,
    String.raw`\b(?:after|since) (?:upgrading|updating|migrating|switching|moving|bumping|installing)\b`,
    String.raw`\b(?:no longer|stopped working|suddenly|regression|regressed|broke|broken)\b`,
    String.raw`\b(?:i|we) (?:got|saw|am getting|are getting|keep getting|keep seeing|ran into|get an? (?:error|exception|warning|crash|panic))\b`,
    // What happens against what was expected: "… even though I set X", "stays 0 although …".
    String.raw`\b(?:even though|although|despite|but only|only when|what am i doing wrong|is (?:this|it) a bug|complains?)\b`,
    String.raw`\bnever (?:fires|finishes|plays|opens|closes|reconnects|returns|works|ends|stops|loads|shows|appears|gets|runs|called|reached|triggered)\b`,
    String.raw`\b(?:stays?|remains?|comes? back|ends? up) (?:as |at )?(?:locked|empty|open|stuck|0|zero|nil|null|none|undefined|false|true|blank|unchanged)\b`,
  ].join("|"),
);

const ERROR_STATUS =
  /\b(?:returns?|returned|returning|responds? with|respond(?:ed|ing) with|answers?(?: with)?|answered(?: with)?|got|gets|getting|gives?|throws?|sends? back|fails? with)\s+(?:back\s+)?(?:an?\s+|the\s+|http\s+|status\s+|error\s+|code\s+)*[45]\d\d\b|\b[45]\d\d (?:Bad Request|Unauthorized|Forbidden|Not Found|Method Not Allowed|Not Acceptable|Conflict|Gone|Payload Too Large|Unsupported Media Type|Unprocessable (?:Entity|Content)|Too Many Requests|Internal Server Error|Bad Gateway|Service Unavailable|Gateway Timeout)\b/i;
