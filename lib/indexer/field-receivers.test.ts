/**
 * Calls on fields and elements: real sources go through extraction and the resolver, and
 * each test pins the method a call lands on when its receiver is a field typed by its
 * struct's parameters, an element of a typed collection or an unwrapped value.
 */
import { describe, expect, it } from "vitest";
import { callEdges } from "../../test-support/call-edges.ts";

describe("Rust fields and elements", () => {
  it("types a generic field by its impl, an element and an unwrapped element", async () => {
    const edges = await callEdges({
      "src/lib.rs": `pub struct IntoIter { stack_list: Vec<DirList>, oldest: usize }
enum DirList { Opened, Closed }
pub struct FilterEntry<I, P> { it: I, predicate: P }
impl IntoIter {
    fn push(&mut self) {
        self.stack_list[self.oldest].close();
        let dent = self.stack_list.last_mut().expect("non-empty").next();
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
    expect(edges).toContain("FilterEntry.skip_current_dir -> IntoIter.skip_current_dir@0.9");
    expect(edges.filter((e) => e.includes("Other."))).toEqual([]);
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
