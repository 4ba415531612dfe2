import { describe, expect, it } from "vitest";
import {
  collapseCalls,
  DEFAULT_FEATURE_OPTIONS,
  proseSentences,
  questionFeatures,
} from "./classify-features.ts";
import { predictMode } from "./classify-model.ts";
import {
  chooseDecision,
  closeCallTable,
  confusionMatrix,
  DEFAULT_TRAIN_OPTIONS,
  formatConfusion,
  modelMode,
  recallByMode,
  routingCost,
  trainModeModel,
  type LabeledQuestion,
} from "./classify-train.ts";

// A small labelled set in the shape of the real corpus: each mode phrased several ways,
// names of code that differ from question to question.
const TRAIN: LabeledQuestion[] = [
  ["How does the scheduler decide which worker takes a job?", "conceptual"],
  ["What does parse_header return for an empty line?", "conceptual"],
  ["Where is the default timeout configured?", "conceptual"],
  ["How does the cache decide when an entry is stale?", "conceptual"],
  ["What is the Registry class for?", "conceptual"],
  ["Explain how retries are computed in the client", "conceptual"],
  ["Why am I getting KeyError: 'user' in load_profile?", "diagnostic"],
  [
    'Traceback (most recent call last):\n  File "app.py", line 3, in run\nValueError: bad input',
    "diagnostic",
  ],
  ["After upgrading, GET /items returns 500 and the log says ERROR connection reset", "diagnostic"],
  ["The server crashes when a header is longer than 8k", "diagnostic"],
  ["Why does save() raise PermissionError on Windows?", "diagnostic"],
  ["render_page hangs forever when the template includes itself", "diagnostic"],
  ["Walk me through what happens when a request arrives at the router", "exploratory"],
  ["Trace the call chain from main to the database write", "exploratory"],
  ["What happens step by step when I call client.send()?", "exploratory"],
  ["Who calls flush_buffer and where is it used?", "exploratory"],
  ["Follow a message from the queue consumer to the handler", "exploratory"],
  ["In which order are the middleware functions called?", "exploratory"],
  ["Which modules are imported by the most other files?", "analytical"],
  ["Are there import cycles between the core and the plugins folders?", "analytical"],
  ["Which functions have the highest fan-in across the package?", "analytical"],
  ["How coupled are the api and storage packages?", "analytical"],
  ["Which files are depended on most across the whole repository?", "analytical"],
  ["Is there dead code in the utils folder?", "analytical"],
].map(([question, mode]) => ({ question, mode }) as LabeledQuestion);

const FAST = { ...DEFAULT_TRAIN_OPTIONS, iterations: 120, minDf: 1 };

describe("question features", () => {
  it("reduces code, paths, statuses and quotations to their kind and keeps the words", () => {
    const [sentence] = proseSentences(
      'Why does `merge_core` in src/app/core.py return 404 for "no such key"?',
    );
    expect(sentence).toEqual([
      "why",
      "does",
      "<code>",
      "in",
      "<path>",
      "return",
      "<status>",
      "for",
      "<quote>",
      "no",
      "such",
      "key",
    ]);
  });

  it("has word, pair, sentence-start, character, rule and shape features", () => {
    const f = questionFeatures("Walk me through how imports are resolved");
    expect(f.get("w:walk")).toBe(1);
    expect(f.get("b:walk_me")).toBe(1);
    expect(f.get("s:walk_me")).toBe(1);
    expect(f.has("c:impor")).toBe(true);
    expect(f.get("r:trace-request")).toBe(1);
    expect(f.get("x:no-evidence")).toBe(1);
    expect(questionFeatures("it raises ValueError: boom").get("x:evidence-exception")).toBe(1);
  });

  it("reads a call written with its arguments as one call, in every language's spelling", () => {
    const words = (q: string) => [...questionFeatures(q).keys()].filter((k) => k.startsWith("w:"));
    // the values passed are the user's: none of their words is a feature
    const js = words(
      "If I pass an array to passport.authenticate(['bearer', 'anonymous']), in what order are they tried?",
    );
    expect(js).toContain("w:<call>");
    expect(js.some((w) => /bearer|anonymous/.test(w))).toBe(false);
    // a chain of calls is one call; a call nested in the arguments too
    expect(collapseCalls("walk me through jwts.parser().verifywith(key).build(): what runs?")).toBe(
      "walk me through  §call : what runs?",
    );
    expect(collapseCalls("what does app.use(passport.initialize()) do?")).toBe("what does  §call  do?");
    expect(collapseCalls("what does node.as<int>() do")).toContain("§call");
    expect(collapseCalls("what does $dotenv->required(['db_host']) check")).toBe("what does  §call  check");
    expect(collapseCalls("how does ns::parse(buf, len) split it")).toBe("how does  §call  split it");
    // parentheses in prose, or left open, are not a call
    expect(collapseCalls("how does a string (and its arguments) become text")).toBe(
      "how does a string (and its arguments) become text",
    );
    expect(collapseCalls("what does f(x do")).toBe("what does f(x do");
    // off, the arguments' words stay
    expect([
      ...questionFeatures("what does f(alpha) do?", { ...DEFAULT_FEATURE_OPTIONS, calls: false }).keys(),
    ]).toContain("w:alpha");
  });
});

describe("training", () => {
  const model = trainModeModel(TRAIN, FAST);

  it("fits its training questions", () => {
    const matrix = confusionMatrix(
      TRAIN.map((t) => ({ expected: t.mode, predicted: modelMode(model, t.question) })),
    );
    expect(recallByMode(matrix).all).toBe(1);
  });

  it("generalizes to new questions of each kind", () => {
    expect(modelMode(model, "Which packages are imported by the most other modules?")).toBe("analytical");
    expect(modelMode(model, "Walk me through what happens when a job is enqueued")).toBe("exploratory");
    expect(modelMode(model, "Why am I getting TypeError: undefined is not a function in render?")).toBe(
      "diagnostic",
    );
    expect(modelMode(model, "How does the router decide which handler matches a path?")).toBe("conceptual");
  });

  it("gives the same weights for the same examples, whatever their order", () => {
    const again = trainModeModel([...TRAIN].reverse(), FAST);
    const a = trainModeModel(TRAIN, FAST);
    expect(again.bias).toEqual(a.bias);
    expect(Object.keys(again.weights).sort()).toEqual(Object.keys(a.weights).sort());
    for (const [name, w] of Object.entries(a.weights))
      for (let k = 0; k < w.length; k++) expect(again.weights[name]?.[k]).toBeCloseTo(w[k] as number, 3);
  });

  it("leaves out features seen in fewer than minDf questions and prunes tiny weights", () => {
    const strict = trainModeModel(TRAIN, { ...FAST, minDf: 3 });
    expect(Object.keys(strict.weights).length).toBeLessThan(Object.keys(model.weights).length);
    expect(strict.weights["w:flush"]).toBeUndefined();
    const pruned = trainModeModel(TRAIN, { ...FAST, prune: 10 });
    expect(Object.keys(pruned.weights)).toEqual([]);
  });

  it("names the cues of its prediction", () => {
    const prediction = predictMode("Are there import cycles between the plugins?", model);
    expect(prediction.ranked[0]?.mode).toBe("analytical");
    expect(prediction.ranked.reduce((n, r) => n + r.p, 0)).toBeCloseTo(1, 6);
    expect(prediction.cues.length).toBeGreaterThan(0);
  });
});

describe("decision factors", () => {
  const modes = ["conceptual", "diagnostic", "exploratory", "analytical"] as const;
  it("cost most when a question is kept away from analytical, little between conceptual and exploratory", () => {
    expect(routingCost("analytical", "conceptual")).toBeGreaterThan(routingCost("conceptual", "diagnostic"));
    expect(routingCost("conceptual", "diagnostic")).toBeGreaterThan(routingCost("conceptual", "exploratory"));
    expect(routingCost("diagnostic", "diagnostic")).toBe(0);
  });

  it("lean toward analytical when its questions are narrowly lost to other modes", () => {
    // Analytical questions whose analytical probability is just below conceptual's.
    const lost = Array.from({ length: 5 }, () => ({
      expected: "analytical" as const,
      p: [0.45, 0.05, 0.1, 0.4],
    }));
    const clear = Array.from({ length: 5 }, () => ({
      expected: "conceptual" as const,
      p: [0.8, 0.05, 0.1, 0.05],
    }));
    const w = chooseDecision([...modes], [...lost, ...clear]);
    expect(w[3]).toBeGreaterThan(1);
    expect(chooseDecision([...modes], clear)).toEqual([1, 1, 1, 1]);
  });
});

describe("close calls", () => {
  const modes = ["conceptual", "diagnostic", "exploratory", "analytical"] as const;
  const predictions = [
    // wrong top, right runner-up at 0.8 of it
    { expected: "exploratory" as const, p: [0.5, 0.05, 0.4, 0.05] },
    // wrong top, right runner-up at 0.25 of it
    { expected: "exploratory" as const, p: [0.8, 0, 0.2, 0] },
    // right and clear
    { expected: "analytical" as const, p: [0.05, 0.05, 0.1, 0.8] },
  ];

  it("counts what each ratio retrieves for two modes and which wrong top modes it covers", () => {
    const [loose, strict] = closeCallTable([...modes], predictions, [1, 1, 1, 1], [0.2, 0.5]);
    expect(loose).toEqual({ ratio: 0.2, fused: 2, rescued: 2, wrong: 2 });
    expect(strict).toEqual({ ratio: 0.5, fused: 1, rescued: 1, wrong: 2 });
  });

  it("reads the probabilities after the decision factors", () => {
    const [row] = closeCallTable([...modes], predictions, [1, 1, 2, 1], [0.5]);
    // doubled, exploratory is the top mode of the first question: no longer wrong
    expect(row?.wrong).toBe(1);
  });
});

describe("confusion matrix", () => {
  it("counts expected against predicted and reports recall per mode", () => {
    const matrix = confusionMatrix([
      { expected: "analytical", predicted: "analytical" },
      { expected: "analytical", predicted: "conceptual" },
      { expected: "diagnostic", predicted: "diagnostic" },
    ]);
    expect(matrix.analytical.conceptual).toBe(1);
    const recall = recallByMode(matrix);
    expect(recall.analytical).toBe(0.5);
    expect(recall.diagnostic).toBe(1);
    expect(recall.all).toBeCloseTo(2 / 3, 6);
    expect(formatConfusion(matrix)).toMatch(/analytical\s+1\s+0\s+0\s+1\s+50\.0%/);
  });
});
