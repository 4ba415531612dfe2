// Ranking helpers of the mode retrievers: weighted fusion, per-file fusion and the
// demotion of tests, docs and vendored code that diagnostic localization relies on.
import { describe, expect, it } from "vitest";
import type { ChunkHit } from "../../db/code-graph";
import {
  auxiliaryFactor,
  demoteAuxiliary,
  topicsOfPaths,
  demoteTestSymbols,
  fuseFiles,
  fuseSignals,
  isTestPath,
  isTestSymbol,
  type Candidate,
  type SignalList,
} from "./shared";

function chunk(path: string, startLine = 1): Candidate {
  const hit: ChunkHit = {
    id: startLine,
    path,
    kind: "code",
    symbolId: null,
    title: path,
    startLine,
    endLine: startLine + 5,
    text: "",
    score: 1,
  };
  return { key: `${path}:${startLine}`, symbol: null, chunk: hit, reason: "test" };
}

describe("isTestPath", () => {
  it.each([
    ["tests/test_api.py", true],
    ["src/pkg/tests/helpers.py", true],
    ["testing/test_mark.py", true],
    ["pkg/conftest.py", true],
    ["lib/qa/loop.test.ts", true],
    ["server_test.go", true],
    ["src/cleanup_immediately_unittest.cc", true],
    ["src/unittest_main.cc", false],
    ["src/FluentValidation.Tests/CascadingFailuresTester.cs", true],
    ["tests/Serilog.Tests/Core/LoggerTests.cs", true],
    ["tracing-subscriber/src/layer/tests.rs", true],
    ["tracing-subscriber/src/layer/mod.rs", false],
    ["src/tests_support.rs", false],
    ["src/FluentValidation/Validators/EmailValidator.cs", false],
    ["src/_pytest/skipping.py", false],
    ["lib/testimony/core.py", false],
  ])("%s → %s", (path, expected) => expect(isTestPath(path)).toBe(expected));
});

describe("fuseSignals", () => {
  it("adds evidence for the same candidate across lists and keeps every reason", () => {
    const lists: SignalList[] = [
      { name: "a", weight: 1, candidates: [chunk("x.py"), chunk("y.py")] },
      { name: "b", weight: 1, candidates: [chunk("y.py")] },
    ];
    const ranked = fuseSignals(lists);
    expect(ranked[0]?.candidate.key).toBe("y.py:1");
    expect(ranked[0]?.reasons).toEqual(["test"]);
    expect(ranked).toHaveLength(2);
  });

  it("lets a heavier signal win over a lighter one at the same rank", () => {
    const ranked = fuseSignals([
      { name: "light", weight: 1, candidates: [chunk("light.py")] },
      { name: "heavy", weight: 3, candidates: [chunk("heavy.py")] },
    ]);
    expect(ranked.map((r) => r.candidate.key)).toEqual(["heavy.py:1", "light.py:1"]);
  });
});

describe("demoteAuxiliary", () => {
  const lists: SignalList[] = [
    {
      name: "bm25",
      weight: 2,
      candidates: [chunk("tests/test_core.py"), chunk("docs/guide.py"), chunk("pkg/core.py")],
    },
  ];

  it("puts library source above tests and docs that rank higher on raw evidence", () => {
    const order = demoteAuxiliary(fuseSignals(lists), []).map((r) => r.candidate.chunk?.path);
    expect(order[0]).toBe("pkg/core.py");
  });

  it("keeps tests where they are when the question names a test file of the repository", () => {
    const order = demoteAuxiliary(fuseSignals(lists), ["tests/test_core.py"]).map(
      (r) => r.candidate.chunk?.path,
    );
    expect(order[0]).toBe("tests/test_core.py");
  });
});

describe("fuseFiles", () => {
  it("credits a file for evidence from different chunks and different signals", () => {
    const lists: SignalList[] = [
      // b.py is never first, but two signals point at it through different chunks.
      { name: "bm25", weight: 2, candidates: [chunk("a.py"), chunk("b.py", 10), chunk("c.py")] },
      { name: "named", weight: 2, candidates: [chunk("c.py"), chunk("b.py", 40)] },
      { name: "semantic", weight: 1, candidates: [chunk("b.py", 70)] },
    ];
    expect(fuseFiles(lists, [])[0]).toBe("b.py");
  });

  it("demotes vendored third-party code inside a package", () => {
    const lists: SignalList[] = [
      {
        name: "bm25",
        weight: 2,
        candidates: [chunk("requests/packages/urllib3/response.py"), chunk("requests/models.py")],
      },
    ];
    expect(fuseFiles(lists, [])).toEqual(["requests/models.py", "requests/packages/urllib3/response.py"]);
  });
});

describe("auxiliaryFactor", () => {
  it.each([
    "bench/skip.py",
    "benches/parse.rs",
    "benchmarks/run.py",
    "asv_bench/benchmarks/io.py",
    "docs/conf.py",
    "samples/MediatR.Examples/ExceptionHandler/Handlers.cs",
    "demo/src/app.js",
    "karma.sauce.conf.js",
    "webpack.config.js",
    "build/rollup.config.mjs",
    "gulpfile.js",
  ])("demotes %s like documentation", (p) =>
    expect(auxiliaryFactor(p, { tests: false, docs: false })).toBe(0.5),
  );

  it("keeps source whose name only starts like a benchmark folder", () => {
    expect(auxiliaryFactor("src/bench_utils/core.py", { tests: false, docs: false })).toBe(1);
    expect(auxiliaryFactor("lib/benchmark.py", { tests: false, docs: false })).toBe(1);
    expect(auxiliaryFactor("src/config.js", { tests: false, docs: false })).toBe(1);
    // A package named demo (`org.acme.demo`) is source: only top-level samples/demo folders are examples.
    expect(auxiliaryFactor("src/main/java/org/acme/demo/App.java", { tests: false, docs: false })).toBe(1);
    // Nor is a package under a reverse domain named example (`com.example.shop`), the name project generators give.
    expect(
      auxiliaryFactor("src/main/java/com/example/shop/OrderService.java", { tests: false, docs: false }),
    ).toBe(1);
    expect(auxiliaryFactor("app/src/main/kotlin/org/example/App.kt", { tests: false, docs: false })).toBe(1);
    expect(auxiliaryFactor("lib/examples/basic.rb", { tests: false, docs: false })).toBe(0.5);
  });
});

describe("test support in ranking", () => {
  const support = ["dummyserver"];
  it("demotes a folder only tests use like the tests, unless the question is about tests or names it", () => {
    const topics = { tests: false, docs: false, testSupport: support };
    expect(auxiliaryFactor("dummyserver/app.py", topics)).toBe(auxiliaryFactor("test/test_retry.py", topics));
    expect(auxiliaryFactor("dummyserver/app.py", topics)).toBeLessThan(1);
    expect(auxiliaryFactor("src/httpkit/util/retry.py", topics)).toBe(1);
    // A folder merely sharing the name's start is not it.
    expect(auxiliaryFactor("dummyserver_docs/x.py", topics)).toBe(1);
    expect(auxiliaryFactor("dummyserver/app.py", { ...topics, tests: true })).toBe(1);
    const named = topicsOfPaths(["dummyserver/app.py"], topics);
    expect(named.tests).toBe(true);
    expect(auxiliaryFactor("dummyserver/app.py", named)).toBe(1);
    expect(topicsOfPaths(["src/httpkit/util/retry.py"], topics).tests).toBe(false);
  });

  it("ranks a test-support candidate below the library's own in demoteAuxiliary", () => {
    const candidate = (path: string, score: number) =>
      ({ candidate: { symbol: { path } }, score }) as unknown as Parameters<
        typeof demoteAuxiliary
      >[0][number];
    const ranked = demoteAuxiliary(
      [candidate("dummyserver/app.py", 1), candidate("src/httpkit/util/retry.py", 0.6)],
      [],
      { tests: false, docs: false, testSupport: support },
    );
    expect(ranked.map((r) => r.candidate.symbol?.path)).toEqual([
      "src/httpkit/util/retry.py",
      "dummyserver/app.py",
    ]);
  });
});

describe("isTestSymbol", () => {
  it.each([
    ["src/fmt/format.rs", "tests.with_line_number", true],
    ["src/registry/sharded.rs", "tests.span_guards_drop", true],
    ["pkg/util.py", "test_parse", true],
    ["src/main/java/ParserTest.java", "ParserTest.parses", true],
    ["src/Parser.cs", "ParserTests.Parses", true],
    ["src/_pytest/reports.py", "TestReport.from_item_and_call", false],
    ["src/fmt/format.rs", "Format.format_event", false],
    ["lib/testimony/core.py", "attest", false],
  ])("%s %s → %s", (path, qualifiedName, expected) =>
    expect(isTestSymbol({ path, qualifiedName })).toBe(expected),
  );
});

describe("demoteTestSymbols", () => {
  const ranked = (qualifiedName: string, score: number) => ({
    candidate: {
      key: qualifiedName,
      symbol: { path: "src/lib.rs", qualifiedName } as never,
      chunk: null,
      reason: "test",
    },
    score,
    reasons: [],
  });

  it("puts a test written inside a source file after the code it tests", () => {
    const out = demoteTestSymbols([ranked("tests.enters", 1), ranked("Span.enter", 0.6)], {
      tests: false,
      docs: false,
    });
    expect(out.map((r) => r.candidate.key)).toEqual(["Span.enter", "tests.enters"]);
  });

  it("keeps its rank when the question is about tests", () => {
    const out = demoteTestSymbols([ranked("tests.enters", 1), ranked("Span.enter", 0.6)], {
      tests: true,
      docs: false,
    });
    expect(out.map((r) => r.candidate.key)).toEqual(["tests.enters", "Span.enter"]);
  });
});
