/**
 * Diagnostic retrieval's status step: a report of an HTTP status (`get a 301 Moved
 * Permanently`, `answers 503`) is decided where the code writes that status — as a
 * named constant in any language's spelling (`http.StatusMovedPermanently`,
 * `HttpStatus.MOVED_PERMANENTLY`, `:moved_permanently`) or as the number handed to a call.
 */
import "server-only";
import { STATUS_CODES } from "node:http";
import { filesContainingLiterals, symbolsInFile } from "../../db/code-graph.ts";
import {
  auxiliaryFactor,
  symbolCandidate,
  type AuxiliaryTopics,
  type Candidate,
  type RetrievalInput,
} from "./shared.ts";

/** A status the report speaks of: its number with a status word or its reason phrase around it. */
const STATUS =
  /\b(?:status(?: code)?|HTTP(?:\/[\d.]+)?|(?:get|gets|got|returns?|answers?|responds? with|sends?|with)(?: an?)?)\s+([1-5]\d\d)\b|\b([1-5]\d\d)(?= (?:[A-Z][a-z]+|page|response|status|error)\b)/g;

/** A status spread over more files than this is no evidence of where one report comes from. */
const MAX_STATUS_FILES = 8;

/** The statuses a question reports, by number (only those with a standard reason phrase). */
export function reportedStatuses(question: string): number[] {
  const found = [...question.matchAll(STATUS)].map((m) => Number(m[1] ?? m[2]));
  return [...new Set(found)].filter((n) => STATUS_CODES[n] !== undefined).slice(0, 3);
}

/** How code writes a status: its constant in each language's spelling, or its number in a call. */
export function statusForms(status: number): string[] {
  const words = (STATUS_CODES[status] ?? "")
    .replace(/[^A-Za-z ]/g, " ")
    .split(/\s+/)
    .filter(Boolean);
  if (words.length === 0) return [];
  const pascal = words.map((w) => w[0]?.toUpperCase() + w.slice(1).toLowerCase()).join("");
  const snake = words.map((w) => w.toLowerCase()).join("_");
  return [`Status${pascal}`, snake.toUpperCase(), `:${snake}`, `(${status})`, `(${status},`, `= ${status};`];
}

/** 2e. The functions writing a status the report speaks of, the rarer status first. */
export async function statusCandidates(input: RetrievalInput, topics: AuxiliaryTopics): Promise<Candidate[]> {
  const statuses = reportedStatuses(input.question);
  if (statuses.length === 0) return [];
  const forms = statuses.map(statusForms);
  const files = (await filesContainingLiterals(input.generationId, forms)).filter(
    (f) => auxiliaryFactor(f.path, topics) === 1,
  );
  const out: Candidate[] = [];
  for (const [i, status] of statuses.entries()) {
    const holding = files.filter((f) => f.found.includes(i));
    if (holding.length === 0 || holding.length > MAX_STATUS_FILES) continue;
    const spelled = forms[i] ?? [];
    for (const file of holding) {
      const lines = (await input.reader.lines(file.path)) ?? [];
      const symbols = await symbolsInFile(input.generationId, file.path);
      lines.forEach((text, at) => {
        if (!spelled.some((f) => text.includes(f))) return;
        // The innermost definition around the line writing the status.
        const around = symbols
          .filter((s) => s.startLine <= at + 1 && s.endLine >= at + 1)
          .sort((a, b) => a.endLine - a.startLine - (b.endLine - b.startLine))[0];
        if (around && !out.some((c) => c.key === around.qualifiedId))
          out.push(symbolCandidate(around, `writes the status ${status} the report speaks of`));
      });
    }
  }
  return out.slice(0, 6);
}
