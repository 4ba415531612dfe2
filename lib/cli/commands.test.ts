/**
 * The CLI's commands against a temporary WAYFINDER_HOME. The first build runs as a user
 * runs it (`npm run --silent wayfinder -- …` in a child process); the rest run the same
 * CLI (lib/cli/run.ts) in this process. JSON output is parsed and checked; errors must
 * be one clear `error:` line on stderr with a non-zero exit code and nothing on stdout.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliInProcess, type CliResult } from "../../test-support/cli.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";
import { bySymbol } from "./commands.ts";

let t: TempEnv;
let root: string;
beforeAll(async () => {
  t = await setupTempEnv();
  root = t.makeRepo(
    {
      "billing/invoice.py": [
        "from billing.tax import vat_for",
        "",
        "",
        "class Invoice:",
        '    """An invoice with lines (sapphire ledger)."""',
        "",
        "    def total(self, lines):",
        "        if not lines:",
        '            raise ValueError("invoice has no lines")',
        "        return sum(lines) + vat_for(sum(lines))",
        "",
      ].join("\n"),
      "billing/tax.py": "def vat_for(amount):\n    return amount * 0.2\n",
      "README.md": "# Billing\n\nComputes invoices with VAT.\n",
    },
    "billing-demo",
  );
});
afterAll(async () => {
  await t?.cleanup();
});

/** `npm run --silent wayfinder -- …args` in a child process. */
function runNpm(...args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", "wayfinder", "--", ...args], {
      cwd: process.cwd(),
      env: t.childEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** stderr lines that come from Wayfinder (npm may add its own config warnings). */
function errorLines(stderr: string): string[] {
  return stderr.split("\n").filter((l) => l.startsWith("error:"));
}

describe("symbol's call lists", () => {
  it("name each caller or callee once, with its call sites counted", () => {
    expect(
      bySymbol([
        { id: "src/main.c::main", confidence: 0.6 },
        { id: "src/execute.c::jq_compile", confidence: 0.95 },
        { id: "src/main.c::main", confidence: 0.9 },
        { id: null, confidence: 0.3 },
      ]),
    ).toEqual([
      "src/main.c::main (0.9, 2 call sites)",
      "src/execute.c::jq_compile (0.95)",
      "(unresolved) (0.3)",
    ]);
  });
});

describe("wayfinder CLI", () => {
  it("indexes a folder and prints the build as JSON", { timeout: 120_000 }, async () => {
    const result = await runNpm("index", root, "--json");
    expect(result.code, result.stderr).toBe(0);
    const out = JSON.parse(result.stdout) as {
      repository: { id: string; name: string; rootPath: string };
      stats: Record<string, unknown>;
    };
    expect(out.repository).toMatchObject({ name: "billing-demo", rootPath: root });
    expect(out.stats).toMatchObject({
      generation: 1,
      files: 3,
      codeFiles: 2,
      textFiles: 1,
      parsedFiles: 3,
      languages: { python: 2, markdown: 1 },
      source: "walk",
    });
    expect(out.stats.symbols).toBe(3);
    expect(out.stats.callEdges).toBe(1);

    // Re-indexing through the CLI reuses everything; the human summary says so.
    const again = await runCliInProcess(["index", root]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("generation 2");
    expect(again.stdout).toMatch(/files\s+3 \(0 parsed, 3 unchanged, 0 removed\)/);
  });

  it("searches and looks up symbols with JSON output", { timeout: 120_000 }, async () => {
    const [lexical, hybrid, symbol, qualified] = await Promise.all([
      runCliInProcess(["search", "billing-demo", "sapphire ledger", "--json", "--mode", "lexical"]),
      runCliInProcess(["search", root, "vat for amount", "--json", "--limit", "3"]),
      runCliInProcess(["symbol", "billing-demo", "vat_for", "--json"]),
      runCliInProcess(["symbol", "billing-demo", "Invoice.total", "--json"]),
    ]);
    for (const r of [lexical, hybrid, symbol, qualified]) expect(r.code, r.stderr).toBe(0);

    const lexicalHits = (
      JSON.parse(lexical.stdout) as {
        path: string;
        kind: string;
        title: string;
        symbolId: string | null;
      }[]
    ).filter((h) => h.kind !== "wiki"); // the generated wiki pages about these files match too
    expect(lexicalHits[0]).toMatchObject({
      path: "billing/invoice.py",
      title: "Invoice",
      symbolId: "billing/invoice.py::Invoice",
    });
    expect(lexicalHits.every((h) => h.path === "billing/invoice.py")).toBe(true);

    const hybridHits = JSON.parse(hybrid.stdout) as { path: string; startLine: number; endLine: number }[];
    expect(hybridHits.length).toBeGreaterThan(0);
    expect(hybridHits.length).toBeLessThanOrEqual(3);
    expect(hybridHits.map((h) => h.path)).toContain("billing/tax.py");

    const [vat] = JSON.parse(symbol.stdout) as {
      id: string;
      kind: string;
      lines: number[];
      calledBy: { id: string; confidence: number }[];
      fanIn: number;
    }[];
    expect(vat).toMatchObject({ id: "billing/tax.py::vat_for", kind: "function", lines: [1, 2], fanIn: 1 });
    expect(vat?.calledBy).toEqual([{ id: "billing/invoice.py::Invoice.total", line: 10, confidence: 0.9 }]);

    const [total] = JSON.parse(qualified.stdout) as {
      id: string;
      calls: { id: string; raw: string }[];
      unresolvedCalls: string[];
      raises: string[];
      errorStrings: string[];
    }[];
    expect(total?.id).toBe("billing/invoice.py::Invoice.total");
    expect(total?.calls.map((c) => [c.id, c.raw])).toEqual([["billing/tax.py::vat_for", "vat_for"]]);
    expect(total?.unresolvedCalls).toContain("sum");
    expect(total?.raises).toEqual(["ValueError"]);
    expect(total?.errorStrings).toEqual(["invoice has no lines"]);
  });

  it(
    "fails with one clear error line and a non-zero exit code on bad input",
    { timeout: 120_000 },
    async () => {
      const missing = path.join(t.base, "no-such-folder");
      const [badPath, filePath, unknownSymbol, unknownRepo, badLimit] = await Promise.all([
        runCliInProcess(["index", missing, "--json"]),
        runCliInProcess(["index", path.join(root, "README.md")]),
        runCliInProcess(["symbol", "billing-demo", "no_such_function"]),
        runCliInProcess(["search", "never-indexed", "anything"]),
        runCliInProcess(["search", "billing-demo", "vat", "--limit", "0"]),
      ]);
      const cases: [CliResult, string][] = [
        [badPath, `error: No such folder: ${missing}`],
        [
          filePath,
          `error: ${path.join(root, "README.md")} is a file, not a folder. Give the repository's root folder.`,
        ],
        [unknownSymbol, 'error: No symbol named "no_such_function" in billing-demo.'],
        [unknownRepo, 'error: No indexed repository "never-indexed". Index it first.'],
        [badLimit, "error: --limit must be a whole number from 1 to 200."],
      ];
      for (const [result, line] of cases) {
        expect(result.code, line).toBe(1);
        expect(errorLines(result.stderr)).toEqual([line]);
        expect(result.stdout).toBe("");
        // No stack trace or internal error object leaks to the user.
        expect(result.stderr).not.toMatch(/\n\s+at /);
      }
    },
  );

  it("indexes an empty folder with a clear note instead of failing", { timeout: 120_000 }, async () => {
    const empty = t.makeRepo({}, "empty-folder");
    const result = await runCliInProcess(["index", empty]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/files\s+0 \(0 parsed/);
    expect(result.stdout).toContain("note      no indexable files were found in this folder");
  });
});
