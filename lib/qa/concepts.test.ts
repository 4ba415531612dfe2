/**
 * Concept matching over symbol names: terms with stems and abbreviations, definitions
 * ranked above names that only share a common word, one-word names found by
 * containment, and what a question asks about beyond the code.
 */
import { describe, expect, it } from "vitest";
import type { SymbolNameRow } from "../db/code-graph.ts";
import { buildNameIndex, conceptTerms, matchNames, questionTopics, sameStem } from "./concepts.ts";

function row(qualifiedName: string, path = "pkg/mod.py"): SymbolNameRow {
  const name = qualifiedName.split(".").pop() ?? qualifiedName;
  return {
    qualifiedId: `${path}::${qualifiedName}`,
    name,
    qualifiedName,
    path,
    kind: qualifiedName.includes(".") ? "method" : "function",
    parentId: qualifiedName.includes(".") ? qualifiedName.slice(0, qualifiedName.lastIndexOf(".")) : null,
    exported: true,
    fanIn: 0,
  };
}

describe("conceptTerms", () => {
  it("keeps the words that name concepts, with stems and abbreviations", () => {
    const terms = conceptTerms("How does the application context get pushed and popped?");
    expect(terms.map((t) => t.word)).toEqual(["application", "context", "pushed", "popped"]);
    const byWord = new Map(terms.map((t) => [t.word, t.stems]));
    expect(byWord.get("application")).toContain("app");
    expect(byWord.get("context")).toContain("ctx");
    expect(byWord.get("pushed")).toEqual(["push"]);
    expect(byWord.get("popped")).toEqual(["pop"]);
  });

  it("splits identifiers the question writes", () => {
    expect(conceptTerms("What calls getUserById?").map((t) => t.word)).toEqual(["calls", "user"]);
  });
});

describe("matchNames", () => {
  const index = buildNameIndex([
    row("SessionRedirectMixin.resolve_redirects", "requests/sessions.py"),
    row("Response.is_redirect", "requests/models.py"),
    row("Session.request", "requests/sessions.py"),
    row("Session.send", "requests/sessions.py"),
    row("Session.close", "requests/sessions.py"),
    row("test_redirect_with_wrong_gzipped_header", "tests/test_requests.py"),
    row("AppContext.push", "flask/ctx.py"),
    row("AppContext.pop", "flask/ctx.py"),
    row("RequestContext.push", "flask/ctx.py"),
    row("FixtureRequest.getfixturevalue", "_pytest/fixtures.py"),
    row("postgres_url", "db.py"),
  ]);

  it("ranks names that carry the concept, shortest and most covered first", () => {
    const names = matchNames(index, conceptTerms("How is it decided whether to follow a redirect?"));
    expect(names.slice(0, 2).map((m) => m.row.name)).toEqual(["is_redirect", "resolve_redirects"]);
    // The long test name shares the word but is mostly about other things.
    const test = names.find((m) => m.row.name.startsWith("test_redirect"));
    expect(test?.score ?? 0).toBeLessThan(names[1]?.score ?? 0);
  });

  it("matches a method through its class's name and abbreviations", () => {
    const names = matchNames(index, conceptTerms("What happens when an application context is pushed?"));
    expect(names[0]?.row.qualifiedName).toBe("AppContext.push");
    expect(names[0]?.matched).toEqual(["application", "context", "pushed"]);
  });

  it("finds a word inside a long one-word name, but not a short word inside another word", () => {
    const names = matchNames(index, conceptTerms("how a fixture gets its value"));
    expect(names[0]?.row.name).toBe("getfixturevalue");
    expect(matchNames(index, conceptTerms("POST handler")).map((m) => m.row.name)).not.toContain(
      "postgres_url",
    );
  });

  it("can leave out paths (tests) before ranking", () => {
    const names = matchNames(index, conceptTerms("redirect"), 10, (p) => p.startsWith("tests/"));
    expect(names.map((m) => m.row.path)).not.toContain("tests/test_requests.py");
  });
});

describe("sameStem", () => {
  it("treats a long stem that extends another as the same word", () => {
    const [reduction] = conceptTerms("reduction");
    const [checkers] = conceptTerms("checkers");
    expect(sameStem(reduction!, "reduc")).toBe(true);
    expect(sameStem(checkers!, "check")).toBe(true);
    const [call] = conceptTerms("callback");
    expect(sameStem(call!, "call")).toBe(false);
  });
});

describe("questionTopics", () => {
  it("tells questions about tests and docs from questions that merely use the words", () => {
    expect(questionTopics("Which tests cover the redirect logic?").tests).toBe(true);
    expect(questionTopics("How are the unit tests organized?").tests).toBe(true);
    expect(questionTopics("How does pytest discover test files and collect test functions?").tests).toBe(
      false,
    );
    expect(questionTopics("Trace the pytest command to the start of the test session").tests).toBe(false);
    expect(questionTopics("Why does the test class that returns a three-element tuple exist?").tests).toBe(
      true,
    );
    expect(questionTopics("Why does the test_min function handle NaN indices differently?").tests).toBe(true);
    expect(questionTopics("Which fixtures must TestEvaluation methods have?").tests).toBe(true);
    expect(questionTopics("How is the expiry threshold computed in the test set-up?").tests).toBe(true);
    expect(questionTopics("How does the attest helper verify signatures?").tests).toBe(false);
    expect(questionTopics("Where do the docs explain sessions?").docs).toBe(true);
    expect(questionTopics("How does Flask store the session?").docs).toBe(false);
  });

  it("does not count tests or examples the question leaves out as asked about", () => {
    const leftOut = [
      "Leaving the tests aside, which internal header is included by the most files?",
      "Which functions call yaml_parser_parse inside the library itself (not the examples or tests)?",
      "Which packages under core/ are imported by the most other packages (tools and tests left out)?",
      "Which modules import the config the most, excluding the tests and examples?",
    ];
    for (const q of leftOut) expect(questionTopics(q)).toMatchObject({ tests: false, docs: false });
    expect(questionTopics("Which tests call the parser, not the examples?").tests).toBe(true);
    expect(questionTopics("Which functions are called only from the tests?").tests).toBe(true);
  });
});
