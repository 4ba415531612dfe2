/**
 * Questions asked while a real index worker (the CLI's `index` command in a child
 * process, as lib/builds/jobs.ts runs it) builds the next generation and flips to
 * it. The next generation renames every symbol (alpha_* → omega_*) and shifts every
 * line, so an answer that mixed generations, or read a half-built one, would show
 * it: each answer must be complete (finish part, no error), pinned to one ready
 * generation, name only that generation's symbols, and every citation must resolve
 * to the same lines in that generation's stored text.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findRepository } from "../db/repositories.ts";
import { getFileContent } from "../db/index-reads.ts";
import { getGeneration } from "../db/generations.ts";
import { indexRepository } from "../builds/build.ts";
import { cliProcessArgs } from "../builds/jobs.ts";
import { setupTempEnv, type FileTree, type TempEnv } from "../../test-support/temp-env.ts";
import { askQuestion, type MessageChunk } from "./ask.ts";
import type { AnswerMetadata, CitationPart } from "./types.ts";

let t: TempEnv;
let child: ChildProcess | null = null;
beforeAll(async () => {
  t = await setupTempEnv();
});
afterAll(async () => {
  if (child?.pid && child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await t?.cleanup();
});

/** The ledger module of one generation: `prefix` names every symbol, `shift` blank lines move them. */
function ledger(prefix: string, shift: number): string {
  return [
    `"""Ledger settlement (${prefix} edition)."""`,
    ...Array.from({ length: shift }, (_, i) => `# layout note ${i}`),
    "",
    `class ${prefix}_Ledger:`,
    `    """Holds the ${prefix} ledger entries and settles them."""`,
    "",
    "    def __init__(self):",
    "        self.entries = []",
    "",
    `    def ${prefix}_settle(self, amount):`,
    `        """Settle an amount into the ledger after reconciling it."""`,
    `        checked = ${prefix}_reconcile(self.entries, amount)`,
    "        self.entries.append(checked)",
    "        return checked",
    "",
    "",
    `def ${prefix}_reconcile(entries, amount):`,
    `    """Reconcile an amount against the entries; refuses negative amounts."""`,
    "    if amount < 0:",
    `        raise ValueError("ledger mismatch: negative amount")`,
    `    return ${prefix}_round(amount) + len(entries) * 0`,
    "",
    "",
    `def ${prefix}_round(amount):`,
    `    """Round an amount to cents."""`,
    "    return round(amount, 2)",
    "",
  ].join("\n");
}

/** Filler modules that change with the generation, so the worker has real parsing to do. */
function filler(count: number, edition: number): FileTree {
  const files: FileTree = {};
  for (let i = 0; i < count; i++) {
    const body = [`"""Helper module ${i}, edition ${edition}."""`, ""];
    for (let f = 0; f < 6; f++) {
      body.push(`def helper_${i}_${f}(values):`, `    """Helper ${f}."""`);
      for (let k = 0; k < 12; k++) body.push(`    values = [v * ${k + edition} for v in values if v]`);
      body.push("    return values", "");
    }
    files[`helpers/mod_${i}.py`] = body.join("\n");
  }
  return files;
}

const QUESTIONS: { text: string; mode: "conceptual" | "diagnostic" | "exploratory" | "analytical" }[] = [
  { text: "How does the ledger settle an amount?", mode: "conceptual" },
  { text: 'Why do I get "ledger mismatch: negative amount"?', mode: "diagnostic" },
  { text: "What happens when an amount is settled into the ledger?", mode: "exploratory" },
  { text: "Which functions in the ledger module are the riskiest to change?", mode: "analytical" },
];

interface Observed {
  metadata: AnswerMetadata | null;
  text: string;
  citations: CitationPart[];
  errors: string[];
  finished: boolean;
  generationStatusAfter: string | undefined;
}

async function observe(repositoryId: string, index: number): Promise<Observed> {
  const q = QUESTIONS[index % QUESTIONS.length]!;
  const parts: MessageChunk[] = [];
  const errors: string[] = [];
  try {
    await askQuestion(
      { repository: repositoryId, question: q.text, overrides: { mode: q.mode } },
      { write: (p) => parts.push(p) },
      // Half store sessions (the web path), half are ephemeral (bench and retrieve path).
      { model: null, ephemeral: index % 2 === 1 },
    );
  } catch (error) {
    errors.push(error instanceof Error ? error.message : String(error));
  }
  for (const p of parts) if (p.type === "error") errors.push(p.errorText);
  const finish = parts.find((p) => p.type === "finish");
  const metadata = (finish?.type === "finish" ? finish.messageMetadata : null) as AnswerMetadata | null;
  const text = parts
    .filter((p) => p.type === "text-delta")
    .map((p) => (p.type === "text-delta" ? p.delta : ""))
    .join("");
  const citationsPart = parts.find((p) => p.type === "data-citations");
  const citations =
    citationsPart?.type === "data-citations" ? (citationsPart.data as { items: CitationPart[] }).items : [];
  const generationStatusAfter = metadata ? (await getGeneration(metadata.generationId))?.status : undefined;
  return { metadata, text, citations, errors, finished: Boolean(finish), generationStatusAfter };
}

describe("questions during a generation flip", () => {
  it("are each answered completely from exactly one ready generation", { timeout: 120_000 }, async () => {
    const root = t.makeRepo({ "ledger/core.py": ledger("alpha", 0), ...filler(150, 1) });
    const { repository, stats: first } = await indexRepository(root);
    t.write(root, "ledger/core.py", ledger("omega", 9));
    for (const [rel, content] of Object.entries(filler(150, 2))) t.write(root, rel, content);

    child = spawn(process.execPath, cliProcessArgs(["index", root]), {
      cwd: process.cwd(),
      env: t.childEnv(),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stderr = "";
    child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout?.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child!.once("exit", (code) => resolve(code)));
    let exitCode: number | null | undefined;
    void exited.then((code) => (exitCode = code));

    const observed: Observed[] = [];
    let asked = 0;
    let roundsAfterExit = 0;
    // Waves of concurrent questions until the worker is done, then two more waves on the new generation.
    while (roundsAfterExit < 2) {
      if (exitCode !== undefined) roundsAfterExit++;
      const wave = await Promise.all(Array.from({ length: 6 }, () => observe(repository.id, asked++)));
      observed.push(...wave);
      if (asked > 600) break;
    }
    expect(exitCode, `index worker failed: ${stderr}`).toBe(0);
    const second = (await findRepository(root))?.activeGenerationId;
    expect(second).toBeTruthy();
    expect(second).not.toBe(first.generationId);

    const byGeneration = new Map<string, number>();
    for (const o of observed) {
      expect(o.errors).toEqual([]);
      expect(o.finished).toBe(true);
      const generationId = o.metadata!.generationId;
      expect([first.generationId, second]).toContain(generationId);
      // Pinned only to generations that were complete: the new one is visible only once ready.
      expect(["ready", "superseded"]).toContain(o.generationStatusAfter);
      byGeneration.set(generationId, (byGeneration.get(generationId) ?? 0) + 1);

      const [own, other] = generationId === first.generationId ? ["alpha", "omega"] : ["omega", "alpha"];
      expect(o.text).toContain(own);
      expect(o.text).not.toContain(other);
      const verified = o.citations.filter((c) => c.verified);
      expect(verified.length).toBeGreaterThan(0);
      for (const c of verified) {
        const content = await getFileContent(generationId, c.path);
        expect(content, `${c.path} in ${generationId}`).not.toBeNull();
        // The snippet is the lines it says it shows, inside the cited range, as stored in that generation.
        const shown = c.shown!;
        expect(shown.startLine).toBeGreaterThanOrEqual(c.startLine);
        expect(shown.endLine).toBeLessThanOrEqual(c.endLine);
        expect(c.snippet).toBe(
          content!
            .split("\n")
            .slice(shown.startLine - 1, shown.endLine)
            .join("\n"),
        );
        expect(c.snippet).not.toContain(other);
      }
    }
    // Both generations really served answers: some during the build, some after the flip.
    expect(byGeneration.get(first.generationId) ?? 0).toBeGreaterThan(0);
    expect(byGeneration.get(second!) ?? 0).toBeGreaterThanOrEqual(12);
  });
});
