/**
 * Calls on fields, elements and module paths: real sources go through extraction and the
 * resolver, and each test pins the method a call lands on when its receiver is a field
 * typed by its struct's parameters, an element of a typed collection, an unwrapped value,
 * a field named after its type in another file, or a Rust module path.
 */
import { describe, expect, it } from "vitest";
import { callEdges } from "../../test-support/call-edges.ts";

describe("Rust fields, elements and module paths", () => {
  it("types a generic field by its impl, an element and an unwrapped element; resolves `mod` paths", async () => {
    const edges = await callEdges({
      "src/lib.rs": `mod util;
use std::io;
pub struct IntoIter { stack_list: Vec<DirList>, oldest: usize }
enum DirList { Opened, Closed }
pub struct FilterEntry<I, P> { it: I, predicate: P }
impl IntoIter {
    fn push(&mut self) {
        self.stack_list[self.oldest].close();
        let dent = self.stack_list.last_mut().expect("non-empty").next();
        let dev = util::device_num(dent);
        let other = crate::util::same_device(dev);
        let input = io::stdin();
    }
    fn skip_current_dir(&mut self) {}
    fn pop(&mut self) {
        let top = self.stack_list.last_mut().expect("non-empty");
        top.close();
    }
}
impl DirList {
    fn close(&mut self) {}
    fn next(&mut self) -> Option<u64> { None }
}
impl<P> FilterEntry<IntoIter, P> {
    pub fn skip_current_dir(&mut self) { self.it.skip_current_dir(); }
}`,
      "src/util.rs": `pub fn device_num(p: u64) -> u64 { p }
pub fn same_device(d: u64) -> bool { true }`,
      "src/io.rs": `pub fn stdin() {}`,
      "src/other.rs": `pub struct Other;
impl Other {
    fn close(&mut self) {}
    fn next(&mut self) -> Option<u64> { None }
    fn skip_current_dir(&mut self) {}
}`,
    });
    expect(edges).toContain("IntoIter.push -> DirList.close@0.9");
    expect(edges).toContain("IntoIter.push -> DirList.next@0.9");
    expect(edges).toContain("IntoIter.pop -> DirList.close@0.9");
    expect(edges).toContain("IntoIter.push -> device_num@0.9");
    expect(edges).toContain("IntoIter.push -> same_device@0.9");
    expect(edges).toContain("FilterEntry.skip_current_dir -> IntoIter.skip_current_dir@0.9");
    expect(edges.filter((e) => e.includes("Other.") || e.includes("stdin"))).toEqual([]);
  });
});

describe("elements and unwrapped values of typed collections", () => {
  it("Java: a list's element and an Optional's value", async () => {
    const edges = await callEdges({
      "src/A.java": `package demo;
public class A {
    private final List<Rule> rules = new ArrayList<>();
    private Optional<Parser> parser;
    void run() {
        rules.get(0).check();
        parser.get().parse();
        parser.orElseThrow().parse();
    }
}`,
      "src/Parser.java": `package demo;
public class Parser { public void parse() {} }`,
      "src/Rule.java": `package demo;
public class Rule { public void check() {} }`,
      "src/Other.java": `package demo;
public class Other { public void parse() {} public void check() {} }`,
    });
    expect(edges).toContain("A.run -> Rule.check@0.9");
    expect(edges.filter((e) => e === "A.run -> Parser.parse@0.9")).toHaveLength(2);
    expect(edges.filter((e) => e.includes("Other."))).toEqual([]);
  });

  it("C#, TypeScript and Python: indexed elements and LINQ's First()", async () => {
    const edges = await callEdges({
      "src/A.cs": `namespace Demo {
public class A {
  private List<Parser> _all;
  public void Run() {
    _all[0].Parse();
    _all.First().Parse();
  }
}}`,
      "src/Parser.cs": `namespace Demo { public class Parser { public void Parse() {} } }`,
      "src/Other.cs": `namespace Demo { public class Other { public void Parse() {} } }`,
      "web/a.ts": `import { Step } from "./step";
export class Flow {
  private steps: Array<Step> = [];
  run(i: number) { this.steps[i].apply(); }
  last() {
    const step = this.steps[this.steps.length - 1];
    step.apply();
  }
}`,
      "web/step.ts": `export class Step { apply() {} }`,
      "web/other.ts": `export class Other { apply() {} }`,
      "py/client.py": `from .hooks import Hook
class Client:
    def __init__(self, hooks: list[Hook]):
        self.hooks = hooks
    def fire(self):
        self.hooks[0].run_hook()
`,
      "py/hooks.py": `class Hook:
    def run_hook(self):
        pass
`,
      "py/other.py": `class Other:
    def run_hook(self):
        pass
`,
    });
    expect(edges.filter((e) => e === "Demo.A.Run -> Demo.Parser.Parse@0.9")).toHaveLength(2);
    expect(edges).toContain("Flow.run -> Step.apply@0.9");
    expect(edges).toContain("Flow.last -> Step.apply@0.9");
    expect(edges).toContain("Client.fire -> Hook.run_hook@0.9");
    expect(edges.filter((e) => e.includes("Other."))).toEqual([]);
  });
});

describe("a field whose type another file declares", () => {
  it("Go and C++: lands on the one type the field is named after", async () => {
    const edges = await callEdges({
      "svc/types.go": `package svc
type Server struct {
	store *Store
	cache *UserCache
}`,
      "svc/server.go": `package svc
func (s *Server) Handle() {
	s.store.Lookup()
	s.cache.Lookup()
}
func (s *Server) Each() {
	for _, store := range s.stores {
		store.Lookup()
	}
}`,
      "svc/store.go": `package svc
type Store struct{}
func (st *Store) Lookup() {}`,
      "svc/cache.go": `package svc
type UserCache struct{}
func (c *UserCache) Lookup() {}`,
      "svc/other.go": `package svc
type Other struct{}
func (o *Other) Lookup() {}`,
      "src/client.h": `class Conn;
class Client {
 public:
  void run();
 private:
  Conn* m_conn;
};`,
      "src/client.cc": `#include "client.h"
#include "conn.h"
void Client::run() { m_conn->send(); }`,
      "src/conn.h": `class Conn { public: void send(); };`,
      "src/conn.cc": `#include "conn.h"
void Conn::send() {}`,
      "src/other.h": `class Other { public: void send(); };`,
      "src/other.cc": `#include "other.h"
void Other::send() {}`,
    });
    expect(edges).toContain("Server.Handle -> Store.Lookup@0.6");
    expect(edges).toContain("Server.Handle -> UserCache.Lookup@0.6");
    expect(edges).toContain("Server.Each -> Store.Lookup@0.6");
    expect(edges).toContain("Client.run -> Conn.send@0.6");
    expect(edges.filter((e) => e.includes("Other."))).toEqual([]);
  });

  it("a generic name needs the type's whole name, and two such types leave the call open", async () => {
    const edges = await callEdges({
      "svc/server.go": `package svc
func (s *Server) Close() {
	s.conn.close()
	s.file.close()
}`,
      "svc/conn.go": `package svc
type HttpConn struct{}
func (c *HttpConn) close() {}`,
      "svc/file.go": `package svc
type File struct{}
func (f *File) close() {}`,
      "svc/file2.go": `package other
type File struct{}
func (f *File) close() {}`,
    });
    expect(edges.filter((e) => e.startsWith("Server.Close"))).toEqual([]);
  });

  it("a local assigned from a call the index cannot type is not placed by its name", async () => {
    const edges = await callEdges({
      "core/src/span.rs": `pub fn emit(meta: &Meta) {
    let logger = log::logger();
    logger.write_record(meta);
}`,
      "support/src/lib.rs": `struct Logger;
impl Logger {
    fn write_record(&self, meta: &Meta) {}
}`,
    });
    // Only the ordinary guess by a rare name stands, not the surer receiver-named edge.
    expect(edges.filter((e) => e.startsWith("emit -> Logger"))).toEqual(["emit -> Logger.write_record@0.5"]);
  });
});
