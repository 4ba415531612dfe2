/**
 * Which entry point fits a question: a command the question names and talks about as a
 * command, a route whose path it writes, never an entry that only shares the program's
 * own name with a question about something else.
 */
import { describe, expect, it } from "vitest";
import type { EntryPoint } from "../../indexer/entry-points.ts";
import { conceptTerms } from "../concepts.ts";
import { entryScore } from "./entry-points.ts";

const script = (name: string, target: string): EntryPoint => ({
  kind: "script",
  framework: "pyproject",
  name,
  symbol: null,
  target,
  line: 1,
});
const route = (name: string, symbol: string): EntryPoint => ({
  kind: "http",
  framework: "nextjs",
  name,
  symbol,
  target: null,
  line: 1,
});

const score = (entry: EntryPoint, question: string) => entryScore(entry, question, conceptTerms(question));

describe("entryScore", () => {
  it("fits a command the question names as a command", () => {
    const pylint = script("pylint", "pylint:run_pylint");
    expect(score(pylint, "Trace how the pylint command runs the checkers")).toBeGreaterThan(3);
    // The program's name alone, in a question about something else, is no entry.
    expect(score(pylint, "How does pylint decide which messages to show?")).toBe(0);
    expect(
      score(
        script("py.test", "pytest:console_main"),
        "Trace the pytest command from its console entry point",
      ),
    ).toBeLessThan(
      score(script("pytest", "pytest:console_main"), "Trace the pytest command from its console entry point"),
    );
  });

  it("fits a route whose path the question writes, and not its neighbours", () => {
    const question = "Walk through what happens when POST /api/qa receives a question.";
    const qa = score(route("POST /api/qa", "POST"), question);
    const login = score(route("POST /api/admin/login", "POST"), question);
    // Only entries within half a point of the best are kept: the written path decides.
    expect(qa - login).toBeGreaterThanOrEqual(3);
  });
});
