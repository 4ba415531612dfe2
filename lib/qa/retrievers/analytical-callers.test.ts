/**
 * Questions that ask for a named symbol's callers, answered on a real index of a small
 * router written in Python and TypeScript (__fixtures__/receivers; offline engine): the
 * callers lead the ranked symbols and the subject follows them, a method's calls the
 * resolver leaves open (`route.match(…)` where Route and Router both define match) count
 * when the receiver is named like its class, a type named beside one of its members
 * leaves the member as the subject, and the definitions of one function under two
 * conditions are one caller. Asked what a method calls, its callees come by the work they
 * carry (its own longer helpers before a one-line utility everything calls) and fill the
 * diagram. Tests written inside a source file (Rust's `mod tests`) are no callers unless the
 * question asks about tests. A method tests call far more often than the code does keeps
 * the code's one call among its callers, and a receiver in the plural (`retries`) is named
 * like its class (`Retry`).
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askOffline } from "../../../test-support/qa-flow.ts";
import { indexFixture, setupQaHome, type IndexedFixture } from "../../../test-support/qa-env.ts";
import { listsCallersOf } from "./analytical-graphs.ts";
import { receiverNames, subjectDiagram, type GraphSymbol, type SubjectGraph } from "./subject-graph.ts";
import { symbolRecord } from "../../../test-support/symbol-record.ts";

const RECEIVERS = fileURLToPath(new URL("./__fixtures__/receivers", import.meta.url));

const indexed = new Map<string, IndexedFixture>();
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-analytical-callers-"));
  for (const language of ["py", "ts", "rs"])
    indexed.set(language, await indexFixture(`${RECEIVERS}/${language}`, `receivers-${language}`));
});
afterAll(() => cleanup());

async function ask(language: string, question: string) {
  const repo = indexed.get(language) as IndexedFixture;
  return askOffline(repo.repositoryId, question, "analytical");
}

describe("a named method's callers", () => {
  it("Python: the callers the resolver left open count when the receiver is named like the class", async () => {
    const { opening, symbols } = await ask(
      "py",
      "Which functions call Route.match, and in which files are they?",
    );
    expect(opening).toMatch(/^2 functions in 2 files call `Route\.match`/);
    expect(symbols.slice(0, 2).sort()).toEqual([
      "webapp/middleware.py::allowed_methods",
      "webapp/routing.py::Router.match",
    ]);
    // `router.match(…)` in dispatch calls the router, not a route.
    expect(opening).not.toContain("dispatch");
    // The subject the question names follows its callers.
    expect(symbols.indexOf("webapp/routing.py::Route.match")).toBeGreaterThan(1);
  });

  it("TypeScript: the same through a structurally typed parameter", async () => {
    const { opening, symbols } = await ask("ts", "Who calls Route.match, and in which files are they?");
    expect(opening).toMatch(/^2 functions in 2 files call `Route\.match`/);
    expect(symbols.slice(0, 2).sort()).toEqual([
      "src/middleware.ts::allowedMethods",
      "src/routing.ts::Router.match",
    ]);
  });

  it("asked only who calls it, the subject keeps its place first", async () => {
    const { symbols } = await ask("py", "Who calls Route.match?");
    expect(symbols[0]).toBe("webapp/routing.py::Route.match");
    expect(symbols.slice(1, 3).sort()).toEqual([
      "webapp/middleware.py::allowed_methods",
      "webapp/routing.py::Router.match",
    ]);
  });

  it("a type named beside its member: the member is the subject, a function defined twice is one caller", async () => {
    const { opening, symbols } = await ask(
      "py",
      "Which functions create a Route from a path (Route.from_path), and in which files are they?",
    );
    expect(opening).toMatch(/^2 functions in 2 files call `Route\.from_path`/);
    expect(opening.match(/`route_for`/g)).toHaveLength(1);
    expect(
      symbols
        .slice(0, 2)
        .map((s) => s.replace(/#\d+$/, ""))
        .sort(),
    ).toEqual(["webapp/routing.py::route_for", "webapp/static.py::static_routes"]);
  });
});

describe("a method tests call far more often than the code does", () => {
  it("Python: the code's call the resolver only guessed is still a caller, behind 45 calls from tests", async () => {
    const { opening, symbols } = await ask(
      "py",
      "Which functions call Retry.increment, and in which files are they?",
    );
    expect(opening).toMatch(/^2 functions in 2 files call `Retry\.increment`/);
    expect(opening).toContain("`urlopen` (webapp/pool.py:");
    expect(opening).toContain("`main` (cli.py:");
    expect(symbols.slice(0, 2).sort()).toEqual(["cli.py::main", "webapp/pool.py::urlopen"]);
    expect(opening).not.toContain("test_increment");
  });
});

describe("tests written inside a source file", () => {
  it("Rust: a function's callers leave out its `mod tests`, unless the question asks about tests", async () => {
    const { opening, symbols } = await ask("rs", "Which functions call parse_spec, and in which files?");
    expect(opening).toMatch(/^1 function in 1 file calls `parse_spec`/);
    expect(opening).toContain("`Builder.parse`");
    expect(opening).not.toContain("tests.");
    expect(symbols.slice(0, 2)).toEqual(["src/builder.rs::Builder.parse", "src/spec.rs::parse_spec"]);
    const asked = await ask("rs", "Which tests call parse_spec?");
    expect(asked.opening).toMatch(/^4 functions in 2 files call `parse_spec`/);
    expect(asked.opening).toContain("`tests.parses_a_global_level`");
  });
});

describe("what a method calls", () => {
  it("names its own longer helpers before a one-line utility, and draws its callees", async () => {
    const { opening, diagram } = await ask("py", "What does Router.handle call?");
    const names = [...opening.matchAll(/`([^`]+)` \(/g)].map((m) => m[1]);
    expect(names.slice(0, 4)).toEqual(["Router.handle", "Router._render", "Router.match", "as_text"]);
    expect(diagram?.nodes.map((n) => n.label)).toEqual(
      expect.arrayContaining(["Router._render", "Router.match", "as_text"]),
    );
  });
});

describe("weak points", () => {
  it("lead with the functions that depend on the most others, each cited", async () => {
    const { opening } = await ask("py", "What are the weak points of this code base?");
    expect(opening).toMatch(
      /^The weak points of the repository start with the functions that depend on the most others: /,
    );
    expect(opening.split(". ")[0]).toMatch(/`Router\.handle` \(3 callees; webapp\/routing\.py:\d+-\d+\)/);
  });
});

describe("subjectDiagram", () => {
  const symbol = (name: string) =>
    symbolRecord("pool.py", name, { kind: "function", language: "python", endLine: 5, docstring: "" });
  const hop = (name: string): GraphSymbol => ({
    symbol: symbol(name),
    depth: 1,
    calls: 1,
    via: "pool.py::urlopen",
  });
  const graph: SubjectGraph = {
    subject: symbol("urlopen"),
    members: ["pool.py::urlopen"],
    byName: false,
    used: [],
    callers: [hop("request"), hop("request_encode_url")],
    callees: Array.from({ length: 30 }, (_, i) => hop(`step_${i}`)),
    callerFiles: [],
    fileImports: [],
  };
  const labels = (calleesFirst: boolean) =>
    subjectDiagram(graph, "urlopen", { calleesFirst }).nodes.map((n) => n.label);

  it("gives the side asked about the room the other leaves, at most a dozen nodes and the rest grouped", () => {
    const asked = labels(true);
    expect(asked.filter((l) => l.startsWith("step_")).length).toBeGreaterThanOrEqual(8);
    expect(asked).toEqual(expect.arrayContaining(["request", "request_encode_url", "+ 22 more callees"]));
    expect(asked.length).toBeLessThanOrEqual(12);
    // Asked for callers, the two callers still leave the callees most of the room.
    expect(labels(false).filter((l) => l.startsWith("step_")).length).toBeGreaterThanOrEqual(8);
  });
});

describe("listsCallersOf", () => {
  it("reads a list of callers asked for, not how a subject and its users fit together", () => {
    for (const q of [
      "Who calls build_url?",
      "Which functions create an HTTPError, and in which files?",
      "Which middlewares reach into the routing context with RouteContext?",
      "Which methods use Session.send?",
    ])
      expect(listsCallersOf(q), q).toBe(true);
    for (const q of [
      "Which parts call into Scene, and how do they depend on each other?",
      "What does parse_args call?",
      "How is Session.send implemented?",
    ])
      expect(listsCallersOf(q), q).toBe(false);
  });
});

describe("receiverNames", () => {
  it("matches a receiver named like the class, in its words or shortened", () => {
    expect(receiverNames("route", "Route")).toBe(true);
    expect(receiverNames("self.pool", "HTTPConnectionPool")).toBe(true);
    expect(receiverNames("this.conn", "Connection")).toBe(true);
    expect(receiverNames("route", "Router")).toBe(false);
    expect(receiverNames("router", "Route")).toBe(false);
    expect(receiverNames("self", "Route")).toBe(false);
  });

  it("matches a receiver named in the plural of the class", () => {
    expect(receiverNames("retries", "Retry")).toBe(true);
    expect(receiverNames("self.handlers", "EventHandler")).toBe(true);
    expect(receiverNames("matches", "Match")).toBe(true);
    expect(receiverNames("routes", "Router")).toBe(false);
    expect(receiverNames("status", "Statu")).toBe(false);
  });
});
