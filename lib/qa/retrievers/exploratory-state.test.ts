/**
 * A flow through stored state: what a step stores (a field, an instance variable, a
 * registry entry) is read back by a later step, in several languages; and on a real index
 * the walk from a builder's setter goes on in the method that reads the stored field.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexSources } from "../../../test-support/qa-env.ts";
import { PartLog } from "../../../test-support/qa-model.ts";
import type { SymbolRecord } from "../../db/code-graph.ts";
import { askQuestion } from "../ask.ts";
import { parameterNames, readsField, stateReaders, storedFields } from "./exploratory-state.ts";

describe("storedFields", () => {
  const given = (...names: string[]) => new Set(names);
  it("reads the field a short body stores from what it is given, on an object, an instance variable or a registry", () => {
    expect(storedFields(["self.opts.sorter = Some(Box::new(cmp));", "self"], given("cmp"))).toEqual([
      "sorter",
    ]);
    expect(
      storedFields(
        ['Assert.notNull(alg, "null");', "this.compressionAlgorithm = alg;", "return this;"],
        given("CompressionAlgorithm", "alg"),
      ),
    ).toEqual(["compressionAlgorithm"]);
    expect(storedFields(["@timeout = seconds"], given("seconds"))).toEqual(["timeout"]);
    expect(storedFields(["default_options[:follow_redirects] = value"], given("value"))).toEqual([
      "follow_redirects",
    ]);
    expect(storedFields(["methodMap[method] = mt", "mALL |= mt"], given("method"))).toEqual(["methodMap"]);
  });

  it("takes no local variable, comparison, value built in place, object filled in or long body for stored state", () => {
    expect(storedFields(["result = compute(x)", "return result"], given("x"))).toEqual([]);
    expect(storedFields(["if self.limit == n {"], given("n"))).toEqual([]);
    expect(
      storedFields(
        ["env.status = status", "env.body = body", "env.reason_phrase = reason"],
        given("status", "body", "reason"),
      ),
    ).toEqual([]);
    expect(storedFields(["mx.handler = mx.middlewares.HandlerFunc(mx.routeHTTP)"], given())).toEqual([]);
    expect(
      storedFields(
        Array.from({ length: 12 }, (_, i) => `this.field${i}x = v${i};`),
        given(...Array.from({ length: 12 }, (_, i) => `v${i}`)),
      ),
    ).toEqual([]);
  });
});

describe("parameterNames", () => {
  it("reads the parameters after the function's name, without a Go receiver or self", () => {
    expect([
      ...parameterNames("pub fn sort_by<F>(mut self, cmp: F) -> Self where F: FnMut(&DirEntry)", "sort_by"),
    ]).toEqual(["cmp", "F"]);
    expect([
      ...parameterNames("func (mx *Mux) handle(method methodTyp, pattern string) *node", "handle"),
    ]).toEqual(["method", "methodTyp", "pattern", "string"]);
    expect([...parameterNames("func (mx *Mux) updateRouteHandler()", "updateRouteHandler")]).toEqual([]);
  });
});

describe("readsField", () => {
  it("ranks a test of the field above a use, and a store or a literal's key as no read", () => {
    expect(readsField(["if let Some(ref mut cmp) = self.opts.sorter {"], "sorter", false)).toBe(2);
    expect(readsField(["payload.setZip(compressionAlgorithm);"], "compressionAlgorithm", true)).toBe(1);
    expect(readsField(["this.compressionAlgorithm = alg;"], "compressionAlgorithm", true)).toBe(0);
    expect(readsField(["sorter: None,"], "sorter", true)).toBe(0);
    // Outside the storer's folder only a member access reads it, not a word that happens to match.
    expect(readsField(["let timeout = 3"], "timeout", false)).toBe(0);
    expect(readsField(["return @timeout || 30"], "timeout", false)).toBe(2);
  });
});

describe("stateReaders", () => {
  const symbol = (name: string, file: string, fanOut = 1): SymbolRecord =>
    ({
      qualifiedId: `${file}::${name}`,
      qualifiedName: name,
      name: name.split(".").pop(),
      kind: "method",
      language: "go",
      path: file,
      fanOut,
    }) as SymbolRecord;
  it("puts the readers that test a stored registry first, leaving out the storer and what the walk has seen", () => {
    const register = symbol("RegisterMethod", "tree.go");
    const bodies = [
      { symbol: register, statements: ["methodMap[method] = mt"] },
      { symbol: symbol("Mux.logMethods", "mux.go"), statements: ["log(methodMap)"] },
      {
        symbol: symbol("Mux.routeHTTP", "mux.go"),
        statements: ["if _, ok := methodMap[rctx.RouteMethod]; !ok {"],
      },
      { symbol: symbol("Mux.seen", "mux.go"), statements: ["count(methodMap)"] },
    ];
    const readers = stateReaders(register, ["methodMap"], bodies, new Set(["mux.go::Mux.seen"]));
    // The walk already reaches a use of it: only a reader testing it comes in.
    expect(readers.map((r) => r.qualifiedName)).toEqual(["Mux.routeHTTP"]);
  });

  it("adds no reader when the walk already reaches one that tests the stored field", () => {
    const setter = symbol("WalkDir.follow_root_links", "src/lib.rs");
    const bodies = [
      {
        symbol: symbol("IntoIter.handle_entry", "src/lib.rs"),
        statements: ["if self.opts.follow_root_links {"],
      },
      {
        symbol: symbol("WalkDirOptions.fmt", "src/lib.rs"),
        statements: ['.field("x", &self.follow_root_links)'],
      },
    ];
    expect(
      stateReaders(setter, ["follow_root_links"], bodies, new Set(["src/lib.rs::IntoIter.handle_entry"])),
    ).toEqual([]);
    expect(
      stateReaders(setter, ["follow_root_links"], bodies, new Set()).map((r) => r.qualifiedName),
    ).toEqual(["IntoIter.handle_entry", "WalkDirOptions.fmt"]);
  });
});

const BUILDER = `package token;

public class TokenBuilder {
    private Compressor compressor;
    private String subject;

    public TokenBuilder compressWith(Compressor alg) {
        check(alg);
        this.compressor = alg;
        return this;
    }

    public String compact() {
        String body = serialize(subject);
        if (compressor != null) {
            body = compressor.compress(body);
        }
        return encode(body);
    }

    private String serialize(String s) {
        return "{" + s + "}";
    }

    private String encode(String s) {
        return s.trim();
    }

    private void check(Compressor alg) {
        if (alg == null) throw new IllegalArgumentException("alg");
    }
}
`;

const COMPRESSOR = `package token;

public class Compressor {
    public String compress(String s) {
        return deflate(s);
    }

    private String deflate(String s) {
        return s.substring(1);
    }
}
`;

let repo: Awaited<ReturnType<typeof indexSources>>;

beforeAll(async () => {
  repo = await indexSources("state", {
    "token/TokenBuilder.java": BUILDER,
    "token/Compressor.java": COMPRESSOR,
  });
});
afterAll(() => repo.close());

describe("the walk through stored state", () => {
  it("goes from a setter to the method reading the field it stores, and on from there", async () => {
    const result = await askQuestion(
      {
        repository: repo.repositoryId,
        question: "I call compressWith(alg) on the builder. Trace how my token ends up compressed.",
        overrides: { mode: "exploratory" },
      },
      new PartLog(),
      { model: null, ephemeral: true },
    );
    const flow = result.loop.retrieval.items.find((i) => i.kind === "flow")?.text ?? "";
    expect(flow).toMatch(/TokenBuilder\.compressWith\(\)[^\n]*\n\s+→ TokenBuilder\.compact\(\)/);
    expect(flow).toContain("Compressor.compress()");
    expect(result.loop.retrieval.rankedSymbols.slice(0, 3)).toContain(
      "token/TokenBuilder.java::TokenBuilder.compact",
    );
  });
});
