/**
 * Dumps the learned symbol ranker's training data: indexes every corpus of the question
 * bench's dev split, retrieves each dev question with the ranker observing instead of
 * reordering, and writes one JSON line per question with an expected symbol — its routed
 * mode, the expected entries, and for each of the first ranked candidates its id, whether it
 * is expected (by base qualified id) and its feature vector — to
 * training/symbols/data/<corpus>.jsonl. Held-out questions are never read.
 *
 *   npm run dump:symbols -- --corpus DIR   (DIR: the bench's bundle folders, as for the bench)
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { openRepo, runJsonWorker, setCorpusFolders } from "../../bench/corpus.ts";
import { checkoutSelf, loadQuestionSets, type BenchQuestion, type Expected } from "../../bench/questions.ts";
import { baseQualifiedId } from "../../lib/db/symbol-ids.ts";

const ROOT = path.resolve(__dirname, "..", "..");
const DATA = path.join(__dirname, "data");

/** One dev question's candidates as the dump writes them. */
export interface DumpRow {
  id: string;
  corpus: string;
  expectedMode: string;
  mode: string;
  expected: Expected[];
  candidates: { id: string; label: 0 | 1; features: number[] }[];
}

interface WorkerCorpus {
  name: string;
  dir: string;
}

function devQuestions(): BenchQuestion[] {
  return loadQuestionSets().questions.filter((q) => (q.split ?? "dev") === "dev" && q.symbols.length > 0);
}

/** Whether a candidate answers one of the expected entries (an overload answers for its name). */
export function isExpected(id: string, expected: Expected[]): boolean {
  const base = baseQualifiedId(id);
  return expected.some((e) => (Array.isArray(e) ? e.includes(base) : e === base));
}

function main(): void {
  const { values } = parseArgs({ options: { corpus: { type: "string", multiple: true } } });
  if (values.corpus) setCorpusFolders(values.corpus);
  const set = loadQuestionSets();
  const questions = devQuestions();
  const names = new Set(questions.map((q) => q.corpus));
  const corpora: WorkerCorpus[] = set.corpora
    .filter((c, i, all) => names.has(c.name) && all.findIndex((x) => x.name === c.name) === i)
    .map((c) => {
      if (c.self) return { name: c.name, dir: checkoutSelf(c.ref) };
      const repo = openRepo(c.name);
      repo.checkout(c.ref);
      return { name: c.name, dir: repo.dir };
    });
  const rows = runJsonWorker<DumpRow>({
    script: __filename,
    args: ["--worker"],
    input: corpora,
    label: "symbols",
    root: ROOT,
    maxBuffer: 512 * 1024 * 1024,
  });
  fs.mkdirSync(DATA, { recursive: true });
  for (const name of [...names].sort()) {
    const lines = rows.filter((r) => r.corpus === name).map((r) => JSON.stringify(r));
    fs.writeFileSync(path.join(DATA, `${name}.jsonl`), lines.length ? `${lines.join("\n")}\n` : "");
  }
  console.log(
    `wrote ${rows.length} questions over ${names.size} repositories to ${path.relative(ROOT, DATA)}`,
  );
}

async function worker(input: string): Promise<void> {
  const { closeDb } = await import("../../lib/db/client.ts");
  const { ensureMigrated } = await import("../../lib/db/migrate.ts");
  const { indexRepository } = await import("../../lib/builds/build.ts");
  const { retrieveReport } = await import("../../lib/qa/retrieve.ts");
  const { closeSearchServices } = await import("../../lib/search/runtime.ts");
  const { observeRanking } = await import("../../lib/qa/retrievers/symbol-ranker.ts");
  const corpora = JSON.parse(fs.readFileSync(input, "utf8")) as WorkerCorpus[];
  const questions = devQuestions();
  await ensureMigrated();
  let seen: { ids: string[]; features: number[][] } | null = null;
  observeRanking((ctx, features) => {
    seen = { ids: ctx.ids, features };
  });
  for (const corpus of corpora) {
    const { repository } = await indexRepository(corpus.dir, { name: corpus.name });
    process.stderr.write(`  indexed ${corpus.name}\n`);
    for (const q of questions.filter((x) => x.corpus === corpus.name)) {
      seen = null;
      const report = await retrieveReport(repository.id, q.question);
      const got = seen as { ids: string[]; features: number[][] } | null;
      const row: DumpRow = {
        id: q.id,
        corpus: q.corpus,
        expectedMode: q.mode,
        mode: report.mode,
        expected: q.symbols,
        candidates: (got?.ids ?? []).map((id, i) => ({
          id,
          label: isExpected(id, q.symbols) ? 1 : 0,
          features: (got?.features[i] ?? []).map((x) => Math.round(x * 1e4) / 1e4),
        })),
      };
      process.stdout.write(`${JSON.stringify(row)}\n`);
    }
  }
  observeRanking(null);
  await closeSearchServices();
  await closeDb();
}

if (require.main === module) {
  if (process.argv[2] === "--worker") {
    worker(process.argv[3] as string).catch((error) => {
      console.error(error);
      process.exit(1);
    });
  } else {
    main();
  }
}
