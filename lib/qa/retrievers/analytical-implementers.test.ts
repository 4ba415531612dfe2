/**
 * The types built on a named type (__fixtures__/inheritance: a C# interface, a TypeScript
 * abstract class, a Python base class, a PHP interface and a Java interface, each with two
 * implementations and one user): asked which classes implement, extend or are built on
 * it, the answer lists those types from their declarations, and the ranked files are the
 * hierarchy's: the subject's file, then theirs. A Go or TypeScript interface no type names
 * is met by the types defining all of its methods (one defining only some is not). Asked who calls it, the answer stays its
 * callers. Asked what a class's file depends on, the type it extends or implements counts,
 * imported or not.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askOffline } from "../../../test-support/qa-flow.ts";
import { indexFixture, setupQaHome, type IndexedFixture } from "../../../test-support/qa-env.ts";
import { asksImplementers } from "./analytical-implementers.ts";

const INHERITANCE = fileURLToPath(new URL("./__fixtures__/inheritance", import.meta.url));

let repo: IndexedFixture;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-analytical-implementers-"));
  repo = await indexFixture(INHERITANCE, "inheritance");
});
afterAll(() => cleanup());

const ask = (question: string) => askOffline(repo.repositoryId, question, "analytical");

describe("asksImplementers", () => {
  it("reads questions about the types built on a type, not about its callers", () => {
    for (const q of [
      "Which classes implement INotificationPublisher, and in which files?",
      "Which built-in validators are built on the shared comparison validator base class?",
      "What extends the Comparison class?",
      "List the subclasses of Sink",
      "Which types derive from Shape?",
    ])
      expect(asksImplementers(q), q).toBe(true);
    for (const q of [
      "Who calls Store.save?",
      "Which validation checks are built on the validator's generic assertion helpers (who calls them)?",
      "Which modules import the config the most?",
    ])
      expect(asksImplementers(q), q).toBe(false);
  });
});

const CASES = [
  {
    language: "C#",
    question: "Which classes implement IPublisher, and in which files?",
    subject: "cs/IPublisher.cs",
    built: ["cs/ParallelPublisher.cs", "cs/SerialPublisher.cs"],
  },
  {
    language: "TypeScript",
    question: "Which rules extend the Comparison class?",
    subject: "ts/comparison.ts",
    built: ["ts/greater.ts", "ts/less.ts"],
  },
  {
    language: "Python",
    question: "Which sinks are subclasses of Sink?",
    subject: "sinks/sink.py",
    built: ["sinks/file_sink.py", "sinks/null_sink.py"],
  },
  {
    language: "PHP",
    question: "Which readers implement ReaderInterface?",
    subject: "php/ReaderInterface.php",
    built: ["php/ArrayReader.php", "php/EnvReader.php"],
  },
  {
    language: "Java",
    question: "Which classes implement the Shape interface?",
    subject: "java/com/acme/geo/Shape.java",
    built: ["java/com/acme/geo/Circle.java", "java/com/acme/geo/Square.java"],
  },
];

describe.each(CASES)("$language", ({ question, subject, built }) => {
  it("lists the types built on the subject, the hierarchy's files first", async () => {
    const { opening, files, diagram } = await ask(question);
    expect(opening).toMatch(/^2 types in 2 files build on `[^`]+` \(/);
    for (const f of built) expect(opening).toContain(f);
    expect(files[0]).toBe(subject);
    expect(files.slice(1, 3).sort()).toEqual(built);
    expect(diagram?.title).toMatch(/^Types built on /);
  });
});

const STRUCTURAL = [
  {
    language: "Go",
    question: "Which types implement the Encoder interface?",
    subject: "go/codec/encoder.go",
    built: ["go/codec/csv.go", "go/codec/json.go"],
    methods: "`Encode` and `Flush`",
    partial: "Counter",
  },
  {
    language: "TypeScript",
    question: "Which implementations of the Cache interface exist, and in which files?",
    subject: "ts-cache/cache.ts",
    built: ["ts-cache/memory-cache.ts", "ts-cache/storage-cache.ts"],
    methods: "`get`, `set` and `delete`",
    partial: "ReadOnlyCache",
  },
];

describe.each(STRUCTURAL)(
  "$language, an interface met structurally",
  ({ question, subject, built, methods, partial }) => {
    it("lists the types defining every one of its methods, not those defining some", async () => {
      const { opening, files } = await ask(question);
      expect(opening).toMatch(/^2 types in 2 files build on `[^`]+` \(/);
      expect(opening).toContain(`defining every one of its methods (${methods})`);
      for (const f of built) expect(opening).toContain(f);
      expect(opening).not.toContain(partial);
      expect(files[0]).toBe(subject);
      expect(files.slice(1, 3).sort()).toEqual(built);
    });
  },
);

describe("one level further down", () => {
  it("counts the types built on an implementation", async () => {
    const { opening, answer } = await ask("What extends the Comparison class?");
    expect(opening).toMatch(
      /^2 types in 2 files build on `Comparison` .*; 1 more build on those: `[^`]+` \(ts\//,
    );
    // The body lists the direct ones under the figure and those further one level deeper.
    expect(answer).toMatch(/\n {4}- through `[^`]+`: `/);
    expect(answer).not.toMatch(/\n- +- /);
  });
});

describe("asked who calls a type", () => {
  it("answers with its callers, not the types built on it", async () => {
    const { opening } = await ask("Who calls Mediator.Send?");
    expect(opening).not.toMatch(/build on/);
  });
});

describe("what a class's file depends on", () => {
  it.each([
    ["java/com/acme/geo/Circle.java", "java/com/acme/geo/Shape.java"],
    ["php/EnvReader.php", "php/ReaderInterface.php"],
  ])("%s: the type it implements in its own package, which no import names", async (file, base) => {
    const { opening, files } = await ask(`What does ${file} depend on?`);
    expect(opening).toMatch(new RegExp(`^\`${file.replace(/\./g, "\\.")}\` depends on 1 file outside it`));
    expect(opening).toContain(`\`${base}\` (1 class built on it`);
    expect(files.slice(0, 2)).toEqual([file, base]);
  });
});
