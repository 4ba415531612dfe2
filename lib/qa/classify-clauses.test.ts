import { describe, expect, it } from "vitest";
import { askingClause, asksAboutCall, followsCall, verbClasses } from "./classify-clauses.ts";
import { clauseFeatures } from "./classify-features.ts";
import { prepare } from "./classify-rules.ts";

const features = (q: string) => clauseFeatures(prepare(q).prose);

describe("verb classes", () => {
  it.each([
    ["how does a request get from servehttp to the handler?", "motion"],
    ["how do the captured values end up in mux.vars(r)?", "motion"],
    ["how does sinatra dispatch a request to the matching route?", "motion"],
    ["how does the --max-columns setting reach the printer?", "motion"],
    ["how does the content-type header get set on the response?", "motion"],
    ["how is the format string turned into text?", "transform"],
    ["in what order do the hooks run?", "sequence"],
    ["what does handleblockmap do for each key/value pair?", "sequence"],
    ["how does the router decide between 404 and 405?", "decide"],
    ["what caps the number of retries?", "decide"],
    ["where is the retry limit defined?", "define"],
  ])("%j uses a verb of %s", (text, kind) => {
    expect(verbClasses(text)).toContain(kind);
  });

  it("finds no movement in a question about one deciding place", () => {
    expect(verbClasses("how does the router decide between 404 and 405?")).not.toContain("motion");
    expect(verbClasses("where is the default timeout defined?")).toEqual(["define"]);
  });
});

describe("the asking clause", () => {
  it("is the last question when context comes first", () => {
    const c = askingClause(
      prepare(
        "Our service calls logger.flush() on shutdown. What does flush do from the logger down to the stream?",
      ).prose,
    );
    expect(c.opener).toBe("what");
    expect(c.contextBefore).toBe(1);
    expect(c.text).toMatch(/^what does flush do/);
  });

  it("is the first sentence when nothing is asked with a question mark", () => {
    const c = askingClause(
      prepare("Trace the path of a route from registration to its matchers. Include Use.").prose,
    );
    expect(c.opener).toBe("trace");
    expect(c.contextBefore).toBe(0);
  });

  it("names an unknown opener 'other'", () => {
    expect(askingClause(prepare("mux host matching with ports").prose).opener).toBe("other");
  });
});

describe("clause features", () => {
  it("pairs the opener with the verbs of the asking sentence only", () => {
    const f = features(
      "Requests reach the router through a proxy. How does the router decide between 404 and 405?",
    );
    expect(f).toContain("q:how+decide");
    expect(f).not.toContain("q:how+motion");
  });

  it("tells a movement from a decision under the same opener", () => {
    expect(features("How does a request get from ServeHTTP to the handler?")).toContain("q:how+motion");
    expect(features("How does Router.Match decide between ErrMethodMismatch and ErrNotFound?")).toContain(
      "q:how+decide",
    );
  });
});

describe("a question about one call", () => {
  it.each([
    "what does app.use(passport.initialize()) do to each request?",
    "how does methodspec.overriding(element) build a method?",
    "how does iterating over err.chain() walk the causes?",
    "what does services.addvalidators<startup>() register?",
    "what does puma::server#run(conn) do with a connection?",
  ])("%j asks about a call written as code", (text) => {
    expect(asksAboutCall(text)).toBe(true);
  });

  it.each([
    "how does the router build its tree?",
    "what does the formatter do?",
    "what is a scope (immerscope) for?",
    "how does vformat turn a format string into text?",
  ])("%j does not", (text) => {
    expect(asksAboutCall(text)).toBe(false);
  });

  it("follows the call unless the question asks for a decision, a definition or a returned value", () => {
    expect(followsCall(prepare("What does app.use(session.start()) do to each request?").prose)).toBe(true);
    expect(followsCall(prepare("How does diff() compute the months between two dates?").prose)).toBe(false);
    expect(followsCall(prepare("What does err.root_cause() return?").prose)).toBe(false);
    expect(followsCall(prepare("Where is parse() defined?").prose)).toBe(false);
  });

  it("reads the verb that goes with the call, not one of a second question joined to it", () => {
    expect(
      followsCall(
        prepare("How does iterating over err.chain() walk the causes, and what does root() return?").prose,
      ),
    ).toBe(true);
    expect(followsCall(prepare("How does retry() decide to stop, and what does it log?").prose)).toBe(false);
  });
});
