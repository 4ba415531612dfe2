import { describe, expect, it } from "vitest";
import { classifyOffline, CLOSE_RATIO } from "./classify.ts";
import { prepare } from "./classify-rules.ts";
import { diagnosticEvidence } from "./diagnostic-evidence.ts";
import type { ModeModel } from "./classify-model.ts";
import { DEFAULT_FEATURE_OPTIONS } from "./classify-features.ts";

// A hand-set model (columns: conceptual, diagnostic, exploratory, analytical) whose
// behaviour is known: "failed" and "error" pull to diagnostic, "walk" to exploratory,
// "cycles" to analytical; a slight conceptual prior.
function model(weights: Record<string, number[]>): ModeModel {
  return {
    version: 1,
    modes: ["conceptual", "diagnostic", "exploratory", "analytical"],
    options: DEFAULT_FEATURE_OPTIONS,
    bias: [0.2, 0, 0, 0],
    weights,
    trained: {},
  };
}
const HAND = model({
  "w:failed": [0, 3, 0, 0],
  "w:error": [0, 3, 0, 0],
  "w:crashes": [0, 3, 0, 0],
  "w:walk": [0, 0, 2.5, 0],
  "w:cycles": [0, 0, 0, 3],
  "w:flow": [1.2, 0, 1.2, 0],
});

describe("the diagnostic rule", () => {
  it("does not route to diagnostic on a failure word when nothing is an error, log line or symptom", () => {
    const c = classifyOffline("How does the queue decide when a failed job is retried?", HAND);
    expect(c.mode).toBe("conceptual");
    expect(c.reasoning).toMatch(/no error, log line or symptom/);
    expect(c.probabilities.map((p) => p.mode)).not.toContain("diagnostic");
  });

  it("keeps diagnostic when the question reports a symptom or quotes an error", () => {
    expect(classifyOffline("The worker crashes when a failed job is retried", HAND).mode).toBe("diagnostic");
    expect(classifyOffline("Why do I get ValueError: bad job when a failed job is retried?", HAND).mode).toBe(
      "diagnostic",
    );
    expect(classifyOffline("2024-05-01 12:00:03 ERROR job 7 failed: connection reset", HAND).mode).toBe(
      "diagnostic",
    );
  });

  it("finds errors, log lines and symptoms, not failure words", () => {
    const ids = (q: string) => diagnosticEvidence(prepare(q)).map((e) => e.id);
    expect(ids("how is a failed upload retried, and what error is shown?")).toEqual([]);
    expect(ids("When a browser sends If-None-Match, what decides whether a 304 is returned?")).toEqual([]);
    expect(ids("After upgrading, a request to /health returns 500")).toEqual(
      expect.arrayContaining(["symptom", "status"]),
    );
    expect(ids("Error: invalid file\n  thrown by loadFromBlob")).toContain("printed");
    expect(ids("[ERROR] worker 3 lost its lease")).toContain("log");
    expect(ids("it raises KeyError: 'id'")).toContain("exception");
    // A logged line quoted inside a sentence.
    expect(ids("My program prints: warning: invalid logging spec 'verbose', ignoring it. Why?")).toContain(
      "printed",
    );
    expect(ids("Which settings does the warning about the cache size depend on?")).not.toContain("printed");
  });

  it("reads a symptom inside a yes/no question about behaviour as a case, not a report", () => {
    const ids = (q: string) => diagnosticEvidence(prepare(q)).map((e) => e.id);
    expect(
      ids("With the default mode, does the validator keep running other checks after the first one fails?"),
    ).toEqual([]);
    expect(ids("Will the pool still hand out connections after one of them times out?")).toEqual([]);
    expect(
      ids("The validator fails on the second rule. Does that mean the first one was skipped?"),
    ).toContain("symptom");
    expect(
      classifyOffline(
        "With the default mode, does the validator keep running other checks after the first one fails?",
        HAND,
      ).mode,
    ).toBe("conceptual");
  });
});

describe("the callers rule", () => {
  it.each([
    "Who calls flush_pending?",
    "What calls Session.merge_environment_settings?",
    "Which functions call the parser's visit method, and in which files?",
    "List the methods that run the beforeRequest hooks.",
    "What triggers a reload — who calls the watcher's run method?",
    // Creating one is calling its constructor: the census of the places that do.
    "Which functions create an HTTPError, and in which files?",
    "Which methods instantiate the default parser?",
  ])("routes the census of callers %j to analytical, with the model's choice beside it", (question) => {
    const c = classifyOffline(question, HAND);
    expect(c.mode).toBe("analytical");
    expect(c.secondaryMode).toBe("conceptual");
    expect(c.reasoning).toContain("callers of a symbol");
  });

  it("leaves the calls asked for in their order to the model: a run, not a census", () => {
    const q = "What calls flush_buffer, and in what order do those calls happen during shutdown?";
    expect(classifyOffline(q, model({ "w:order": [0, 0, 2.5, 0] })).mode).toBe("exploratory");
    expect(
      classifyOffline("What calls flush_buffer during shutdown?", model({ "w:order": [0, 0, 2.5, 0] })).mode,
    ).toBe("analytical");
  });

  it("leaves a flow, a use on the way and an error alone", () => {
    expect(classifyOffline("Walk me through what happens when I call client.send()", HAND).mode).toBe(
      "exploratory",
    );
    expect(classifyOffline("Where is the retry helper used on the way to the socket?", HAND).mode).toBe(
      "conceptual",
    );
    expect(classifyOffline("The worker crashes when a job calls flush_pending", HAND).mode).toBe(
      "diagnostic",
    );
  });
});

describe("the call rule", () => {
  it.each([
    "What does app.use(session.start()) do to each request?",
    "How does Builder.fromElement(element) build a method from an existing declaration?",
    "What does services.AddHandlersFrom<Startup>() register, and how are the handlers found?",
    "Our app wraps every route. What does router.mount(sub) do with the requests under its prefix?",
  ])(
    "routes what one call written as code does, %j, to exploratory with conceptual beside it",
    (question) => {
      const c = classifyOffline(question, HAND);
      expect(c.mode).toBe("exploratory");
      expect(c.secondaryMode).toBe("conceptual");
      expect(c.reasoning).toContain("what one call does when it runs");
    },
  );

  it("leaves a deciding, defining or returning question about a call, and one about a library, alone", () => {
    for (const question of [
      "How does diff() compute the difference in months?",
      "What does Sub(name) return, and does it still see the parent's overrides?",
      "How does die() decide whether to throw the full message?",
      "What is tracked() for in subscriptions?",
      "How does the router build its tree of routes?",
      "How does append(object) treat arrays and collections?",
    ])
      expect(classifyOffline(question, HAND).mode, question).toBe("conceptual");
  });
});

describe("the run and decision rules", () => {
  it("routes what follows an event to exploratory, with conceptual beside it", () => {
    const c = classifyOffline("What happens after the pool hands a connection back?", HAND);
    expect(c.mode).toBe("exploratory");
    expect(c.secondaryMode).toBe("conceptual");
    expect(c.reasoning).toContain("what follows an event or where a value goes");
  });

  it("routes a decision asked after a narrated scene to conceptual, with exploratory beside it", () => {
    const q = "If I walk the list with add(a) then add(b), where is the order decided?";
    expect(classifyOffline(q, model({ "w:walk": [0, 0, 2.5, 0] })).mode).toBe("conceptual");
    const c = classifyOffline(q, HAND);
    expect(c.secondaryMode).toBe("exploratory");
    expect(c.reasoning).toContain("Asks what decides");
  });

  it("routes what a program does as it starts and how one part is wired to another to exploratory", () => {
    for (const q of [
      "At startup, how does the server load its configuration and hand it to the workers?",
      "How is the thread pool wired to the accept loop?",
    ]) {
      const c = classifyOffline(q, HAND);
      expect(c.mode, q).toBe("exploratory");
      expect(c.secondaryMode, q).toBe("conceptual");
    }
    expect(
      classifyOffline("At startup, how does the server decide how many workers to boot?", HAND).mode,
    ).toBe("conceptual");
  });

  it("routes which of two outcomes the code gives in a case to conceptual, with exploratory beside it", () => {
    const q = "If I walk the list with add(a) then add(b), are both kept or is the first replaced?";
    const c = classifyOffline(q, model({ "w:walk": [0, 0, 2.5, 0] }));
    expect(c.mode).toBe("conceptual");
    expect(c.secondaryMode).toBe("exploratory");
    expect(c.reasoning).toContain("two outcomes");
    expect(
      classifyOffline("Walk me through whether the list keeps both or replaces the first.", HAND).mode,
    ).toBe("exploratory");
  });
});

describe("the values rule", () => {
  const ANALYTICAL = model({ "w:which": [0, 0, 0, 3] });
  it.each([
    "Which escape sequences are allowed inside double-quoted values?",
    "Which HTTP methods and status codes make the client retry a response?",
    "When the logger writes to log files, which messages are also copied to stderr?",
  ])("routes %j, which names no part of the code, to conceptual with analytical beside it", (q) => {
    const c = classifyOffline(q, ANALYTICAL);
    expect(c.mode).toBe("conceptual");
    expect(c.secondaryMode).toBe("analytical");
    expect(c.reasoning).toContain("asks what a rule accepts");
  });

  it.each([
    "Which headers are included by the most source files?",
    "Which helpers in utils are depended on most?",
    "Which helpers in util.go are unused?",
    "Which methods of the parser read the buffer?",
    "Which places construct a parser? List them.",
  ])("leaves %j, about the code's structure, analytical", (q) => {
    expect(classifyOffline(q, ANALYTICAL).mode).toBe("analytical");
  });
});

describe("close calls", () => {
  it("names a close runner-up, which is then retrieved too", () => {
    const c = classifyOffline("How does a message flow through the broker?", HAND);
    expect(c.mode).toBe("conceptual");
    expect(c.secondaryMode).toBe("exploratory");
    expect(c.reasoning).toContain("conceptual or exploratory: retrieved for both");
  });

  it("names none when the top mode is clear", () => {
    const c = classifyOffline("Are there import cycles among the plugins?", HAND);
    expect(c.mode).toBe("analytical");
    expect(c.secondaryMode).toBeNull();
    expect((c.probabilities[1]?.p ?? 0) / (c.probabilities[0]?.p ?? 1)).toBeLessThan(CLOSE_RATIO);
  });
});

describe("the shipped classifier", () => {
  it.each([
    ["Which files are imported by the most other files?", "analytical"],
    ["Are there import cycles among the modules of the core package?", "analytical"],
    ["Walk me through what happens when the CLI's main command runs", "exploratory"],
    ["Traceback (most recent call last):\n  File \"a.py\", line 3, in f\nKeyError: 'x'", "diagnostic"],
    ["What does the Config class hold?", "conceptual"],
    // the conceptual/exploratory boundary: a path through the code against one deciding place
    ["How does the config file's value reach the worker pool?", "exploratory"],
    ["How does the router dispatch a request to the matching handler?", "exploratory"],
    ["How does the client decide that a response is an error?", "conceptual"],
    // context first, the question last
    [
      "We run the server behind nginx. How does the X-Forwarded-For header get to request.remote_addr?",
      "exploratory",
    ],
    ["Is there a cycle between the server and client packages?", "analytical"],
    ["How many classes implement the Handler interface?", "analytical"],
    ["Who calls the function that flushes the write buffer?", "analytical"],
    ["What calls Parser.parse_args?", "analytical"],
  ])("classifies %j as %s", (question, mode) => {
    expect(classifyOffline(question).mode).toBe(mode);
  });
});
