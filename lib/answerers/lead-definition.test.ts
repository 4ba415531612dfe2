import { answerInput as input, symbolItem as symbol } from "../../test-support/answer-input.ts";
import { describe, expect, it } from "vitest";
import { stem } from "../db/tokenize.ts";
import { decidingLines, rankedLeads } from "./lead-definition.ts";

const stems = (...words: string[]) => new Set(words.map((w) => stem(w)));

describe("the deciding lines of a definition", () => {
  it("read a Ruby statement on an instance variable as code, not as a decorator", () => {
    const source = [
      "def to_app",
      "  # the last handler added is the deepest; the adapter is always innermost",
      "  @handlers.reverse.inject(@adapter.build) do |app, handler|",
      "    handler.build(app)",
      "  end",
      "end",
    ].join("\n");
    expect(decidingLines(source, stems("adapter", "innermost")).map((l) => l.text)).toEqual([
      "@handlers.reverse.inject(@adapter.build) do |app, handler|",
    ]);
  });

  it("still leave decorators and annotations out (Python, Java)", () => {
    const python = [
      "def make_retry(limit):",
      "    @functools.wraps(limit)",
      "    @retry_policy(",
      "    def run(attempt):",
      "        return attempt < limit",
      "    return run",
    ].join("\n");
    expect(decidingLines(python, stems("retry", "limit", "policy")).map((l) => l.text)).toEqual([
      "return attempt < limit",
    ]);
    const java = [
      "Runnable retrying(int retries) {",
      "  return new Runnable() {",
      "    @Override",
      '    @SuppressWarnings("retries")',
      "    public void run() { if (retries > 0) retry(); }",
      "  };",
      "}",
    ].join("\n");
    const lines = decidingLines(java, stems("override", "suppress", "warnings", "retries")).map(
      (l) => l.text,
    );
    expect(lines.some((l) => l.startsWith("@"))).toBe(false);
  });
});

describe("the definition an opening leads with", () => {
  it("takes a function folding the middleware into the handler as composing it, not as forwarding (JavaScript)", () => {
    const listen = symbol(
      "App.listen",
      "lib/app.js",
      [
        "function listen(port) {",
        "  for (const hook of this.hooks) hook(port)",
        "  return this.server.listen(port)",
        "}",
      ].join("\n"),
      10,
    );
    const compose = symbol(
      "compose",
      "lib/compose.js",
      [
        "function compose(middleware, handler) {",
        "  return middleware.reduceRight((next, fn) => fn(next), handler)",
        "}",
      ].join("\n"),
      1,
    );
    const leads = rankedLeads(
      input("How does the app compose the middleware around the handler?", "conceptual", [listen, compose]),
      [listen, compose],
    );
    expect(leads[0]?.item.title).toBe("compose");
  });

  it("still lets a one-call wrapper give way (Go)", () => {
    const wrapper = symbol(
      "Compose",
      "chain.go",
      [
        "func Compose(middlewares ...Middleware) Handler {",
        "\treturn chain(middlewares, endpoint)",
        "}",
      ].join("\n"),
      5,
    );
    const chain = symbol(
      "chain",
      "chain.go",
      [
        "func chain(middlewares []Middleware, endpoint Handler) Handler {",
        "\tif len(middlewares) == 0 {",
        "\t\treturn endpoint",
        "\t}",
        "\th := middlewares[len(middlewares)-1](endpoint)",
        "\tfor i := len(middlewares) - 2; i >= 0; i-- {",
        "\t\th = middlewares[i](h)",
        "\t}",
        "\treturn h",
        "}",
      ].join("\n"),
      12,
    );
    const leads = rankedLeads(
      input("How are the middlewares composed around the endpoint?", "conceptual", [wrapper, chain]),
      [wrapper, chain],
    );
    expect(leads[0]?.item.title).toBe("chain");
  });

  it("leads with the function that decides, not a short struct declaring the fields it reads (Rust)", () => {
    const directive = symbol(
      "Directive",
      "src/directive.rs",
      [
        "pub(crate) struct Directive {",
        "    pub(crate) name: Option<String>,",
        "    pub(crate) level: LevelFilter,",
        "}",
      ].join("\n"),
      6,
    );
    directive.facts = { ...directive.facts!, kind: "struct" };
    const enabled = symbol(
      "enabled",
      "src/directive.rs",
      [
        "pub(crate) fn enabled(directives: &[Directive], level: Level, target: &str) -> bool {",
        "    for directive in directives.iter().rev() {",
        "        match directive.name {",
        "            Some(ref name) if !target.starts_with(&**name) => {}",
        "            Some(..) | None => return level <= directive.level,",
        "        }",
        "    }",
        "    false",
        "}",
      ].join("\n"),
      12,
    );
    const question = "Which directive decides whether a debug record from my_crate::db::pool is logged?";
    const leads = rankedLeads(input(question, "conceptual", [directive, enabled]), [directive, enabled]);
    expect(leads[0]?.item.title).toBe("enabled");
  });
});
