/** Which questions ask for the callers of something (the exploratory retriever then walks the graph backward). */
import { describe, expect, it } from "vitest";
import type { SymbolRecord } from "../../db/code-graph.ts";
import { asksForCallers, homonymsLast } from "./exploratory.ts";
import { chainsFirst, leadShares, pivotScore, spineOf } from "./exploratory-order.ts";
import type { FlowNode } from "./exploratory-walk.ts";
import { isTestCode, relevanceOf } from "./exploratory-steps.ts";
import { conceptTerms } from "../concepts.ts";
import { calleeRank } from "./exploratory-walk.ts";

describe("asksForCallers", () => {
  it.each([
    "What calls charge_card?",
    "who calls verify_user",
    "Which functions call resolveGap?",
    "Which parts of the code use Dataset.merge?",
    "What uses the embedder?",
    "callers of parseCitations",
    "Show me the call sites of merge_core",
    "Where is merge_core used?",
    "Where does the app use the vector store?",
    "Is askQuestion called from the CLI or by the route?",
  ])("yes: %s", (q) => expect(asksForCallers(q)).toBe(true));

  it.each([
    "Trace what happens when create_order is called",
    "What does merge_core call?",
    "How does the indexer parse Python files?",
    "Walk me through the startup sequence",
    "Why is a TypeError raised in merge?",
  ])("no: %s", (q) => expect(asksForCallers(q)).toBe(false));
});

describe("homonymsLast", () => {
  const s = (qualifiedId: string, fanOut = 1) => ({
    qualifiedId,
    name: (qualifiedId.split("::")[1] ?? "").replace(/#\d+$/, "").split(".").pop() as string,
    kind: "method",
    fanOut,
  });
  const ids = (list: { qualifiedId: string }[]) => list.map((x) => x.qualifiedId);

  it("keeps one overload of a name ahead and moves the others after everything else", () => {
    const ranked = [s("F.java::F.create"), s("F.java::F.create#2"), s("F.java::F.build")];
    expect(ids(homonymsLast(ranked, new Set()))).toEqual([
      "F.java::F.create",
      "F.java::F.build",
      "F.java::F.create#2",
    ]);
  });

  it("moves other classes' methods of the same name after the rest, unless the flow walked them", () => {
    const ranked = [
      s("Base.java::Base.next"),
      s("Impl.java::Impl.next"),
      s("Other.java::Other.next"),
      s("F.java::F.create"),
    ];
    expect(ids(homonymsLast(ranked, new Set(["Impl.java::Impl.next"])))).toEqual([
      "Base.java::Base.next",
      "Impl.java::Impl.next",
      "F.java::F.create",
      "Other.java::Other.next",
    ]);
  });

  it("lets an implementation stand for a declaration that calls nothing", () => {
    const ranked = [
      s("base.py::BaseAdapter.send", 0),
      s("s.py::Session.send"),
      s("a.py::HTTPAdapter.send", 4),
    ];
    expect(ids(homonymsLast(ranked, new Set(["s.py::Session.send"])))).toEqual([
      "a.py::HTTPAdapter.send",
      "s.py::Session.send",
      "base.py::BaseAdapter.send",
    ]);
  });
});

describe("pivotScore", () => {
  const node = (depth: number, fanIn = 1, children = 0) => ({
    depth,
    children: Array.from({ length: children }, () => ({}) as never),
    symbol: { fanIn },
  });

  it("ranks a deeper step named like the question over a nearer one that is not", () => {
    expect(pivotScore(node(2), 1)).toBeGreaterThan(pivotScore(node(1), 0));
    expect(pivotScore(node(3), 1)).toBeGreaterThan(pivotScore(node(2), 0));
  });

  it("ranks a helper called from everywhere after the steps of the flow", () => {
    expect(pivotScore(node(1, 200), 0)).toBeLessThan(pivotScore(node(2, 2), 0));
    // …unless the question names it
    expect(pivotScore(node(1, 200), 1)).toBeGreaterThan(pivotScore(node(2, 2), 0));
  });

  it("always puts the entry first", () => {
    expect(pivotScore(node(0), 0)).toBeGreaterThan(pivotScore(node(1, 1, 3), 2));
  });
});

describe("calleeRank", () => {
  it("follows a callee that goes on calling before a leaf, and a helper called from everywhere last", () => {
    const step = calleeRank({ fanIn: 2, fanOut: 3 });
    const leaf = calleeRank({ fanIn: 2, fanOut: 0 });
    const helper = calleeRank({ fanIn: 300, fanOut: 4 });
    expect(step).toBeLessThan(leaf);
    expect(leaf).toBeLessThan(helper);
  });
});

describe("spineOf", () => {
  interface N {
    name: string;
    children: N[];
    symbol: { fanIn: number };
  }
  const n = (name: string, children: N[] = [], fanIn = 1): N => ({ name, children, symbol: { fanIn } });
  const names = (list: N[]) => list.map((x) => x.name);

  it("follows the callee whose own walk goes furthest, down to the end of the chain", () => {
    const root = n("Start", [
      n("validate"),
      n("engine.start", [n("log", [], 300), n("bindRoutes", [n("bindRoute")])]),
    ]);
    expect(names(spineOf(root, () => 0))).toEqual(["Start", "engine.start", "bindRoutes", "bindRoute"]);
  });

  it("prefers a callee named like the question, and never a helper called from everywhere", () => {
    const root = n("Start", [n("helper", [n("a", [n("b")])], 300), n("buildChain"), n("other", [n("c")])]);
    const named = (x: N) => (x.name === "buildChain" ? 1 : 0);
    expect(names(spineOf(root, named))).toEqual(["Start", "buildChain"]);
    expect(names(spineOf(root, () => 0))).toEqual(["Start", "other", "c"]);
  });

  it("goes on through a callee named like the question that calls further, before a better-named one that calls nothing", () => {
    const end = (name: string): N => ({ name, children: [], symbol: { fanIn: 1, fanOut: 0 } as N["symbol"] });
    const root = n("AddHandlers", [
      end("checkHandlerRegistration"),
      n("addHandlerClasses", [n("connectImplementations")]),
    ]);
    // "how do my handlers get registered": the check shares two words, the registering step one.
    const named = (x: N) =>
      x.name === "checkHandlerRegistration" ? 1.5 : x.name === "addHandlerClasses" ? 1 : 0;
    expect(names(spineOf(root, named))).toEqual([
      "AddHandlers",
      "addHandlerClasses",
      "connectImplementations",
    ]);
    // Named far better, the step that calls nothing still ends the chain.
    const far = (x: N) =>
      x.name === "checkHandlerRegistration" ? 3 : x.name === "addHandlerClasses" ? 1 : 0;
    expect(names(spineOf(root, far))).toEqual(["AddHandlers", "checkHandlerRegistration"]);
  });

  it("on a request's chain passes a dead end named like the question by; elsewhere ends there", () => {
    const end = (name: string): N => ({ name, children: [], symbol: { fanIn: 1, fanOut: 0 } as N["symbol"] });
    const root = n("ServeHTTP", [
      end("requestWithVars"),
      n("Match", [n("Route.Match", [end("extractVars")])]),
    ]);
    const named = (x: N) => (x.name.includes("Vars") ? 2 : 0);
    expect(names(spineOf(root, named, () => true, true))).toEqual([
      "ServeHTTP",
      "requestWithVars",
      "Match",
      "Route.Match",
      "extractVars",
    ]);
    expect(names(spineOf(root, named))).toEqual(["ServeHTTP", "requestWithVars"]);
    // With nothing that goes on beside it, a request's chain ends at the dead end too.
    const alone = n("Start", [end("requestWithVars"), end("cleanPath")]);
    expect(names(spineOf(alone, named, () => true, true))).toEqual(["Start", "requestWithVars"]);
  });
});

describe("chainsFirst", () => {
  // A flow as the walk finds it: qualified name, kind, callees.
  const step = (qualifiedName: string, children: FlowNode[] = [], kind = "method", depth = 0): FlowNode => ({
    depth,
    children: children.map((c) => deepen(c, depth + 1)),
    symbol: {
      qualifiedId: `src/x::${qualifiedName}`,
      qualifiedName,
      name: qualifiedName.split(".").pop() as string,
      kind,
      path: "src/x",
      language: "java",
      fanIn: 1,
      fanOut: children.length,
      startLine: 1,
      endLine: 20,
    } as SymbolRecord,
  });
  const deepen = (n: FlowNode, depth: number): FlowNode => ({
    ...n,
    depth,
    children: n.children.map((c) => deepen(c, depth + 1)),
  });
  const names = (list: FlowNode[]) => list.map((n) => n.symbol.qualifiedName);
  const none = () => 0;

  it("follows each named call down its own chain, in the question's order, before the other steps", () => {
    // createParser(in) and then nextToken(): each call's next steps, not both entries' siblings first.
    const first = step("JsonFactory.createParser", [
      step("JsonFactory._createContext"),
      step("JsonFactory._createParser", [step("Bootstrapper.constructParser", [step("Parser.init")])]),
    ]);
    const second = step("Parser.nextToken", [step("Parser._closeScope"), step("Parser._skipWS")]);
    expect(names(chainsFirst([first, second], none)).slice(0, 5)).toEqual([
      "JsonFactory.createParser",
      "JsonFactory._createParser",
      "Bootstrapper.constructParser",
      "Parser.nextToken",
      "Parser._closeScope",
    ]);
  });

  it("runs a chain through the functions it calls, not the classes it builds on the way", () => {
    const flow = step("JavaFile.writeTo", [
      step("CodeWriter", [step("CodeWriter.Multiset")], "class"),
      step("JavaFile.emit", [step("CodeWriter.importedTypes")]),
    ]);
    expect(names(chainsFirst([flow], none)).slice(0, 3)).toEqual([
      "JavaFile.writeTo",
      "JavaFile.emit",
      "CodeWriter.importedTypes",
    ]);
  });

  it("lets a named call that calls nothing leave its places to the other chain", () => {
    const parse = step("yaml_parser_parse", [
      step("yaml_parser_state_machine", [step("parse_stream_start", [step("fetch_more_tokens")])]),
    ]);
    const setup = step("yaml_parser_set_input_string");
    expect(names(chainsFirst([parse, setup], none)).slice(0, 5)).toEqual([
      "yaml_parser_parse",
      "yaml_parser_state_machine",
      "parse_stream_start",
      "fetch_more_tokens",
      "yaml_parser_set_input_string",
    ]);
    expect(leadShares([4, 1])).toEqual([4, 1]);
    expect(leadShares([6, 6])).toEqual([3, 2]);
    expect(leadShares([3, 3, 3])).toEqual([2, 2, 1]);
  });

  it("follows the path where nothing fails, unless the question is about errors", () => {
    const flow = step("parse_stream_start", [
      step("yaml_parser_set_parser_error"),
      step("fetch_more_tokens"),
    ]);
    expect(names(chainsFirst([flow], none)).slice(0, 2)).toEqual(["parse_stream_start", "fetch_more_tokens"]);
    expect(names(chainsFirst([flow], none, true)).slice(0, 2)).toEqual([
      "parse_stream_start",
      "yaml_parser_set_parser_error",
    ]);
  });

  it("runs a chain by the steps' own names, not by the named function a helper is nested in", () => {
    const add = step("Dayjs.add", [
      step("Dayjs.add.instanceFactorySet", [step("wrapper")]),
      step("Dayjs.set", [step("Dayjs.$set", [step("Dayjs.daysInMonth")])]),
    ]);
    const terms = conceptTerms("What happens when I call dayjs().add(1, 'month')?");
    const relevance = (owner: number) => relevanceOf(terms, owner);
    // Counting the encloser's name, the nested helper would look named like the question.
    expect(names(chainsFirst([add], relevance(0.5))).slice(0, 2)).toEqual([
      "Dayjs.add",
      "Dayjs.add.instanceFactorySet",
    ]);
    expect(names(chainsFirst([add], relevance(0))).slice(0, 3)).toEqual([
      "Dayjs.add",
      "Dayjs.set",
      "Dayjs.$set",
    ]);
  });

  it("keeps every step of the flow once, the chain's first", () => {
    const flow = step("Router.ServeHTTP", [step("Router.Match", [step("Route.Match")]), step("cleanPath")]);
    const ranked = names(chainsFirst([flow], none));
    expect(ranked).toEqual(["Router.ServeHTTP", "Router.Match", "Route.Match", "cleanPath"]);
  });
});

describe("isTestCode", () => {
  it.each([
    ["e2e/pages/repositories-page.ts", true],
    ["test-support/qa-env.ts", true],
    ["src/__mocks__/fs.js", true],
    ["pkg/testdata/input.go", true],
    ["tests/test_api.py", true],
    ["lib/indexer/build.ts", false],
    ["src/_pytest/fixtures.py", false],
  ])("%s → %s", (path, expected) => expect(isTestCode(path)).toBe(expected));
});
