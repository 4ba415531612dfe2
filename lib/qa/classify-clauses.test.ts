import { describe, expect, it } from "vitest";
import {
  askingClause,
  asksAboutCall,
  asksDecision,
  followsCall,
  followsRun,
  asksCase,
  verbClasses,
  withoutScene,
} from "./classify-clauses.ts";
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
    expect(
      followsCall(prepare("What does node.as<int>() do with a scalar that is not a number?").prose),
    ).toBe(false);
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

const prose = (q: string) => prepare(q).prose;

describe("a run followed", () => {
  it.each([
    "What does decodeFrame do for each chunk it reads from the socket?",
    "What happens after the pool hands a connection back?",
    "Where does the token I pass to setAuth(token) go, and how does the client get it back for the next request?",
    "When the queue is drained, what runs before the worker exits?",
    "Follow a ParseError raised by the lexer: where is it caught, and how does the caller report it?",
    "At startup, how does the server load its configuration and hand it to the workers?",
    "How is the logger wired to the file sink it writes to?",
    "How does Formatter::format turn its arguments into the output buffer, step by step?",
  ])("%j follows a run", (q) => {
    expect(followsRun(prose(q))).toBe(true);
  });

  it.each([
    "How does the scheduler decide what happens when two jobs share a slot?",
    "Is the header kept, and where does it go when I retry?",
    "Why does the pool wait until a slot frees up?",
    "What does flush() return?",
    "At startup, how does the server decide how many workers to boot?",
  ])("%j does not (a decision, a case of behaviour, a why, a returned value)", (q) => {
    expect(followsRun(prose(q))).toBe(false);
  });
});

describe("a decision asked", () => {
  it.each([
    "If I call pool.add(a) then pool.add(b), which one is tried first, and where is the order decided?",
    "When I pass a plain object, how does the encoder work out which writer to use?",
    "How does the builder stack the layers I register, and which one ends up outermost?",
  ])("%j asks what decides", (q) => {
    expect(asksDecision(prose(q))).toBe(true);
  });

  it.each([
    "Walk me through how the encoder decides which writer to use.",
    "How does a value get from parse() to the writer that decides its format?",
    "In what order are the layers run, and when does the builder decide to stop?",
  ])("%j does not (a chain asked for, a movement, a sequence)", (q) => {
    expect(asksDecision(prose(q))).toBe(false);
  });

  it("reads the clause after a setting of the scene", () => {
    expect(withoutScene("if i call a then b, where is the order decided?")).toBe(
      "where is the order decided?",
    );
    expect(withoutScene("how does a then b run?")).toBe("how does a then b run?");
  });
});

describe("a case of behaviour asked", () => {
  it.each([
    "If I call pool.add(a) then pool.add(b), does a or b get the first job?",
    "When I extend a client with headers and then pass more per call, are the headers replaced or combined?",
    "With immutable loading, is a second line for the same name kept or ignored?",
  ])("%j asks which outcome the code gives", (q) => {
    expect(asksCase(prose(q))).toBe(true);
  });

  it.each([
    "Is the header kept when I retry?",
    "In what order are the hooks run, and is the error hook called or skipped?",
    "Walk me through whether the request is retried or failed.",
  ])("%j does not (no alternative, a run, a chain asked for)", (q) => {
    expect(asksCase(prose(q))).toBe(false);
  });
});
