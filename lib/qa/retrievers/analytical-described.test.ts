/**
 * A callers question that describes its subject in prose instead of naming it is answered
 * with the described code's callers (Go, PHP, Python and Ruby on one small fixture), and one whose
 * description matches no code keeps the repository-wide figure.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexFixture, setupQaHome, type IndexedFixture } from "../../../test-support/qa-env.ts";
import { PartLog } from "../../../test-support/qa-model.ts";
import { askQuestion } from "../ask.ts";
import { describedPhrase, describedTerms } from "./analytical-described.ts";
import { analyticalAsks } from "./analytical-intent.ts";

const DESCRIBED = fileURLToPath(new URL("./__fixtures__/described", import.meta.url));

describe("the phrase a callers question describes its subject with", () => {
  it.each([
    [
      "Which route methods go through the shared helper that parses a host or path template into a matcher (who calls it)?",
      "the shared helper that parses a host or path template into a matcher",
    ],
    [
      "Which functions call the helper that rewrites the path, and in which files?",
      "the helper that rewrites the path",
    ],
    [
      "Which validation checks are built on the validator's generic assertion helpers (who calls them)?",
      "the validator's generic assertion helpers",
    ],
    ["From where are the log lines written — who builds the logger?", "the logger"],
    ["Where in the library is a code writer created?", "a code writer"],
  ])("%j describes %j", (question, phrase) => {
    expect(describedPhrase(question)).toBe(phrase);
    expect(analyticalAsks(question)).toContain("callers");
  });

  it("is not a ranking's object", () => {
    expect(describedPhrase("Which modules call the most other modules?")).toBeNull();
    expect(describedPhrase("How coupled are the parser and the lexer?")).toBeNull();
  });

  it("names the code by its head and says what it does in the clause after it", () => {
    const { head, all } = describedTerms("the shared helper that parses a host template into a matcher");
    expect(head).toEqual([]);
    expect(all.map((t) => t.word)).toEqual(["parses", "host", "template", "matcher"]);
    expect(describedTerms("the validator's generic assertion helpers").head.map((t) => t.word)).toEqual([
      "validator",
      "assertion",
    ]);
  });

  it("reads a clause's verb also as the words code names use for it", () => {
    const stemsOf = (phrase: string, word: string) =>
      describedTerms(phrase).all.find((t) => t.word === word)?.stems ?? [];
    expect(stemsOf("the helper that rewrites the path", "rewrites")).toEqual(
      expect.arrayContaining(["replac", "set"]),
    );
    expect(stemsOf("the single function that allocates an error", "allocates")).toEqual(
      expect.arrayContaining(["construct", "make"]),
    );
    // A word that is no verb of code keeps only its own stems.
    expect(stemsOf("the helper that rewrites the path", "path")).toEqual(["path"]);
    // Only the clause's verb: what it acts on stays a word, even one that is a verb elsewhere.
    expect(stemsOf("the method that persists a record in the store", "persists")).toEqual(
      expect.arrayContaining(["save", "put"]),
    );
    expect(stemsOf("the method that persists a record in the store", "record")).toEqual(["record"]);
    expect(stemsOf("the method that persists a record in the store", "store")).toEqual(["store"]);
  });
});

let fixture: IndexedFixture;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-described-"));
  fixture = await indexFixture(DESCRIBED, "described");
});
afterAll(() => cleanup());

async function opening(question: string): Promise<{ first: string; files: string[]; symbols: string[] }> {
  const result = await askQuestion(
    { repository: fixture.repositoryId, question, overrides: { mode: "analytical" } },
    new PartLog(),
    { model: null, ephemeral: true },
  );
  const { rankedFiles: files, rankedSymbols: symbols } = result.loop.retrieval;
  return { first: result.loop.answer.split("\n")[0] ?? "", files, symbols };
}

describe("a subject described in prose", () => {
  it("is the Go helper its clause describes, answered with its callers", async () => {
    const { first, files } = await opening(
      "Which route methods go through the shared helper that parses a host or path template into a matcher (who calls it)?",
    );
    expect(first).toMatch(
      /^2 functions in 1 file call `Route\.addTemplateMatcher` \(router\/route\.go:\d+-\d+\)/,
    );
    expect(first).toContain("`Route.Path` (router/route.go:");
    expect(first).toContain("`Route.Host` (router/route.go:");
    expect(files[0]).toBe("router/route.go");
  });

  it("is the Python helper whose name says the clause's verb in code words, not the busier method named like its object", async () => {
    const { first } = await opening(
      "Which functions call the helper that rewrites the host, and in which files?",
    );
    expect(first).toMatch(/^2 functions in 1 file call `replace_host` \(py\/redirects\.py:\d+-\d+\)/);
    expect(first).toContain("`Redirector.follow`");
    expect(first).toContain("`Redirector.retry_elsewhere`");
  });

  it("is the PHP method its head names on the class it belongs to", async () => {
    const { first } = await opening(
      "Which checks are built on the checker's generic assertion helper (who calls it)?",
    );
    expect(first).toMatch(/^3 functions in 1 file call `Env\.Checker\.assert` \(src\/Checker\.php:\d+-\d+\)/);
    expect(first).toContain("`Env.Checker.required`");
  });

  it("is the Ruby method the verb and its object name (who builds the logger)", async () => {
    const { first, files } = await opening(
      "From which places are the log lines written — who builds the logger?",
    );
    expect(first).toMatch(
      /^2 functions in 2 files call `Logbook\.Logger\.build` \(lib\/logbook\/logger\.rb:\d+-\d+\)/,
    );
    expect(first).toContain("`Logbook.Request.perform`");
    expect(first).toContain("`Logbook.Response.initialize`");
    expect(files.slice(0, 3)).toEqual(
      expect.arrayContaining(["lib/logbook/request.rb", "lib/logbook/response.rb"]),
    );
  });

  it("asked where it is created counts the code that creates it, not the code that uses it", async () => {
    const { first } = await opening(
      "Where in the library is a code writer created? List the places that construct one.",
    );
    expect(first).toMatch(
      /^1 function in 1 file creates `CodeWriter` \(java\/com\/acme\/poet\/CodeWriter\.java:\d+-\d+\) directly: `JavaFile\.writeTo`/,
    );
    expect(first).not.toContain("TypeSpec");
  });

  it("is the method of the owner it names that its clause describes, not the owner", async () => {
    const { first, files } = await opening(
      "Who calls the code writer's method that increases the indent level?",
    );
    expect(first).toMatch(
      /^1 function in 1 file calls `CodeWriter\.indent` \(java\/com\/acme\/poet\/CodeWriter\.java:\d+-\d+\) directly.*: `TypeSpec\.emitInto`/,
    );
    expect(files[0]).toBe("java/com/acme/poet/TypeSpec.java");
  });

  it("leads the ranked symbols with its callers", async () => {
    const { symbols } = await opening("From which places are the log lines written — who builds the logger?");
    expect(symbols.slice(0, 3).sort()).toEqual([
      "lib/logbook/logger.rb::Logbook.Logger.build",
      "lib/logbook/request.rb::Logbook.Request.perform",
      "lib/logbook/response.rb::Logbook.Response.initialize",
    ]);
  });

  it("is not a word read only inside the scope's path", async () => {
    const { first } = await opening("What are the architectural problems in router/?");
    // Asked for its problems, its weak points lead; then the scope's structure.
    expect(first).toMatch(/^The weak points of `router` start with /);
    expect(first).toMatch(
      /\. `router` \(tests, examples, docs, vendored and generated code left out\) spans 1 folder/,
    );
  });

  it("named beside a path is still the subject", async () => {
    const { first } = await opening(
      "Which functions in lib/logbook/ call Logger::build, and from which files?",
    );
    expect(first).toMatch(/^2 functions in 2 files call `Logbook\.Logger\.build`/);
  });

  it("asked which modules require it is answered with its file's importers", async () => {
    const { first, files } = await opening(
      "Which modules require the request extension that adds `login` to a request?",
    );
    expect(first).toMatch(/^`js\/request\.js` \([^)]*\) is required by 1 file \(`js\/middleware\.js`\)/);
    expect(files.slice(0, 2).sort()).toEqual(["js/middleware.js", "js/request.js"]);
  });

  it("beside a cycle check gets its own figure after the cycles", async () => {
    const { first, files } = await opening(
      "Which files does the authenticator depend on, and is there any circular require between the middleware and the authenticator?",
    );
    expect(first).toMatch(/^No require cycle /);
    // What it depends on, as the files it requires and calls into.
    expect(first).toMatch(
      /`js\/authenticator\.js` depends on 2 files outside it .*: `js\/connect\.js` \(1 require, 1 call; /,
    );
    expect(files.slice(0, 3)).toEqual(expect.arrayContaining(["js/authenticator.js", "js/connect.js"]));
  });

  it("that matches no code leaves the repository-wide figure", async () => {
    const { first } = await opening("Which functions call the helper that encrypts the payload?");
    expect(first).not.toMatch(/^\d+ functions? in \d+ files? calls? `/);
  });
});
