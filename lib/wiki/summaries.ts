/**
 * Model-written page summaries. With a model configured, each regenerated page gets
 * a short prose summary written from its own evidence (and marked model-written);
 * any failure — error, timeout, empty or overlong output — leaves the page
 * evidence-only, silently. After a few failures in a row the build stops asking, so
 * an unreachable provider costs seconds, not one timeout per page.
 */
import type { ConfiguredModel } from "../answerers/providers.ts";
import type { WikiPageDraft } from "../db/wiki-shapes.ts";

const SYSTEM = [
  "You write the summary at the top of a code wiki page.",
  "Use only the evidence given: do not guess at behaviour it does not show.",
  "Write two or three plain sentences (no Markdown, no lists, no citations) saying what this",
  "code is for and how it fits with the code around it.",
].join(" ");

const MAX_EVIDENCE_CHARS = 6000;
const MAX_SUMMARY_CHARS = 700;
const MAX_CONSECUTIVE_FAILURES = 3;
const CONCURRENCY = 4;
/** A summary should come back quickly; page generation must not wait a full answer timeout. */
const MAX_TIMEOUT_MS = 30_000;

export interface SummaryOutcome {
  written: number;
  failed: number;
}

function prompt(page: WikiPageDraft): string {
  const what = page.kind === "overview" ? "repository" : page.kind === "directory" ? "folder" : "file";
  return [`Summarize this ${what}: ${page.title}`, "", page.content.slice(0, MAX_EVIDENCE_CHARS)].join("\n");
}

/**
 * Cleans model output into a summary, or null when it is unusable. A summary is shown
 * as one paragraph of prose, so a fenced block (a model adding a mermaid diagram or
 * code despite the prompt) is dropped rather than shown flattened into the sentence.
 */
export function cleanSummary(text: string): string | null {
  const clean = text
    .replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[ \t]*$|(?![\s\S]))/gm, "")
    .replace(/<\/?[a-z][^>]*>/gi, "")
    .replace(/^\s*(summary|here is[^:]*):\s*/i, "")
    .replace(/\s+/g, " ")
    .trim();
  if (clean.length < 20 || clean.length > MAX_SUMMARY_CHARS * 2) return null;
  return clean.length > MAX_SUMMARY_CHARS ? `${clean.slice(0, MAX_SUMMARY_CHARS - 1)}…` : clean;
}

/** Failures in a row so far, carried from one batch of pages to the next. */
export interface SummaryRun {
  consecutiveFailures: number;
}

/**
 * Adds model summaries to `pages` in place (a few at a time); returns how many were
 * written. A build summarising its pages in batches passes one `run` to every call, so
 * the model is given up on across batches as within one.
 */
export async function addModelSummaries(
  pages: WikiPageDraft[],
  model: ConfiguredModel,
  run: SummaryRun = { consecutiveFailures: 0 },
): Promise<SummaryOutcome> {
  const outcome: SummaryOutcome = { written: 0, failed: 0 };
  // Loaded here, not with the module: an index run without a model never needs the AI SDK.
  const { generateText } = await import("ai");
  let next = 0;
  const worker = async () => {
    while (next < pages.length && run.consecutiveFailures < MAX_CONSECUTIVE_FAILURES) {
      const page = pages[next++] as WikiPageDraft;
      try {
        const { text } = await generateText({
          model: model.model,
          system: SYSTEM,
          prompt: prompt(page),
          maxOutputTokens: 300,
          maxRetries: 0,
          abortSignal: AbortSignal.timeout(Math.min(model.timeoutMs, MAX_TIMEOUT_MS)),
        });
        const summary = cleanSummary(text);
        if (!summary) throw new Error("unusable summary");
        page.summary = summary;
        page.modelWritten = true;
        outcome.written++;
        run.consecutiveFailures = 0;
      } catch {
        outcome.failed++;
        run.consecutiveFailures++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, pages.length) }, worker));
  return outcome;
}
