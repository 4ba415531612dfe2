/**
 * Calls on receivers whose type the code declares: real sources in each typed language go
 * through extraction and the resolver, and each test pins which class's method a call on
 * a parameter, a local, a field, a constructed value or a loop variable lands on, and that
 * a Java bare call to an overloaded method lands on the overload its arguments fit.
 */
import { describe, expect, it } from "vitest";
import { callEdges } from "../../test-support/call-edges.ts";
import { reduceType } from "./extract/type-names.ts";

describe("declared types reduce to the type a method runs on", () => {
  it("unwraps pointers, references, optionals, smart pointers and collections", () => {
    expect(reduceType("Arc<dyn Subscriber + Send + Sync>")).toBe("Subscriber");
    expect(reduceType("Option<&'static Metadata<'static>>")).toBe("Metadata");
    expect(reduceType("*engine")).toBe("engine");
    expect(reduceType("[]*Route")).toBe("Route");
    expect(reduceType("map[string]*Route")).toBe("Route");
    expect(reduceType("List<IValidationRule>")).toBe("IValidationRule");
    expect(reduceType("Map<String, Handler>")).toBe("Handler");
    expect(reduceType("std::unique_ptr<Engine>")).toBe("Engine");
    expect(reduceType("Parser | null")).toBe("Parser");
    expect(reduceType("Item[]")).toBe("Item");
    expect(reduceType("?Loader")).toBe("Loader");
    expect(reduceType("http.Request")).toBe("http.Request");
    expect(reduceType("int")).toBeNull();
    expect(reduceType("String")).toBeNull();
  });
});

describe("calls on typed receivers", () => {
  it("Java: a constructed value, a field, a nested type, a loop variable over a typed list and an interface", async () => {
    const edges = await callEdges({
      "src/Factory.java": `package demo;
public class Factory {
    private final Parser parser;
    private List<Rule> rules;
    protected Parser _createParser(InputStream in, Context ctxt) {
        return new Bootstrapper(ctxt, in).constructParser(1);
    }
    void check() {
        for (Rule rule : rules) { rule.validate(parser); }
        parser.nextToken();
    }
}`,
      "src/Bootstrapper.java": `package demo;
public class Bootstrapper {
    public Parser constructParser(int features) { return null; }
}`,
      "src/Parser.java": `package demo;
public class Parser {
    public Token nextToken() { return null; }
}`,
      "src/Rule.java": `package demo;
public interface Rule {
    void validate(Parser p);
}`,
      "src/Spec.java": `package demo;
public class Spec {
    public static class Builder {
        private final Block.Builder code = Block.builder();
        public Builder beginControlFlow(String flow) { code.beginControlFlow(flow); return this; }
    }
}`,
      "src/Block.java": `package demo;
public class Block {
    public static class Builder {
        public Builder beginControlFlow(String flow) { return this; }
    }
}`,
      "src/Other.java": `package demo;
public class Other {
    public Token nextToken() { return null; }
    public void validate(Parser p) {}
    public Parser constructParser(int f) { return null; }
}`,
    });
    expect(edges).toContain("Factory._createParser -> Bootstrapper.constructParser@0.9");
    expect(edges).toContain("Factory.check -> Rule.validate@0.9");
    expect(edges).toContain("Factory.check -> Parser.nextToken@0.9");
    expect(edges.filter((e) => e.includes("Other."))).toEqual([]);
    // A nested type is looked up through its outer class, not as the caller's own `Builder`.
    expect(edges).toContain("Spec.Builder.beginControlFlow -> Block.Builder.beginControlFlow@0.9");
  });

  it("Java: a bare call lands on the overload its arguments fit, and stays open when none fits best", async () => {
    const edges = await callEdges({
      "src/Reader.java": `package demo;
public class Reader {
    public Token read(InputStream in) { return parse(in, 0); }
    public Token read(Source src) { return parse(open(src), 0); }
    Token parse(Source s, int flags) { return helper(); }
    Token parse(InputStream in, int flags) { return null; }
    InputStream open(Source s) { return null; }
    Token helper() { return null; }
}`,
    });
    expect(edges).toContain("Reader.read -> Reader.parse#2@0.9");
    expect(edges).toContain("Reader.read#2 -> Reader.open@0.9");
    expect(edges.filter((e) => e.startsWith("Reader.read#2 -> Reader.parse"))).toEqual([]);
    expect(edges).toContain("Reader.parse -> Reader.helper@0.9");
  });

  it("C#: foreach over a typed property list reaches the interface's method; a bare field's type is read", async () => {
    const edges = await callEdges({
      "src/AbstractValidator.cs": `namespace FV {
public class AbstractValidator {
    private readonly Parser _parser;
    internal List<IValidationRule> Rules { get; } = new();
    public async Task ValidateAsync(Context ctx) {
        foreach (var rule in Rules) { await rule.ValidateAsync(ctx); }
        _parser.Next();
    }
}
public interface IValidationRule { Task ValidateAsync(Context ctx); }
public class Parser { public void Next() {} }
public class Unrelated { public void Next() {} }
}`,
    });
    expect(edges).toContain("FV.AbstractValidator.ValidateAsync -> FV.IValidationRule.ValidateAsync@0.9");
    expect(edges).toContain("FV.AbstractValidator.ValidateAsync -> FV.Parser.Next@0.9");
    expect(edges.filter((e) => e.includes("Unrelated"))).toEqual([]);
  });

  it("Go: a struct field of pointer type (its method in another file of the package), a range over a typed slice; a library type gets no guess", async () => {
    const edges = await callEdges({
      "rest/server.go": `package rest
import "net/http"
type Server struct {
	ngin *engine
	routes []*Route
}
func (s *Server) Start(req *http.Request) {
	s.ngin.start(req)
	for _, r := range s.routes {
		r.Match(req)
	}
	req.Context()
}`,
      "rest/engine.go": `package rest
type engine struct{}`,
      "rest/engine_start.go": `package rest
func (ng *engine) start(r *http.Request) error { return nil }`,
      "rest/route.go": `package rest
type Route struct{}
func (r *Route) Match(req *http.Request) bool { return false }
type Ctx struct{}
func (c *Ctx) Context() {}`,
    });
    expect(edges).toContain("Server.Start -> engine.start@0.9");
    expect(edges).toContain("Server.Start -> Route.Match@0.9");
    expect(edges.filter((e) => e.includes("Context"))).toEqual([]);
  });

  it("Rust: a field holding an Arc<dyn Trait> reaches the trait's method, a struct field the struct's", async () => {
    const edges = await callEdges({
      "src/span.rs": `pub trait Subscriber { fn enter(&self, id: &Id); }
pub struct Dispatch { subscriber: Arc<dyn Subscriber + Send + Sync> }
impl Dispatch {
    pub fn enter(&self, id: &Id) { self.subscriber.enter(id); }
}
pub struct Span { subscriber: Dispatch }
impl Span {
    pub fn do_enter(&self, id: &Id) { self.subscriber.enter(id); }
    pub fn with(&self) { let d = Dispatch::new(); d.enter(&self.id); }
}`,
    });
    expect(edges).toContain("Dispatch.enter -> Subscriber.enter@0.9");
    expect(edges).toContain("Span.do_enter -> Dispatch.enter@0.9");
    expect(edges).toContain("Span.with -> Dispatch.enter@0.9");
  });

  it("TypeScript: a constructor parameter property, a typed local and a constructed local", async () => {
    const edges = await callEdges({
      "src/client.ts": `import { Engine } from "./engine";
export class Client {
  constructor(private readonly engine: Engine) {}
  send(options: Options) {
    this.engine.run(options);
    const q: Queue = makeQueue();
    q.push(options);
    const r = new Request(options);
    r.prepare();
    var later: Queue = makeQueue();
    later.drain();
  }
}
class Queue { push(o: Options) {} drain() {} }
class Request { prepare() {} }`,
      "src/engine.ts": `export class Engine { run(o: Options) {} }
export class Pool { run(o: Options) {} }`,
    });
    expect(edges).toContain("Client.send -> Engine.run@0.9");
    expect(edges).toContain("Client.send -> Queue.push@0.9");
    expect(edges).toContain("Client.send -> Request.prepare@0.9");
    expect(edges).toContain("Client.send -> Queue.drain@0.9");
    expect(edges.filter((e) => e.includes("Pool"))).toEqual([]);
  });

  it("PHP, Python and C++: typed properties, attributes set in __init__ and members", async () => {
    const edges = await callEdges({
      "src/Dotenv.php": `<?php
namespace Dotenv;
class Dotenv {
    private Loader $loader;
    public function __construct(private Parser $parser) {}
    public function load() {
        $this->loader->load($this->parser->parse());
    }
}
class Loader { public function load($entries) {} }
class Parser { public function parse() {} }`,
      "pkg/app.py": `class Engine:
    def go(self):
        pass

class App:
    def __init__(self, backup: Engine):
        self.engine = Engine()
        self.backup = backup

    def run(self, other: Engine):
        self.engine.go()
        other.go()

    def fallback(self):
        self.backup.go()
`,
      "src/logging.cc": `class Sink { public: void send(int n) {} };
class Logger {
  Sink* sink_;
  void flush() { sink_->send(1); }
};`,
    });
    expect(edges).toContain("Dotenv.Dotenv.load -> Dotenv.Loader.load@0.9");
    expect(edges).toContain("Dotenv.Dotenv.load -> Dotenv.Parser.parse@0.9");
    // One edge per call line: `self.engine.go()` and `other.go()`.
    expect(edges.filter((e) => e.startsWith("App.run -> Engine.go@0.9"))).toHaveLength(2);
    // An attribute assigned a typed parameter in __init__ has the parameter's type.
    expect(edges).toContain("App.fallback -> Engine.go@0.9");
    expect(edges).toContain("Logger.flush -> Sink.send@0.9");
  });
});
