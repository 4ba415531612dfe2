/**
 * Calls on a returned value: real sources in each typed language go through extraction
 * and the resolver, and each test pins that a call on a call's result (`a.b().c()`), on
 * a fluent builder's `this`/`Self`/`static`, or on a local assigned from a call lands on
 * the method of the type the callee declares it returns, and that the other owner of the
 * method's name gets no edge.
 */
import { describe, expect, it } from "vitest";
import { callEdges } from "../../test-support/call-edges.ts";
import { returnTypeOf } from "./return-types.ts";

describe("return types read from signatures", () => {
  it("reads each language's return type, unwrapped to what a method call reaches", () => {
    expect(
      returnTypeOf("go", "WithField", "func (l *Logger) WithField(key string, value interface{}) *Entry"),
    ).toBe("Entry");
    expect(returnTypeOf("go", "New", "func New(opts ...func(int) error) (l *Logger, err error)")).toBe(
      "Logger",
    );
    expect(returnTypeOf("go", "Open", "func Open() (*pkg.Conn, error)")).toBe("pkg.Conn");
    expect(returnTypeOf("go", "Get", "func Get[T any]() T")).toBeNull();
    expect(returnTypeOf("java", "of", "public static <T> Builder<T> of(List<T> items)")).toBe("Builder");
    expect(returnTypeOf("java", "items", "public List<Item> items()")).toBeNull();
    expect(returnTypeOf("csharp", "GetAsync", "public async Task<Response> GetAsync(string url)")).toBe(
      "Response",
    );
    expect(returnTypeOf("cpp", "withX", "Builder& Builder::withX(int a) const")).toBe("Builder");
    expect(returnTypeOf("cpp", "make", "std::unique_ptr<Engine> make()")).toBe("Engine");
    expect(
      returnTypeOf(
        "typescript",
        "create",
        "export async function create(o: Options): Promise<Client | null>",
      ),
    ).toBe("Client");
    expect(returnTypeOf("typescript", "h", "const h = (a: string): Bar =>")).toBe("Bar");
    expect(returnTypeOf("typescript", "isFoo", "function isFoo(x: unknown): x is Foo")).toBeNull();
    expect(returnTypeOf("typescript", "set", "set(k: string): this")).toBe("Self");
    expect(returnTypeOf("rust", "build", "pub fn build(self) -> Result<Client, Error>")).toBe("Client");
    expect(returnTypeOf("rust", "with", "pub fn with<F>(mut self, f: F) -> Self where F: Fn()")).toBe("Self");
    expect(returnTypeOf("php", "withX", "public function withX(int $a): static")).toBe("Self");
    expect(returnTypeOf("php", "get", "public function get(): ?Loader")).toBe("Loader");
    expect(returnTypeOf("python", "get", 'def get(self, key) -> "Optional[Entry]"')).toBe("Entry");
    expect(returnTypeOf("python", "run", "def run(self)")).toBeNull();
    expect(returnTypeOf("python", "close", "def close(self) -> None")).toBeNull();
    expect(returnTypeOf("cpp", "operator++", "Iter& Iter::operator++(int)")).toBe("Iter");
    expect(returnTypeOf("cpp", "operator()", "bool operator()(int a)")).toBeNull();
    expect(returnTypeOf("javascript", "run", "function run()")).toBeNull();
  });
});

describe("calls on returned values", () => {
  it("Go: a package function's *Entry result (logrus's shape), a constructor's first result assigned to a local", async () => {
    const edges = await callEdges({
      "logrus/logger.go": `package logrus
type Logger struct{}
func New() *Logger { return &Logger{} }
func (l *Logger) WithField(key string, value interface{}) *Entry { return NewEntry(l).WithField(key, value) }
func (l *Logger) Info(args ...interface{}) { l.Log(args...) }
func (l *Logger) Log(args ...interface{}) {}`,
      "logrus/entry.go": `package logrus
type Entry struct{ Logger *Logger }
func NewEntry(l *Logger) *Entry { return &Entry{Logger: l} }
func (e *Entry) WithField(key string, value interface{}) *Entry { return e }
func (e *Entry) Info(args ...interface{}) { e.Log(args...) }
func (e *Entry) Log(args ...interface{}) {}`,
      "logrus/exported.go": `package logrus
var std = New()
func WithField(key string, value interface{}) *Entry { return std.WithField(key, value) }`,
      "cmd/app/main.go": `package main
import "example.com/logrus"
func login(id string) {
	logrus.WithField("user", id).Info("login")
}
func setup() (*logrus.Logger, error) { return logrus.New(), nil }
func serve() {
	l, err := setup()
	l.Info("up", err)
}`,
    });
    expect(edges).toContain("login -> Entry.Info@0.9");
    expect(edges.filter((e) => e.startsWith("login -> Logger."))).toEqual([]);
    // Never surer than the call that returned the value (`NewEntry` is found by its unique name).
    expect(edges).toContain("Logger.WithField -> Entry.WithField@0.6");
    expect(edges).toContain("serve -> Logger.Info@0.9");
    expect(edges.filter((e) => e.startsWith("serve -> Entry."))).toEqual([]);
  });

  it("Java and C#: a builder chain through methods that return their own class, a local assigned from a call", async () => {
    const edges = await callEdges({
      "src/Request.java": `package demo;
public class Request {
    public static Builder builder() { return new Builder(); }
    public static class Builder {
        public Builder url(String u) { return this; }
        public Request build() { return null; }
    }
    public Response execute() { return null; }
}`,
      "src/Response.java": `package demo;
public class Response { public void close() {} }`,
      "src/Other.java": `package demo;
public class Other { public void build() {} public void close() {} public void url(String u) {} }`,
      "src/Client.java": `package demo;
public class Client {
    void call() {
        Request.builder().url("x").build().execute();
        var response = fetch();
        response.close();
    }
    Response fetch() { return null; }
}`,
      "src/Pipeline.cs": `namespace P {
public class Pipeline { public Stage Next() { return null; } public async Task<Stage> LoadAsync() { return null; } }
public class Stage { public void Run() {} }
public class Job { public void Run() {} }
public class Host {
    private Pipeline _pipeline;
    public async Task Start() { _pipeline.Next().Run(); var stage = await _pipeline.LoadAsync(); stage.Run(); }
}
}`,
    });
    // As sure as `Request.builder()` itself (a class of the package found by its unique name).
    expect(edges).toContain("Client.call -> Request.Builder.url@0.6");
    expect(edges).toContain("Client.call -> Request.Builder.build@0.6");
    expect(edges).toContain("Client.call -> Request.execute@0.6");
    expect(edges).toContain("Client.call -> Response.close@0.9");
    expect(edges.filter((e) => e.includes("Other."))).toEqual([]);
    expect(edges.filter((e) => e.startsWith("P.Host.Start -> P.Stage.Run@0.9"))).toHaveLength(1);
    expect(edges.filter((e) => e.includes("P.Job"))).toEqual([]);
  });

  it("TypeScript and PHP: `this` and `static` returns keep the builder's class; a declared return type types a local", async () => {
    const edges = await callEdges({
      "src/query.ts": `export class Query {
  where(c: string): this { return this; }
  limit(n: number): Query { return this; }
  run(): Result { return new Result(); }
}
export class Result { first() {} }
export class Cache { run() {} first() {} }
export function query(): Query { return new Query(); }
export function main() {
  query().where("a").limit(1).run().first();
  const q = query();
  q.run();
}`,
      "src/Env.php": `<?php
namespace Env;
class Builder {
    public function withPaths(array $p): static { return $this; }
    public function make(): ?Loader { return null; }
}
class Loader { public function load() {} }
class Other { public function load() {} }
class Factory {
    public function create(Builder $b) {
        $b->withPaths([])->make()->load();
        $loader = $b->make();
        $loader->load();
    }
}`,
    });
    expect(edges).toContain("main -> Query.where@0.9");
    expect(edges).toContain("main -> Query.limit@0.9");
    expect(edges).toContain("main -> Query.run@0.9");
    expect(edges).toContain("main -> Result.first@0.9");
    expect(edges.filter((e) => e.includes("Cache."))).toEqual([]);
    expect(edges).toContain("Env.Factory.create -> Env.Builder.make@0.9");
    expect(edges.filter((e) => e.startsWith("Env.Factory.create -> Env.Loader.load@0.9"))).toHaveLength(2);
    expect(edges.filter((e) => e.includes("Env.Other"))).toEqual([]);
  });

  it("Rust, Python and C++: `-> Self` and `Result<T, E>` through `?`, an annotated return, a member returning a reference", async () => {
    const edges = await callEdges({
      "src/client.rs": `pub struct ClientBuilder { timeout: u64 }
impl ClientBuilder {
    pub fn new() -> Self { ClientBuilder { timeout: 0 } }
    pub fn timeout(mut self, t: u64) -> Self { self.timeout = t; self }
    pub fn build(self) -> Result<Client, Error> { todo!() }
}
pub struct Client {}
impl Client { pub fn send(&self) {} }
pub struct Mailer {}
impl Mailer { pub fn send(&self) {} pub fn timeout(&self) {} }
pub fn run() -> Result<(), Error> {
    ClientBuilder::new().timeout(5).build()?.send();
    let client = ClientBuilder::new().build().unwrap();
    client.send();
    Ok(())
}`,
      "pkg/session.py": `class Response:
    def json(self):
        pass

class Session:
    def get(self, url) -> "Response":
        return Response()

class Other:
    def json(self):
        pass

def fetch(s: Session):
    s.get("x").json()
    r = s.get("y")
    r.json()
`,
      "src/table.cc": `class Row { public: void print() {} };
class Other { public: void print() {} };
class Table {
 public:
  Row& row(int i);
  void dump() { row(0).print(); }
};
Row& Table::row(int i) { static Row r; return r; }`,
    });
    expect(edges).toContain("run -> ClientBuilder.timeout@0.9");
    expect(edges).toContain("run -> ClientBuilder.build@0.9");
    expect(edges.filter((e) => e.startsWith("run -> Client.send@0.9"))).toHaveLength(2);
    expect(edges.filter((e) => e.startsWith("run -> Mailer."))).toEqual([]);
    expect(edges.filter((e) => e.startsWith("fetch -> Response.json@0.9"))).toHaveLength(2);
    expect(edges.filter((e) => e.includes("Other.json"))).toEqual([]);
    expect(edges).toContain("Table.dump -> Row.print@0.9");
    expect(edges.filter((e) => e.includes("Other.print"))).toEqual([]);
  });
});
