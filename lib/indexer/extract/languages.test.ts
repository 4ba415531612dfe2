/** C, C++, C#, Ruby and PHP on small fixtures: symbols, calls, raises, error strings, writes, imports, facts. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { languageForFile } from "../parser";
import { extractSource, type SourceExtraction } from "./index";

async function extract(file: string): Promise<SourceExtraction> {
  const source = readFileSync(new URL(`../__fixtures__/${file}`, import.meta.url), "utf8");
  return extractSource(languageForFile(file, source) ?? "c", source);
}
function symbol(result: SourceExtraction, qualifiedName: string) {
  const found = result.symbols.find((s) => s.qualifiedName === qualifiedName);
  if (!found)
    throw new Error(`no ${qualifiedName} in ${result.symbols.map((s) => s.qualifiedName).join(", ")}`);
  return found;
}
const raws = (calls: Array<{ raw: string }>) => calls.map((c) => c.raw);

describe("C and C++", () => {
  it("keeps definitions, not prototypes, and reads errors written to stderr or named for errors", async () => {
    const header = await extract("c/stack.h");
    expect(header.symbols.map((s) => [s.kind, s.name])).toEqual([["struct", "stack"]]);
    const source = await extract("c/stack.c");
    expect(source.symbols.map((s) => [s.name, s.exported])).toEqual([
      ["die", false],
      ["stack_push", true],
      ["stack_pop", true],
    ]);
    expect(symbol(source, "die").errorStrings).toEqual(["stack: %s\\n"]);
    expect(symbol(source, "stack_push")).toMatchObject({
      docstring: "Pushes one value.",
      errorStrings: ["out of memory"],
      mutates: ["pushes"],
    });
    expect(source.imports.map((i) => i.module)).toEqual(["<stdio.h>", "<stdlib.h>", "stack.h"]);
  });

  it("qualifies by namespace and class, also for out-of-line members", async () => {
    expect(
      languageForFile(
        "buffer.h",
        readFileSync(new URL("../__fixtures__/cpp/buffer.h", import.meta.url), "utf8"),
      ),
    ).toBe("cpp");
    const header = await extract("cpp/buffer.h");
    expect(symbol(header, "fmt.detail.buffer")).toMatchObject({
      bases: ["base<T>"],
      docstring: "A growable character buffer.",
    });
    expect(raws(symbol(header, "fmt.detail.buffer.push_back").calls)).toEqual(["grow"]);
    const source = await extract("cpp/buffer.cc");
    expect(symbol(source, "fmt.detail.buffer.grow")).toMatchObject({
      kind: "method",
      parent: "fmt.detail.buffer",
      raises: ["format_error"],
      errorStrings: ["buffer too large"],
    });
    expect(raws(symbol(source, "fmt.to_string").calls)).toEqual(["buf.push_back", "std::string", "buf.data"]);
  });

  it("reads a file broken by a conditional again with one branch, keeping the other branch's definitions", async () => {
    const result = await extract("c/platform.c");
    expect(result.parseErrors).toBe(0);
    expect(result.symbols.map((s) => [s.name, s.startLine, s.endLine, raws(s.calls)])).toEqual([
      ["tls_detach", 5, 8, ["free"]],
      ["tls_main", 11, 21, ["tls_run"]],
    ]);
  });

  it("keeps declaration macros out of names, namespaces and classes", async () => {
    const header = await extract("cpp/counter.h");
    expect(header.symbols.map((s) => s.qualifiedName)).toEqual([
      "tally.counter",
      "tally.counter.counter",
      "tally.registry",
      "tally.registry.find",
    ]);
    const inline = await extract("cpp/counter-inl.h");
    expect(inline.symbols.map((s) => [s.qualifiedName, s.startLine])).toEqual([
      ["tally.counter.counter", 8],
      ["tally.counter.operator=", 12],
      ["tally.counter.add", 17],
      ["tally.counter.total", 20],
      ["tally.counter.clone", 22],
    ]);
    expect(symbol(inline, "tally.counter.clone").calls.map((c) => c.raw)).toContain("std::make_shared");
    const c = await extract("c/hooks.c");
    expect(c.symbols.map((s) => [s.name, s.signature])).toEqual([
      ["default_malloc", "static void * HOOKS_CDECL default_malloc(size_t size)"],
      ["default_free", "static void HOOKS_CDECL default_free(void *pointer)"],
      ["hooks_status", "HRESULT hooks_status(void)"],
    ]);
  });
  it("names a function after its declarator, not after annotation macros following its parameters", async () => {
    const sink = await extract("cpp/sink.cc");
    expect(sink.symbols.map((s) => [s.qualifiedName, s.parent, s.startLine])).toEqual([
      ["journal.Sink.SendToLog", "journal.Sink", 8],
      ["journal.Sink.Flush", "journal.Sink", 14],
      ["journal.Sink.Pending", "journal.Sink", 19],
    ]);
    expect(raws(symbol(sink, "journal.Sink.SendToLog").calls)).toEqual(["Flush", "WriteToFile"]);
    expect(sink.parseErrors).toBe(0);
  });

  it("names a googletest body after its suite and test, not after the TEST macro", async () => {
    const tests = await extract("cpp/sink_unittest.cc");
    expect(tests.symbols.map((s) => [s.qualifiedName, s.name, s.kind, s.startLine, s.endLine])).toEqual([
      ["journal.LogSink.WaitTillSent", "WaitTillSent", "function", 8, 13],
      ["journal.SinkFixture.FlushesOnExit", "FlushesOnExit", "function", 15, 17],
    ]);
    expect(symbol(tests, "journal.LogSink.WaitTillSent")).toMatchObject({
      signature: "TEST(LogSink, WaitTillSent)",
      docstring: "A sink waits until every message is written.",
    });
    expect(raws(symbol(tests, "journal.LogSink.WaitTillSent").calls)).toEqual([
      "sink.SendToLog",
      "EXPECT_EQ",
      "sink.Pending",
    ]);
    // A macro call that is no definition keeps its plain reading.
    const plain = await extractSource(
      "cpp",
      "int Run(int count) { return count; }\nvoid LOG(int level) {}\n",
    );
    expect(plain.symbols.map((s) => s.qualifiedName)).toEqual(["Run", "LOG"]);
  });
});

describe("C#", () => {
  it("reads namespaces, members, visibility, field writes and logging", async () => {
    const result = await extract("csharp/Logger.cs");
    expect(result.symbols.map((s) => [s.qualifiedName, s.kind, s.exported])).toEqual([
      ["Serilog.Core.Logger", "class", true],
      ["Serilog.Core.Logger.Logger", "method", true],
      ["Serilog.Core.Logger.IsEnabled", "method", true],
      ["Serilog.Core.Logger.Write", "method", true],
      ["Serilog.Core.Logger.Dispatch", "method", false],
      ["Serilog.Core.Logger.Dispose", "method", true],
    ]);
    expect(symbol(result, "Serilog.Core.Logger")).toMatchObject({
      docstring: "The core logging pipeline.",
      decorators: ["Serializable"],
      bases: ["ILogger", "IDisposable"],
    });
    expect(symbol(result, "Serilog.Core.Logger.Logger")).toMatchObject({
      raises: ["ArgumentNullException"],
      errorStrings: ["A sink is required"],
      mutates: ["this._sink"],
    });
    expect(symbol(result, "Serilog.Core.Logger.Write")).toMatchObject({
      errorStrings: ["Event dropped by {Sink}"],
      mutates: ["this._written"],
    });
    expect(result.imports.at(-1)).toEqual({
      module: "Serilog.Core.Sinks",
      names: [],
      line: 3,
      local: "Sinks",
    });
  });

  it("reads one branch of a preprocessor conditional that splits a statement or a base list", async () => {
    const result = await extract("csharp/TextReader.cs");
    expect(result.symbols.map((s) => s.qualifiedName)).toEqual([
      "Tally.Json.TextReader",
      "Tally.Json.TextReader.ParseString",
      "Tally.Json.TextReader.ParseNumber",
    ]);
    expect(symbol(result, "Tally.Json.TextReader").bases).toEqual(["IAsyncDisposable"]);
    expect(symbol(result, "Tally.Json.TextReader.ParseString").calls.map((c) => c.raw)).toEqual([
      "SetToken",
      "SetToken",
      "ClearRecentString",
    ]);
    expect(symbol(result, "Tally.Json.TextReader.ParseNumber").raises).toEqual(["JsonReaderException"]);
  });
  it("makes destructors, operators, conversions, indexers and events with accessors members", async () => {
    const source = [
      "namespace Pool;",
      "public sealed class Lease {",
      "    public int this[int i] => Slots.Get(i);",
      "    public static Lease operator +(Lease a, Lease b) => Merge(a, b);",
      "    public static implicit operator int(Lease l) { return l.Count(); }",
      "    ~Lease() { Release(); }",
      "    public event EventHandler Changed { add { Subscribe(value); } remove { } }",
      "}",
    ].join("\n");
    const result = await extractSource("csharp", source);
    expect(result.symbols.map((s) => [s.qualifiedName, s.kind, s.calls.map((c) => c.raw)])).toEqual([
      ["Pool.Lease", "class", []],
      ["Pool.Lease.this[]", "method", ["Slots.Get"]],
      ["Pool.Lease.operator+", "method", ["Merge"]],
      ["Pool.Lease.operator int", "method", ["l.Count"]],
      ["Pool.Lease.~Lease", "method", ["Release"]],
      ["Pool.Lease.Changed", "method", ["Subscribe"]],
    ]);
  });
});

describe("Ruby", () => {
  it("nests modules and classes, keeps private methods private and bare calls as calls", async () => {
    const result = await extract("ruby/base.rb");
    expect(result.symbols.map((s) => [s.qualifiedName, s.kind, s.exported])).toEqual([
      ["Sinatra", "module", true],
      ["Sinatra.Base", "class", true],
      ["Sinatra.Base.get", "method", true],
      ["Sinatra.Base.call", "method", true],
      ["Sinatra.Base.dispatch!", "method", false],
      ["Sinatra.Base.route!", "method", false],
    ]);
    expect(symbol(result, "Sinatra.Base")).toMatchObject({
      bases: ["Rack::Builder", "Helpers"],
      docstring: "Runs routes for a request.",
    });
    expect(symbol(result, "Sinatra.Base.call")).toMatchObject({
      errorStrings: ["no response"],
      mutates: ["@env"],
    });
    expect(raws(symbol(result, "Sinatra.Base.dispatch!").calls)).toEqual([
      "route!",
      "not_found",
      "e.message",
    ]);
    expect(symbol(result, "Sinatra.Base.dispatch!")).toMatchObject({
      raises: ["Error"],
      errorStrings: ["dispatch failed: {…}"],
    });
    // `routes` is a local once assigned: only `settings` and the block's call are bare calls.
    expect(raws(symbol(result, "Sinatra.Base.route!").calls)).toEqual([
      "settings.routes",
      "settings",
      "routes.each",
      "process_route",
    ]);
    expect(result.imports.map((i) => i.module)).toEqual(["rack", "./helpers"]);
  });

  it("makes a method of define_method with a literal name, its body the block", async () => {
    const result = await extract("ruby/response.rb");
    expect(result.symbols.map((s) => [s.qualifiedName, s.kind, s.startLine, s.endLine, s.exported])).toEqual([
      ["Transport", "module", 1, 23, true],
      ["Transport.Response", "class", 3, 22, true],
      ["Transport.Response.redirect?", "method", 6, 7, true],
      ["Transport.Response.multiple_choices?", "method", 13, 15, true],
      ["Transport.Response.reset!", "method", 19, 21, false],
    ]);
    expect(symbol(result, "Transport.Response.redirect?")).toMatchObject({
      parent: "Transport.Response",
      signature: "define_method(:redirect?)",
      docstring: "Whether the status is a redirect.",
    });
    // The block is the method's body: its calls and writes are the method's, not the class's.
    expect(raws(symbol(result, "Transport.Response.redirect?").calls)).toEqual(["code.between?", "code"]);
    expect(raws(symbol(result, "Transport.Response").calls)).not.toContain("code.between?");
    expect(symbol(result, "Transport.Response.reset!").mutates).toEqual(["@body"]);
    // Inside a method, define_method runs later on another class: no symbol, its calls the method's.
    const nested = await extractSource(
      "ruby",
      "class Base\n  def self.defaults(o)\n    define_method(:defaults) { super().merge(o) }\n  end\nend\n",
    );
    expect(nested.symbols.map((s) => s.qualifiedName)).toEqual(["Base", "Base.defaults"]);
    expect(raws(symbol(nested, "Base.defaults").calls)).toContain("define_method");
  });

  it("makes a class of a constant assigned a Struct (or a Struct subclass) with a block of methods", async () => {
    const source = [
      "module Http",
      "  Request = Struct.new(:verb, :path) do",
      "    def self.create(verb)",
      "      new(verb)",
      "    end",
      "",
      "    def to_env(connection)",
      "      connection.build_url(path)",
      "    end",
      "  end",
      "",
      "  Env = Options.new(:status, :body) do",
      "    def success?",
      "      status < 400",
      "    end",
      "  end",
      "",
      "  LOGGER = Logger.new(STDOUT) do |line|",
      "    puts line",
      "  end",
      "end",
      "",
    ].join("\n");
    const result = await extractSource("ruby", source);
    expect(result.symbols.map((s) => [s.qualifiedName, s.kind, s.startLine, s.endLine])).toEqual([
      ["Http", "module", 1, 21],
      ["Http.Request", "class", 2, 10],
      ["Http.Request.create", "method", 3, 5],
      ["Http.Request.to_env", "method", 7, 9],
      ["Http.Env", "class", 12, 16],
      ["Http.Env.success?", "method", 13, 15],
    ]);
    // The block's calls are the methods', not the module's.
    expect(raws(symbol(result, "Http.Request.to_env").calls)).toContain("connection.build_url");
  });

  it("reports empty rescues but not an optional require", async () => {
    const result = await extractSource(
      "ruby",
      "begin\n  require 'x'\nrescue LoadError\nend\ndef f\n  g\nrescue Timeout\nend\n",
    );
    expect(result.facts.swallowed).toEqual([
      { line: 7, endLine: 7, kind: "empty-catch", caught: "Timeout", symbol: "f" },
    ]);
  });
});

describe("PHP", () => {
  it("reads namespaces, use imports, traits, visibility and errors", async () => {
    const result = await extract("php/Route.php");
    expect(result.symbols.map((s) => [s.qualifiedName, s.kind, s.exported])).toEqual([
      ["Slim.Routing.Route", "class", true],
      ["Slim.Routing.Route.__construct", "method", true],
      ["Slim.Routing.Route.run", "method", true],
      ["Slim.Routing.Route.finalize", "method", false],
      ["Slim.Routing.route", "function", true],
    ]);
    expect(symbol(result, "Slim.Routing.Route").bases).toEqual(["RouteInterface", "MiddlewareAwareTrait"]);
    expect(symbol(result, "Slim.Routing.Route.__construct").mutates).toEqual(["$this->arguments"]);
    expect(symbol(result, "Slim.Routing.Route.run")).toMatchObject({
      raises: ["RuntimeException"],
      errorStrings: ["empty route pattern", "Route pattern is empty: {…}"],
    });
    expect(raws(symbol(result, "Slim.Routing.Route.run").calls)).toEqual([
      "error_log",
      "new RuntimeException",
      "$this->handler->handle",
      "self::finalize",
    ]);
    expect(result.imports[2]).toEqual({
      module: "Slim\\Interfaces\\InvocationStrategyInterface",
      names: ["InvocationStrategyInterface"],
      line: 8,
      aliases: { Strategy: "InvocationStrategyInterface" },
    });
  });
});
