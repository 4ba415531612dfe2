/**
 * The learned symbol ranker: the features of a small fixture of candidates, scoring and
 * reordering with a model, and training that learns a separating feature and gives the
 * same weights for the same data.
 */
import { describe, expect, it } from "vitest";
import type { SymbolRecord } from "../../db/code-graph.ts";
import {
  candidateFeatures,
  FEATURE_NAMES,
  type FeatureName,
  type RankingContext,
} from "./symbol-features.ts";
import {
  chainKept,
  modelOrder,
  ranksMode,
  reorder,
  scoreCandidate,
  shippedRanker,
  type RankerModel,
} from "./symbol-ranker.ts";
import {
  crossValidate,
  rankedIds,
  rankingFigures,
  trainRanker,
  type RankingExample,
} from "./symbol-ranker-train.ts";
import { symbolRecord } from "../../../test-support/symbol-record.ts";

const symbol = symbolRecord;

function context(records: SymbolRecord[], extra: Partial<RankingContext> = {}): RankingContext {
  return {
    question: "How does the router decide the retry backoff delay?",
    mode: "conceptual",
    ids: records.map((r) => r.qualifiedId),
    records: new Map(records.map((r) => [r.qualifiedId, r])),
    bodies: new Map(),
    rankedFiles: ["router.go", "retry.go"],
    signals: { bm25: ["retry.go", "router.go"], names: ["router.go"] },
    ...extra,
  };
}

const at = (row: number[], name: FeatureName) => row[FEATURE_NAMES.indexOf(name)];

describe("candidate features", () => {
  const serve = symbol("router.go", "Router.ServeHTTP", {
    calls: JSON.stringify([{ name: "backoffDelay" }]),
  });
  const helper = symbol("util.go", "trim");
  const test = symbol("router_test.go", "TestRouter", { endLine: 2 });
  const delay = symbol("retry.go", "backoffDelay", { docstring: "computes the retry wait" });
  const ctx = context([serve, helper, test, delay], {
    bodies: new Map([
      [delay.qualifiedId, "func backoffDelay(attempt int) time.Duration { return base << attempt }"],
    ]),
  });
  const rows = candidateFeatures(ctx);

  it("gives one vector per candidate, as wide as the feature names", () => {
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(row).toHaveLength(FEATURE_NAMES.length);
  });

  it("reads the current rank and the file's place in the ranking and the signals", () => {
    expect(at(rows[0]!, "rank-first")).toBe(1);
    expect(at(rows[3]!, "rank-inverse")).toBeCloseTo(0.25);
    expect(at(rows[3]!, "file-rank-inverse")).toBeCloseTo(0.5);
    expect(at(rows[1]!, "file-unranked")).toBe(1);
    expect(at(rows[3]!, "signals-any")).toBeCloseTo(0.5);
    expect(at(rows[0]!, "signals-top5")).toBe(1);
  });

  it("counts the question's terms in the name, doc and body", () => {
    // retry, backoff, delay out of the question's concept terms
    expect(at(rows[3]!, "name-parts-matched")).toBe(1);
    expect(at(rows[3]!, "name-terms")).toBeGreaterThan(at(rows[1]!, "name-terms")!);
    expect(at(rows[3]!, "doc-terms")).toBeGreaterThan(0);
    expect(at(rows[3]!, "body-terms")).toBeGreaterThan(0);
    expect(at(rows[0]!, "parent-terms")).toBeGreaterThan(0);
    // only one body read carries the terms: they are rare among the candidates
    expect(at(rows[3]!, "rare-body-terms")).toBeGreaterThan(0);
    expect(at(rows[0]!, "body-terms-below-best")).toBeCloseTo(at(rows[3]!, "body-terms")!);
  });

  it("marks tests, tiny bodies, kinds and calls from the leading candidates", () => {
    expect(at(rows[2]!, "test")).toBe(1);
    expect(at(rows[2]!, "left-out-by-default")).toBe(1);
    expect(at(rows[0]!, "left-out-by-default")).toBe(0);
    expect(at(rows[2]!, "tiny")).toBe(1);
    expect(at(rows[0]!, "test")).toBe(0);
    expect(at(rows[0]!, "callable")).toBe(1);
    expect(at(rows[3]!, "called-by-first")).toBe(1);
    expect(at(rows[1]!, "called-by-first")).toBe(0);
    expect(at(rows[0]!, "calls-candidates")).toBeGreaterThan(0);
    expect(at(rows[3]!, "called-by-candidates")).toBeGreaterThan(0);
  });

  it("gives an id that is not in the index only its rank", () => {
    const row = candidateFeatures(context([serve], { ids: ["gone.go::missing", serve.qualifiedId] }))[0]!;
    expect(at(row, "unknown-symbol")).toBe(1);
    expect(at(row, "name-terms")).toBe(0);
    expect(at(row, "rank-first")).toBe(1);
  });
});

function model(
  weights: Partial<Record<FeatureName, number>>,
  perMode: RankerModel["perMode"] = {},
): RankerModel {
  return {
    version: 1,
    features: [...FEATURE_NAMES],
    topN: 3,
    shared: FEATURE_NAMES.map((n) => weights[n] ?? 0),
    perMode,
    trained: {},
  };
}

describe("scoring", () => {
  it("adds the mode's weights to the shared ones", () => {
    const m = model(
      { "name-terms": 2 },
      { diagnostic: FEATURE_NAMES.map((n) => (n === "name-terms" ? 1 : 0)) },
    );
    const f = FEATURE_NAMES.map((n) => (n === "name-terms" ? 0.5 : 0));
    expect(scoreCandidate(m, "conceptual", f)).toBeCloseTo(1);
    expect(scoreCandidate(m, "diagnostic", f)).toBeCloseTo(1.5);
  });

  it("reorders by score and keeps ties in their current order", () => {
    expect(reorder(["a", "b", "c", "d"], [0, 1, 0, 1])).toEqual(["b", "d", "a", "c"]);
  });

  it("never lifts a candidate left out by default into the first five", () => {
    const f = (terms: number, leftOut: number) =>
      FEATURE_NAMES.map((n) => (n === "name-terms" ? terms : n === "left-out-by-default" ? leftOut : 0));
    const ids = ["a", "b", "c", "d", "e", "test", "g"];
    const features = [f(0, 0), f(0, 0), f(0, 0), f(0, 0), f(0, 0), f(1, 1), f(1, 0)];
    expect(modelOrder(model({ "name-terms": 1 }), "conceptual", ids, features)).toEqual([
      "g",
      "a",
      "b",
      "c",
      "d",
      "e",
      "test",
    ]);
    // one already among the first five keeps whatever place the model gives it
    expect(modelOrder(model({ "name-terms": 1 }), "conceptual", ["a", "test"], [f(0, 0), f(1, 1)])).toEqual([
      "test",
      "a",
    ]);
  });

  it("reorders only the first topN candidates of an example", () => {
    const feature = (x: number) => FEATURE_NAMES.map((n) => (n === "name-terms" ? x : 0));
    const example: RankingExample = {
      id: "q",
      corpus: "r",
      expectedMode: "conceptual",
      mode: "conceptual",
      expected: ["b"],
      candidates: [
        { id: "a", label: 0, features: feature(0) },
        { id: "b", label: 0, features: feature(0.2) },
        { id: "c", label: 1, features: feature(0.9) },
        { id: "d", label: 0, features: feature(1) },
      ],
    };
    expect(rankedIds(example, model({ "name-terms": 1 }))).toEqual(["c", "b", "a", "d"]);
    expect(rankedIds(example, null)).toEqual(["a", "b", "c", "d"]);
  });

  it("keeps a traced chain's first steps in their places and reorders what follows", () => {
    const ids = ["entry", "step", "next", "tail", "helper", "neighbour"];
    const ordered = ["neighbour", "helper", "tail", "next", "entry", "step"];
    expect(chainKept(ids, ordered, 5)).toEqual(["entry", "step", "next", "neighbour", "helper", "tail"]);
    expect(chainKept(ids, ordered, 1)).toEqual(["entry", "neighbour", "helper", "tail", "next", "step"]);
    expect(chainKept(ids, ordered, 0)).toEqual(ordered);
  });

  it("reorders every mode's ranking but the analytical one", () => {
    expect(["conceptual", "diagnostic", "exploratory"].every((m) => ranksMode(m as "conceptual"))).toBe(true);
    expect(ranksMode("analytical")).toBe(false);
  });

  it("ships weights for the features this build computes, or none", () => {
    const shipped = shippedRanker();
    if (shipped) expect(shipped.features).toEqual([...FEATURE_NAMES]);
    else expect(shipped).toBeNull();
  });
});

/** Questions whose expected symbol is the one whose name carries the question's terms, ranked third. */
function synthetic(corpora: number, perCorpus: number): RankingExample[] {
  const out: RankingExample[] = [];
  for (let c = 0; c < corpora; c++) {
    for (let q = 0; q < perCorpus; q++) {
      const candidates = Array.from({ length: 8 }, (_, rank) => {
        const expected = rank === 2 + ((c + q) % 3);
        const features = FEATURE_NAMES.map((n) => {
          if (n === "rank-inverse") return 1 / (rank + 1);
          if (n === "name-terms") return expected ? 0.8 : ((rank * 7 + q) % 5) / 20;
          if (n === "test") return rank % 4 === 1 ? 1 : 0;
          return 0;
        });
        return { id: `r${c}/q${q}::s${rank}`, label: (expected ? 1 : 0) as 0 | 1, features };
      });
      const target = candidates.find((x) => x.label === 1)!.id;
      out.push({
        id: `r${c}-q${q}`,
        corpus: `r${c}`,
        expectedMode: q % 2 ? "conceptual" : "diagnostic",
        mode: q % 2 ? "conceptual" : "diagnostic",
        expected: [target],
        candidates,
      });
    }
  }
  return out;
}

describe("training", () => {
  const options = { topN: 8, iterations: 60, learningRate: 0.5, sharedL2: 0.01, modeL2: 0.1 };

  it("learns the feature that marks the expected symbols", () => {
    const m = trainRanker(synthetic(3, 6), options);
    expect(m.shared[FEATURE_NAMES.indexOf("name-terms")]).toBeGreaterThan(0);
    expect(m.features).toEqual([...FEATURE_NAMES]);
  });

  it("gives the same weights for the same data", () => {
    const data = synthetic(3, 6);
    expect(JSON.stringify(trainRanker(data, options))).toBe(JSON.stringify(trainRanker(data, options)));
  });

  it("reports repository-held-out figures beside the current order", () => {
    const cv = crossValidate(synthetic(3, 6), options);
    expect(cv.all!.current.hit1).toBe(0);
    expect(cv.all!.model.hit1).toBeGreaterThan(cv.all!.current.hit1);
    expect(cv.conceptual!.current.questions + cv.diagnostic!.current.questions).toBe(18);
  });

  it("counts every expected entry for hit@5 and each one for each@5", () => {
    const f = rankingFigures([
      { ranked: ["a", "b#2", "c"], expected: ["b", ["x", "c"]] },
      { ranked: ["a", "b", "c", "d", "e", "f"], expected: ["a", "f"] },
    ]);
    expect(f).toEqual({ questions: 2, hit5: 50, each5: 75, hit1: 0 });
  });
});
