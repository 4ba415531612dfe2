/**
 * How a diagnostic ranking weighs files beside its symbols: a test's evidence credited in
 * part to the file it tests, partner files (header and implementation, interface and
 * implementations, co-changed files) brought up below the file they belong to, and the
 * files that write the report's options and configuration keys as literals, and the
 * files whose patterns accept the values it quotes.
 */
import "server-only";
import { baseQualifiedId } from "../../db/symbol-ids.ts";
import { filesContainingLiterals, symbolsInFile } from "../../db/code-graph.ts";
import { pairAtEdge, partnersOf, withPartners } from "./partners.ts";
import {
  acceptedInputs,
  codePatterns,
  MAX_ACCEPTING,
  quotedInputs,
  withAcceptingFiles,
} from "./accepted-inputs.ts";
import { testedFiles, type PathIndex } from "./file-index.ts";
import {
  chunkCandidate,
  isTestPath,
  topicsOfPaths,
  symbolCandidate,
  auxiliaryFactor,
  type AuxiliaryTopics,
  type Candidate,
  type RetrievalInput,
} from "./shared.ts";

/** Share of a test's own evidence that goes to the file it exercises. */
const TEST_CREDIT = 0.35;

/**
 * A failure shows in the tests that exercise the code and is fixed in that code: the
 * evidence a test file gathered (before tests were demoted) also counts, in part, for
 * the file it tests (`unmarshaler_test.go` → `unmarshaler.go`), unless the question is
 * about tests.
 */
export function creditTestedFiles(
  scored: [string, number][],
  index: PathIndex,
  namedPaths: string[],
): [string, number][] {
  const about = topicsOfPaths(namedPaths);
  if (about.tests) return scored;
  const scores = new Map(scored);
  for (const [path, score] of scored) {
    if (!isTestPath(path)) continue;
    const own = score / auxiliaryFactor(path, about);
    for (const subject of testedFiles(index, path, isTestPath))
      scores.set(subject, (scores.get(subject) ?? 0) + own * TEST_CREDIT);
  }
  return [...scores.entries()].sort((a, b) => b[1] - a[1]);
}

/** Leading files whose partners are brought up with them. */
const PARTNER_LEADING = 3;
/** The first files, where a sure partner of a leading file keeps a place. */
const PARTNER_PLACES = 5;

/**
 * The file ranking with the partners of its leading files right below them (a header
 * with its implementation, a source with its type declarations …), unless a partner is
 * a test, doc or vendored file the question is not about.
 */
export async function withPartnerFiles(
  input: RetrievalInput,
  scored: [string, number][],
  namedPaths: string[],
): Promise<string[]> {
  const leading = scored.slice(0, PARTNER_LEADING).map(([file]) => file);
  const partners = await partnersOf(input.generationId, input.repositoryId, leading, (path) =>
    input.reader.lines(path),
  );
  const about = topicsOfPaths(namedPaths);
  const keep = (path: string) => auxiliaryFactor(path, about) === 1;
  const lifted = withPartners(scored, partners, { leading: PARTNER_LEADING, keep, reserve: PARTNER_PLACES });
  // The files below the leading ones in the first places, whose own sure partners may come in with them.
  const edge = lifted
    .slice(0, PARTNER_PLACES)
    .map(([file]) => file)
    .filter((f) => !partners.has(f));
  const known = new Map([
    ...partners,
    ...(await partnersOf(input.generationId, input.repositoryId, edge, (path) => input.reader.lines(path))),
  ]);
  const ranked = pairAtEdge(lifted, leading, known, keep, PARTNER_PLACES)
    .slice(0, 30)
    .map(([file]) => file);
  const paired = new Set(leading.flatMap((f) => [f, ...(partners.get(f) ?? []).map((p) => p.path)]));
  return withAcceptingFiles(ranked, await acceptingFiles(input, ranked), paired, PARTNER_PLACES);
}

/**
 * The ranked files whose regular expressions accept a value the report quotes (the
 * date or version that was misread), when few do; tests and docs never.
 */
async function acceptingFiles(input: RetrievalInput, ranked: string[]): Promise<string[]> {
  const inputs = quotedInputs(input.question);
  if (inputs.length === 0) return [];
  const found: string[] = [];
  for (const path of ranked) {
    if (auxiliaryFactor(path, { tests: false, docs: false }) !== 1) continue;
    const lines = await input.reader.lines(path);
    if (lines && acceptedInputs(codePatterns(path, lines.join("\n")), inputs).length) found.push(path);
  }
  return found.length <= MAX_ACCEPTING ? found : [];
}

/**
 * The ranked files with tests, docs and examples the question is not about moved below
 * the code (order kept within each): a failure shows in a test but is fixed in the code,
 * so a test never takes a place of the first five that a source file with evidence could.
 */
export function sourceFilesFirst(files: string[], namedPaths: string[], topics?: AuxiliaryTopics): string[] {
  const about = topicsOfPaths(namedPaths, topics);
  const code = files.filter((f) => auxiliaryFactor(f, about) === 1);
  return [...code, ...files.filter((f) => auxiliaryFactor(f, about) !== 1)];
}

/**
 * Ranked symbol ids where each function and each error type holds one place: further
 * overloads of a function (`f#2`) and further members of one error type (its other
 * constructors, its message builder, an `isHTTPError` guard) move below the rest, so
 * they never crowd out the code that raises or handles the error. A member writing the
 * quoted message (one of `writers`: an error type's `fmt` or `__str__` formatting it)
 * keeps its place beside the type's other members: it is where the message comes from.
 */
export function oneSlotEach(ids: string[], writers: ReadonlySet<string> = new Set()): string[] {
  const seen = new Set<string>();
  const first: string[] = [];
  const repeats: string[] = [];
  for (const id of ids) {
    const keys = [baseQualifiedId(id), errorOwner(id)].filter((k): k is string => k !== null);
    if ((writers.has(id) ? keys.slice(0, 1) : keys).some((k) => seen.has(k))) repeats.push(id);
    else first.push(id);
    for (const k of keys) seen.add(k);
  }
  return [...first, ...repeats];
}

/** The error type a symbol belongs to or guards (`HTTPError.constructor`, `isHTTPError` → HTTPError). */
function errorOwner(id: string): string | null {
  const name = id.slice(id.indexOf("::") + 2).replace(/#\d+$/, "");
  const parts = name.split(".");
  const owner = parts.find((p, i) => i < parts.length - 1 && ERROR_TYPE.test(p));
  if (owner) return `error:${owner}`;
  const guard = /^is([A-Z]\w*(?:Error|Exception))$/.exec(parts[parts.length - 1] ?? "");
  return guard
    ? `error:${guard[1]}`
    : ERROR_TYPE.test(parts[parts.length - 1] ?? "")
      ? `error:${parts[parts.length - 1]}`
      : null;
}

const ERROR_TYPE = /^\w*(?:Error|Exception)$/;

/** A literal found in more files than this says little about where anything is. */
const MAX_LITERAL_FILES = 20;

/**
 * The code that writes the report's options, configuration keys and output headings as
 * string literals (`"--collect-only"`, `"msg-template"`, `"Data variables:"`): where an
 * option is defined or read, where output is written. An option
 * is looked for with its dashes and, since many parsers declare it bare, without them;
 * files are ranked by the literals they hold, the rarer a literal the more it counts.
 */
export async function literalCandidates(
  input: RetrievalInput,
  topics: AuxiliaryTopics,
): Promise<Candidate[]> {
  const names = input.anchors.literals.flatMap((l) => (l.startsWith("-") ? [l, l.replace(/^-+/, "")] : [l]));
  const literals = [...new Set(names)].filter((l) => l.length >= 3);
  if (literals.length === 0) return [];
  // A name is the whole literal, or the first of a tag's comma-separated parts
  // (`json:"keep_days,optional"`); a heading of output starts one (`"Data variables:"`).
  const quoted = (l: string) => (l.includes(" ") ? [`"${l}`, `'${l}`] : [`"${l}"`, `'${l}'`, `"${l},`]);
  const files = await filesContainingLiterals(input.generationId, literals.map(quoted));
  const df = literals.map((_, i) => files.filter((f) => f.found.includes(i)).length);
  const scored = files
    .map((f) => ({
      ...f,
      found: f.found.filter((i) => (df[i] ?? 0) <= MAX_LITERAL_FILES),
    }))
    .filter((f) => f.found.length > 0)
    // A literal in a test or an example is a use of the option, never where it is defined.
    .map((f) => ({
      ...f,
      score: f.found.reduce((sum, i) => sum + 1 / (df[i] ?? 1), 0) * auxiliaryFactor(f.path, topics),
    }))
    .sort((a, b) => b.score - a.score)
    .slice(0, 10);
  // Equal scores: the file that writes the literals more often is more about them.
  const read = await Promise.all(
    scored.map(async (file) => {
      const lines = (await input.reader.lines(file.path)) ?? [];
      const forms = file.found.flatMap((i) => quoted(literals[i] as string));
      return { ...file, lines, uses: lines.filter((line) => forms.some((f) => line.includes(f))).length };
    }),
  );
  read.sort((a, b) => b.score - a.score || b.uses - a.uses || a.path.localeCompare(b.path));
  const out: Candidate[] = [];
  for (const file of read) {
    // The rarest literal the file holds, at its first occurrence.
    const literal = [...file.found].sort((a, b) => (df[a] ?? 0) - (df[b] ?? 0))[0] as number;
    const forms = quoted(literals[literal] as string);
    const lines = file.lines;
    const index = lines.findIndex((line) => forms.some((f) => line.includes(f)));
    if (index < 0) continue;
    const line = index + 1;
    const reason = `writes ${forms[0]}`;
    const around = (await symbolsInFile(input.generationId, file.path))
      .filter((s) => s.startLine <= line && s.endLine >= line)
      .sort((a, b) => a.endLine - a.startLine - (b.endLine - b.startLine))[0];
    if (around) {
      out.push(symbolCandidate(around, reason));
      continue;
    }
    const start = Math.max(1, line - 3);
    const end = Math.min(lines.length, line + 3);
    out.push(
      chunkCandidate(
        {
          id: 0,
          path: file.path,
          kind: "code",
          symbolId: null,
          title: file.path,
          startLine: start,
          endLine: end,
          text: lines.slice(start - 1, end).join("\n"),
          score: file.score,
        },
        reason,
      ),
    );
  }
  return out;
}
