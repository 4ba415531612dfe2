/** How conceptual retrieval orders the symbols of a process question ("how does X decide …"). */
import { describe, expect, it } from "vitest";
import type { SymbolRecord } from "../../db/code-graph.ts";
import { byProcess, choosers, isConstructor, onePerFamily, oneStatement } from "./conceptual.ts";
import type { Ranked } from "./shared.ts";

function ranked(qualifiedName: string, kind: string, lines: [number, number], score: number): Ranked {
  const name = qualifiedName.split(".").pop() as string;
  const symbol = {
    qualifiedId: `f::${qualifiedName}`,
    qualifiedName,
    name,
    kind,
    path: "f",
    startLine: lines[0],
    endLine: lines[1],
  } as SymbolRecord;
  return { candidate: { key: symbol.qualifiedId, symbol, chunk: null, reason: "" }, score, reasons: [] };
}

const names = (list: Ranked[]) => list.map((r) => r.candidate.symbol?.qualifiedName);

describe("isConstructor", () => {
  it.each([
    ["Java", "ReaderBasedJsonParser.ReaderBasedJsonParser"],
    ["C#", "LevelOverrideMap.LevelOverrideMap"],
    ["C++ destructor", "basic_memory_buffer.~basic_memory_buffer"],
    ["JavaScript", "Dayjs.constructor"],
    ["PHP", "CallableResolver.__construct"],
    ["Ruby", "Base.initialize"],
  ])("knows a %s constructor", (_language, qualifiedName) => {
    expect(
      isConstructor({ qualifiedName, name: qualifiedName.split(".").pop() as string, kind: "method" }),
    ).toBe(true);
  });

  it("knows a Go NewT function and a Rust T::new, by their language", () => {
    expect(
      isConstructor({
        qualifiedName: "NewAdaptiveShedder",
        name: "NewAdaptiveShedder",
        kind: "function",
        language: "go",
      }),
    ).toBe(true);
    expect(
      isConstructor({ qualifiedName: "EnvFilter.new", name: "new", kind: "method", language: "rust" }),
    ).toBe(true);
    expect(
      isConstructor({ qualifiedName: "Newline", name: "Newline", kind: "function", language: "go" }),
    ).toBe(false);
    expect(
      isConstructor({
        qualifiedName: "NewAdaptiveShedder",
        name: "NewAdaptiveShedder",
        kind: "function",
        language: "java",
      }),
    ).toBe(false);
  });

  it("is not fooled by a method named like another class or a free function", () => {
    expect(
      isConstructor({ qualifiedName: "JsonFactory.createParser", name: "createParser", kind: "method" }),
    ).toBe(false);
    expect(isConstructor({ qualifiedName: "parseDate", name: "parseDate", kind: "function" })).toBe(false);
  });
});

describe("byProcess", () => {
  const question = "How does the circuit breaker decide to reject a call?";

  it("puts the method that decides before constructors, getters and wrappers ranked above it", () => {
    const list = [
      ranked("circuitBreaker.Name", "method", [134, 136], 1),
      ranked("UTF8StreamJsonParser.UTF8StreamJsonParser", "method", [113, 139], 0.95),
      ranked("basic_memory_buffer.~basic_memory_buffer", "method", [822, 822], 0.9),
      ranked("googleBreaker.accept", "method", [37, 51], 0.6),
    ];
    expect(names(byProcess(list, true, question))[0]).toBe("googleBreaker.accept");
  });

  it("counts a type at half and a name spelling more of the question more", () => {
    const list = [
      ranked("Breaker", "interface", [10, 30], 1),
      ranked("shouldReject", "function", [40, 60], 0.55),
      ranked("rejectCall", "function", [70, 90], 0.5),
    ];
    expect(names(byProcess(list, true, question))).toEqual(["rejectCall", "shouldReject", "Breaker"]);
  });

  it("puts the predicate about the subject first when the question asks whether", () => {
    const list = [
      ranked("TextFormatter.printColored", "method", [249, 272], 1),
      ranked("TextFormatter.isColored", "method", [128, 144], 0.8),
      ranked("TextFormatter.isTerminal", "method", [109, 126], 0.7),
    ];
    const whether = "How does the text formatter decide whether to print colors?";
    expect(names(byProcess(list, true, whether))[0]).toBe("TextFormatter.isColored");
    // Without "whether" the name spelling more of the question still leads.
    expect(names(byProcess(list, true, "How are colors printed?"))[0]).toBe("TextFormatter.printColored");
  });

  it("leaves the order alone for a question about what a thing is", () => {
    const list = [
      ranked("circuitBreaker.Name", "method", [134, 136], 1),
      ranked("accept", "method", [1, 20], 0.6),
    ];
    expect(names(byProcess(list, false, question))).toEqual(["circuitBreaker.Name", "accept"]);
  });
});

describe("choosers", () => {
  const s = (qualifiedName: string, path: string, lines: [number, number]) =>
    ({
      qualifiedId: `${path}::${qualifiedName}`,
      qualifiedName,
      name: qualifiedName.split(".").pop() as string,
      path,
      startLine: lines[0],
      endLine: lines[1],
    }) as SymbolRecord;
  const construct = s(
    "ByteSourceJsonBootstrapper.constructParser",
    "json/ByteSourceJsonBootstrapper.java",
    [230, 270],
  );
  const reader = s("JsonFactory._createParser", "JsonFactory.java", [1300, 1310]);
  const test = s("TestParser.testBoth", "src/test/java/TestParser.java", [10, 20]);
  const big = s("Factory.everything", "Factory.java", [1, 400]);

  it("are the functions calling two or more of the named alternatives, those calling more first", () => {
    const utf8 = [construct, test, big];
    const readerBased = [construct, reader, test, big];
    const input = [reader];
    expect(choosers([utf8, readerBased, input]).map((x) => x.qualifiedName)).toEqual([
      "JsonFactory._createParser",
      "ByteSourceJsonBootstrapper.constructParser",
      "Factory.everything",
    ]);
  });

  it("are none when no function calls two of them", () => {
    expect(choosers([[construct], [reader]])).toEqual([]);
  });
});

describe("onePerFamily", () => {
  const list = [
    ranked("ReaderBasedJsonParser.ReaderBasedJsonParser#2", "constructor", [130, 160], 9),
    ranked("ReaderBasedJsonParser.ReaderBasedJsonParser", "constructor", [100, 128], 8),
    ranked("Bootstrapper.constructParser", "method", [261, 280], 7),
    ranked("ReaderBasedJsonParser", "class", [1, 3000], 6),
    ranked("JsonFactory.createParser#2", "method", [900, 910], 5),
    ranked("JsonFactory.createParser", "method", [880, 890], 4),
    ranked("JsonFactory._createParser", "method", [1300, 1310], 3),
  ];

  it("keeps one place per overload family, a class and its constructors being one", () => {
    expect(names(onePerFamily(list, new Set()))).toEqual([
      "ReaderBasedJsonParser.ReaderBasedJsonParser#2",
      "Bootstrapper.constructParser",
      "JsonFactory.createParser#2",
      "JsonFactory._createParser",
      "ReaderBasedJsonParser.ReaderBasedJsonParser",
      "ReaderBasedJsonParser",
      "JsonFactory.createParser",
    ]);
  });

  it("keeps a named function's overloads, but naming a class names none of its constructors", () => {
    const named = names(onePerFamily(list, new Set(["createparser", "readerbasedjsonparser"])));
    expect(named.slice(0, 4)).toEqual([
      "ReaderBasedJsonParser.ReaderBasedJsonParser#2",
      "Bootstrapper.constructParser",
      "JsonFactory.createParser#2",
      "JsonFactory.createParser",
    ]);
  });

  it("leaves a ranking without families as it is", () => {
    const plain = [list[2], list[6]] as Ranked[];
    expect(onePerFamily(plain, new Set())).toBe(plain);
  });
});

describe("oneStatement", () => {
  it("reads the body, not the span: a documented Ruby memo is one statement", () => {
    const ruby = [
      "# @overload default_connection",
      "#   Gets the default connection used for simple scripts.",
      "#   @return [Connection] a connection configured with the default adapter.",
      "def default_connection",
      "  @default_connection ||= Connection.new(default_connection_options)",
      "end",
    ];
    expect(oneStatement(ruby, { startLine: 1, endLine: 6 })).toBe(true);
  });

  it("a body that tests before it acts is more than one (C, Go)", () => {
    const c = [
      "jv jv_copy(jv j) {",
      "  if (JVP_IS_ALLOCATED(j)) {",
      "    jvp_refcnt_inc(j.u.ptr);",
      "  }",
      "  return j;",
      "}",
    ];
    expect(oneStatement(c, { startLine: 1, endLine: 6 })).toBe(false);
    const go = [
      "// Methods adds a matcher for HTTP methods.",
      "func (r *Route) Methods(methods ...string) *Route {",
      "\tfor k, v := range methods {",
      "\t\tmethods[k] = strings.ToUpper(v)",
      "\t}",
      "\treturn r.addMatcher(methodMatcher(methods))",
      "}",
    ];
    expect(oneStatement(go, { startLine: 1, endLine: 7 })).toBe(false);
  });
});
