/**
 * Diagnostic retrieval over a small indexed repository: which of a report's stack
 * frames count, and which one is taken for the place the error surfaced.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexFixture, setupQaHome, type IndexedFixture } from "../../../test-support/qa-env.ts";
import { retrieveReport } from "../retrieve.ts";
import { pointedAt } from "./diagnostic.ts";
import { oneSlotEach, sourceFilesFirst } from "./diagnostic-files.ts";

const FILES: Record<string, string> = {
  "calc/__init__.py": "",
  "calc/cli.py": `from calc.engine import evaluate


def main(argv):
    """Runs the calculator on the command line's words."""
    expression = " ".join(argv)
    return evaluate(expression)
`,
  "calc/engine.py": `from calc._vendor.tokens import tokenize


def evaluate(expression):
    """Evaluates an arithmetic expression."""
    tokens = tokenize(expression)
    return combine(tokens)


def combine(tokens):
    total = 0
    for token in tokens:
        total += int(token)
    return total
`,
  "calc/options.py": `import argparse

DEFAULTS = {"max-depth": 8}


def parser():
    p = argparse.ArgumentParser()
    p.add_argument("--dry-run", action="store_true")
    return p
`,
  "tests/test_options.py": `from calc.options import parser


def test_dry_run():
    assert parser().parse_args(["--dry-run"]).dry_run
`,
  "calc/report.py": `def render(total, parts):
    lines = ["Total amount: %s" % total]
    for part in parts:
        lines.append("Total amount: %s of which %s" % (total, part))
    return "\\n".join(lines)
`,
  "calc/summary.py": `def summary(total):
    return "Total amount: " + str(total)
`,
  "calc/_vendor/__init__.py": "",
  "calc/_vendor/tokens.py": `def tokenize(text):
    return text.split()
`,
};

let fx: IndexedFixture;
let cleanup: () => Promise<void>;
let repoDir: string;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-diagnostic-"));
  repoDir = mkdtempSync(path.join(os.tmpdir(), "wf-calc-"));
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(repoDir, file)), { recursive: true });
    writeFileSync(path.join(repoDir, file), text);
  }
  fx = await indexFixture(repoDir, "calc");
});
afterAll(async () => {
  await cleanup();
  rmSync(repoDir, { recursive: true, force: true });
});

const diagnose = (question: string) => retrieveReport(fx.repositoryId, question, { mode: "diagnostic" });

const stdlibFrames = Array.from(
  { length: 14 },
  (_, i) => `  File "/usr/lib/python3.11/argparse.py", line ${100 + i}, in step_${i}\n    value = step()`,
).join("\n");

describe("stack frames in diagnostic retrieval", () => {
  it("takes the innermost frame of a pytest report as the error site and ranks its file first", async () => {
    const report = `calc crashes on words
\`\`\`
/site-packages/calc/cli.py:7: in main
    return evaluate(expression)
/site-packages/calc/engine.py:7: in evaluate
    return combine(tokens)
E   ValueError: invalid literal for int() with base 10: 'two'
\`\`\``;
    const { signals, files } = await diagnose(report);
    expect(signals["error-site"]).toEqual(["calc/engine.py"]);
    expect(files[0]).toBe("calc/engine.py");
  });

  it("finds the repository's frames below a deep stack of standard-library ones", async () => {
    const report = `Traceback (most recent call last):
  File "/venv/lib/python3.11/site-packages/calc/cli.py", line 7, in main
    return evaluate(expression)
  File "/venv/lib/python3.11/site-packages/calc/engine.py", line 7, in evaluate
    return combine(tokens)
${stdlibFrames}
re.error: bad escape`;
    const { signals } = await diagnose(report);
    expect(signals.stack).toEqual(["calc/engine.py", "calc/cli.py"]);
    expect(signals["error-site"]).toEqual(["calc/engine.py"]);
  });

  it("passes over vendored code for the error site", async () => {
    const report = `Traceback (most recent call last):
  File "/venv/lib/python3.11/site-packages/calc/engine.py", line 6, in evaluate
    tokens = tokenize(expression)
  File "/venv/lib/python3.11/site-packages/calc/_vendor/tokens.py", line 2, in tokenize
    return text.split()
AttributeError: 'int' object has no attribute 'split'`;
    const { signals } = await diagnose(report);
    expect(signals.stack).toEqual(["calc/_vendor/tokens.py", "calc/engine.py"]);
    expect(signals["error-site"]).toEqual(["calc/engine.py"]);
  });
});

describe("literals in diagnostic retrieval", () => {
  it("finds where an option the report names is defined, before the tests that use it", async () => {
    const { signals, symbols } = await diagnose("`calc --dry-run` still writes the output file");
    expect(signals.literals?.[0]).toBe("calc/options.py");
    expect(signals.literals).toContain("tests/test_options.py");
    expect(symbols).toContain("calc/options.py::parser");
  });

  it("finds the code that writes a heading of pasted output, the file writing it most first", async () => {
    const report = "The total is wrong:\n```\nTotal amount: 12\n```";
    const { signals } = await diagnose(report);
    expect(signals.literals).toEqual(["calc/report.py", "calc/summary.py"]);
  });

  it("finds a configuration key written at module level", async () => {
    const report = "The depth limit is ignored\n```ini\n[calc]\nmax-depth = 2\n```";
    const { signals } = await diagnose(report);
    expect(signals.literals).toEqual(["calc/options.py"]);
  });
});

describe("paths in diagnostic retrieval", () => {
  it("takes a bare file name only when one file of the repository has it", async () => {
    expect((await diagnose("Importing calc fails in `__init__.py` somewhere")).signals.paths).toEqual([]);
    expect((await diagnose("Something is wrong in engine.py")).signals.paths).toEqual(["calc/engine.py"]);
  });

  it("lets a written path make the question about tests only when it looks like a test path itself", () => {
    const fixture = "tests/data/pkg/__init__.py";
    expect(pointedAt("pkg/__init__.py", [fixture, "src/pkg/__init__.py"])).toEqual(["src/pkg/__init__.py"]);
    expect(pointedAt("tests/data/pkg/__init__.py", [fixture])).toEqual([fixture]);
    expect(pointedAt("/home/me/proj/tests/test_x.py", ["tests/test_x.py"])).toEqual(["tests/test_x.py"]);
    expect(pointedAt("test_x.py", ["tests/test_x.py"])).toEqual([]);
  });
});

describe("the files a diagnostic answer puts forward", () => {
  const ranked = ["mux.go", "mux_test.go", "route.go", "docs/routing.md", "regexp.go", "middleware.go"];

  it("put the code before tests and docs, each in its order", () => {
    expect(sourceFilesFirst(ranked, [])).toEqual([
      "mux.go",
      "route.go",
      "regexp.go",
      "middleware.go",
      "mux_test.go",
      "docs/routing.md",
    ]);
  });

  it("keep a test in its place when the question names one", () => {
    expect(sourceFilesFirst(ranked, ["mux_test.go"]).slice(0, 2)).toEqual(["mux.go", "mux_test.go"]);
  });
});

describe("the symbols a diagnostic answer puts forward", () => {
  it("give one place to each function and each error type (C#, TypeScript)", () => {
    const ranked = [
      "src/AsyncException.cs::AsyncException.BuildMessage",
      "src/AbstractValidator.cs::AbstractValidator.Validate",
      "src/AsyncException.cs::AsyncException.AsyncException",
      "src/AsyncException.cs::AsyncException.AsyncException#2",
      "src/AbstractValidator.cs::AbstractValidator.Validate#3",
      "src/RuleComponent.cs::RuleComponent.Validate",
      "source/errors/HTTPError.ts::HTTPError",
      "source/utils/type-guards.ts::isHTTPError",
      "source/core/Ky.ts::Ky.#getResponseData",
    ];
    expect(oneSlotEach(ranked)).toEqual([
      "src/AsyncException.cs::AsyncException.BuildMessage",
      "src/AbstractValidator.cs::AbstractValidator.Validate",
      "src/RuleComponent.cs::RuleComponent.Validate",
      "source/errors/HTTPError.ts::HTTPError",
      "source/core/Ky.ts::Ky.#getResponseData",
      "src/AsyncException.cs::AsyncException.AsyncException",
      "src/AsyncException.cs::AsyncException.AsyncException#2",
      "src/AbstractValidator.cs::AbstractValidator.Validate#3",
      "source/utils/type-guards.ts::isHTTPError",
    ]);
  });

  it("keep the place of an error type's member that writes the quoted message (Rust, Python)", () => {
    const ranked = [
      "src/error.rs::Error.from_io",
      "src/error.rs::Error.fmt",
      "src/walk.rs::Walker.push",
      "pkg/errors.py::FetchError.__init__",
      "pkg/guards.py::isFetchError",
      "pkg/errors.py::FetchError.__str__",
    ];
    const writers = new Set(["src/error.rs::Error.fmt", "pkg/errors.py::FetchError.__str__"]);
    // The writers keep their places; another member of the type still waits below the rest.
    expect(oneSlotEach(ranked, writers)).toEqual([
      "src/error.rs::Error.from_io",
      "src/error.rs::Error.fmt",
      "src/walk.rs::Walker.push",
      "pkg/errors.py::FetchError.__init__",
      "pkg/errors.py::FetchError.__str__",
      "pkg/guards.py::isFetchError",
    ]);
    // Without the message found there, a second member of each type waits below the rest.
    expect(oneSlotEach(ranked)).toEqual([
      "src/error.rs::Error.from_io",
      "src/walk.rs::Walker.push",
      "pkg/errors.py::FetchError.__init__",
      "src/error.rs::Error.fmt",
      "pkg/guards.py::isFetchError",
      "pkg/errors.py::FetchError.__str__",
    ]);
  });
});
