/**
 * The second place of a report: the lines a report is made under in Go, Ruby, PHP, Java
 * and Python shapes, the catch clauses that handle an error type, and the ranking with
 * each second place right after its site.
 */
import { describe, expect, it } from "vitest";
import { guardLines, handles, reportsFailure, withSecondPlaces } from "./diagnostic-deciders.ts";
import type { SymbolRecord } from "../../db/code-graph.ts";
import { passesOn } from "./diagnostic-leads.ts";

describe("what decides a report", () => {
  it("finds the condition a report is made under, with the assignment it tests", () => {
    const go = [
      "func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {",
      "\tif p := cleanPath(path); p != path {",
      '\t\tw.Header().Set("Location", p)',
      "\t\tw.WriteHeader(http.StatusMovedPermanently)",
      "\t}",
      "\tpromise, err := shedder.Allow()",
      "\tif err != nil {",
      '\t\tlogx.Errorf("[http] dropped, %s", r.RequestURI)',
      "\t}",
      "}",
    ];
    expect(reportsFailure(go[3] as string)).toBe(true);
    expect(guardLines(go, 4, 2)).toEqual([2]);
    expect(guardLines(go, 8, 2)).toEqual([7, 6]);
    // A Ruby report holding its own condition, and a Java throw under an else (no condition of its own).
    expect(guardLines(["def ensure!", "  raise MISSING unless adapter_set?", "end"], 2, 2)).toEqual([2]);
    const java = [
      "void f() {",
      "  if (ok()) {",
      "    run();",
      "  } else {",
      '    throw new IllegalStateException("x");',
      "  }",
      "}",
    ];
    expect(guardLines(java, 5, 2)).toEqual([]);
    expect(reportsFailure("    // raise an error here")).toBe(false);
    expect(reportsFailure("    total += size")).toBe(false);
  });

  it("recognises a caller catching the error type, in each language's clause", () => {
    const php = "try {\n  return $this->load();\n} catch (InvalidPathException $e) {\n  return [];\n}";
    expect(handles(php, ["Dotenv\\Exception\\InvalidPathException"])).toBe("InvalidPathException");
    expect(handles("rescue Faraday::TimeoutError => e\n  retry", ["Faraday::TimeoutError"])).toBe(
      "TimeoutError",
    );
    expect(handles("except KeyError:\n    pass", ["KeyError"])).toBe("KeyError");
    expect(handles("if errors.Is(err, ErrNotFound) {", ["ErrNotFound"])).toBe("ErrNotFound");
    expect(handles("throw new InvalidPathException('x');", ["InvalidPathException"])).toBeNull();
  });

  it("puts each second place right after its site", () => {
    const place = (site: string, id: string) => ({
      site,
      symbol: { qualifiedId: id } as SymbolRecord,
      reason: "",
    });
    expect(withSecondPlaces(["a", "b", "c", "d", "x"], [place("b", "x"), place("a", "y")])).toEqual([
      "a",
      "y",
      "b",
      "x",
      "c",
      "d",
    ]);
  });
});

describe("a body that passes the work on", () => {
  it.each([
    [
      "a Go option setter",
      "func (r *Router) StrictSlash(value bool) *Router {\n\tr.strictSlash = value\n\treturn r\n}",
      true,
    ],
    ["a Ruby setter", "def timeout=(value)\n  @timeout = value\nend", true],
    [
      "a registration handing on",
      "func (mx *Mux) Handle(p string, h http.Handler) {\n\tmx.handle(mALL, p, h)\n}",
      true,
    ],
    ["a TypeScript getter", "get limit() {\n  return this.#options.limit;\n}", true],
    [
      "code storing what it computes",
      "func (mx *Mux) updateRouteHandler() {\n\tmx.handler = chain(mx.middlewares, mx.routeHTTP)\n}",
      false,
    ],
    [
      "a Python function that only raises",
      "def fail(self):\n    raise ConfigError('missing adapter')",
      false,
    ],
    ["a Ruby condition", "def ensure!\n  raise MISSING unless adapter_set?\nend", false],
    ["a Rust check", "fn check(&self) -> bool {\n    self.depth < self.max\n}", false],
  ])("%s", (_what, text, expected) => {
    expect(passesOn(text.split("\n"))).toBe(expected);
  });
});
