/**
 * `ask` and `retrieve`: the question engine from a terminal. `ask` streams the pass
 * timeline and each pass's answer; `retrieve` runs the loop with the evidence engine
 * and prints one JSON object of ranked files and symbols per pass, for benchmarks.
 */
import fs from "node:fs";
import { SESSION_ID_PATTERN } from "../db/sessions.ts";
import { WayfinderError } from "../errors.ts";
import { askQuestion, type MessageChunk, type PartWriter } from "../qa/ask.ts";
import type { RequestOverrides } from "../settings/config.ts";
import { askOptionsShape, MAX_REQUESTED_PASSES } from "../qa/ask-options.ts";
import { retrieveReport } from "../qa/retrieve.ts";
import { QUALITY_LIST, QUERY_MODE_LIST, type Quality, type QueryMode } from "../qa/types.ts";
import { resolveRepoArgument, type Command, type CommandContext } from "./context.ts";

function overridesFrom(ctx: CommandContext): RequestOverrides {
  const overrides: RequestOverrides = {};
  const mode = ctx.values.mode;
  if (typeof mode === "string") {
    if (!askOptionsShape.mode.safeParse(mode).success) {
      throw new WayfinderError("bad_request:mode", `--mode must be one of ${QUERY_MODE_LIST.join(", ")}.`);
    }
    overrides.mode = mode as QueryMode;
  }
  const quality = ctx.values.quality;
  if (typeof quality === "string") {
    if (!askOptionsShape.quality.safeParse(quality).success) {
      throw new WayfinderError("bad_request:quality", `--quality must be one of ${QUALITY_LIST.join(", ")}.`);
    }
    overrides.quality = quality as Quality;
  }
  const maxPasses = ctx.values["max-passes"];
  if (typeof maxPasses === "string") {
    const n = Number(maxPasses);
    if (!askOptionsShape.maxPasses.safeParse(n).success)
      throw new WayfinderError(
        "bad_request:max_passes",
        `--max-passes must be 1 to ${MAX_REQUESTED_PASSES}.`,
      );
    overrides.maxPasses = n;
  }
  return overrides;
}

/** A question file larger than this is refused unread (questions are capped far below it). */
const MAX_QUESTION_FILE_BYTES = 1024 * 1024;

function questionFrom(ctx: CommandContext, index: number): string {
  const file = ctx.values["question-file"];
  if (typeof file === "string") {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      throw new WayfinderError("bad_request:question_file", `Cannot read the question file ${file}.`);
    }
    // A device or FIFO (/dev/zero, a pipe) could be read forever; only regular files qualify.
    if (!stat.isFile())
      throw new WayfinderError(
        "bad_request:question_file",
        `The question file ${file} is not a regular file.`,
      );
    if (stat.size > MAX_QUESTION_FILE_BYTES)
      throw new WayfinderError(
        "payload_too_large:question_file",
        `The question file ${file} is too large (limit ${MAX_QUESTION_FILE_BYTES / 1024} KiB).`,
      );
    try {
      return fs.readFileSync(file, "utf8");
    } catch {
      throw new WayfinderError("bad_request:question_file", `Cannot read the question file ${file}.`);
    }
  }
  const q = ctx.positionals[index];
  if (!q) throw new WayfinderError("bad_request:argument", "Missing question.");
  return q;
}

/** `--session`: an id as the web app issues them, refused before any session row is touched. */
function sessionFrom(ctx: CommandContext): string | undefined {
  const id = ctx.values.session;
  if (typeof id !== "string") return undefined;
  if (!SESSION_ID_PATTERN.test(id))
    throw new WayfinderError(
      "bad_request:session",
      "--session must be 8 to 64 letters, digits, dashes or underscores.",
    );
  return id;
}

/** Prints the stream as a person would want to read it in a terminal. */
class TerminalWriter implements PartWriter {
  constructor(private readonly ctx: CommandContext) {}

  write(part: MessageChunk): void {
    const err = (s: string) => this.ctx.err.write(s);
    switch (part.type) {
      case "data-classification":
        err(
          `▸ ${part.data.mode} (${part.data.source}): ${part.data.reasoning}${part.data.scope ? ` [scope: ${part.data.scope}]` : ""}\n`,
        );
        if (part.data.rewrittenQuestion) err(`  as: ${part.data.rewrittenQuestion}\n`);
        break;
      case "data-pass": {
        const p = part.data;
        if (p.phase === "retrieving") err(`▸ pass ${p.pass}: ${p.label}\n`);
        if (p.phase === "answering" && p.pass > 1) {
          for (const g of p.gaps)
            err(
              `  ${g.status === "resolved" ? "✓" : g.status === "skipped" ? "·" : "✗"} ${g.gap}${g.found.length ? ` → ${g.found.join(", ")}` : ""}\n`,
            );
        }
        if (p.phase === "answering")
          err(`  +${p.added.length} items (${p.addedTokens} tokens, ${p.contextTokens} in context)\n`);
        if (p.phase === "done" && p.gapsIdentified.length) err(`  gaps: ${p.gapsIdentified.join("; ")}\n`);
        if (p.phase === "done" && p.stopReason) err(`  stop: ${p.stopReason}\n`);
        break;
      }
      case "text-start":
        this.ctx.out.write(`\n— ${part.id.replace("answer-", "answer, pass ")} —\n`);
        break;
      case "text-delta":
        this.ctx.out.write(part.delta);
        break;
      case "data-notice":
        err(`! ${part.data.message}\n`);
        break;
      case "data-citations": {
        const bad = part.data.items.filter((c) => !c.verified);
        err(
          `\n▸ ${part.data.items.length - bad.length} verified citations${bad.length ? `, ${bad.length} unverified: ${bad.map((c) => `${c.raw} (${c.reason})`).join(", ")}` : ""}\n`,
        );
        break;
      }
      default:
        break;
    }
  }
}

const silent: PartWriter = { write: () => undefined };

export const askCommand: Command = async (ctx) => {
  const repo = await resolveRepoArgument(ctx.positionals[0] ?? "");
  const question = questionFrom(ctx, 1);
  const asJson = Boolean(ctx.values.json);
  const result = await askQuestion(
    {
      repository: repo.id,
      question,
      sessionId: sessionFrom(ctx),
      overrides: overridesFrom(ctx),
    },
    asJson ? silent : new TerminalWriter(ctx),
  );
  if (asJson) {
    ctx.out.write(
      `${JSON.stringify({ answer: result.loop.answer, metadata: result.metadata, classification: result.classification, citations: result.citations }, null, 2)}\n`,
    );
  } else {
    const m = result.metadata;
    ctx.err.write(
      `▸ ${m.passesUsed} pass(es), confidence ${m.confidence}, ${m.budget.used}/${m.budget.limit} tokens, ${m.timings.totalMs} ms — session ${m.sessionId}\n`,
    );
  }
  return 0;
};

export const retrieveCommand: Command = async (ctx) => {
  const repo = await resolveRepoArgument(ctx.positionals[0] ?? "");
  const question = questionFrom(ctx, 1);
  const report = await retrieveReport(repo.id, question, overridesFrom(ctx));
  ctx.out.write(`${JSON.stringify(report)}\n`);
  return 0;
};
