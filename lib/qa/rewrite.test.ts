/**
 * Offline follow-up rewriting from a conversation's history: "it" in a follow-up is the
 * subject the previous question asked about (a name in backticks, a class named in
 * words, a path), whatever the previous answer cited first.
 */
import { describe, expect, it } from "vitest";
import { standaloneQuestion, subjectsOf } from "./rewrite.ts";

// The previous answer cites another file first, as retrieval often does.
const answer =
  "The delay is computed in `sleep_for` (pkg/util/timing.py:10-20). Related: `Other` (pkg/other.py:1-9).";

async function followUp(previous: string, question: string): Promise<string> {
  return (await standaloneQuestion(question, [{ question: previous, answer }], null)).question;
}

describe("the subject of a previous question", () => {
  it.each([
    ["How does the Retry class decide how long to sleep?", ["Retry"]],
    ["Where is `RequestException` raised when a timeout happens?", ["RequestException"]],
    ["What does parse_config do in src/config.py?", ["parse_config", "src/config.py"]],
    ["How does the retry backoff in urllib3/util/retry.py compute the wait?", ["urllib3/util/retry.py"]],
  ])("%j is about %j", (question, subjects) => {
    expect(subjectsOf(question)).toEqual(subjects);
  });

  it("is what a follow-up's pronoun stands for, not the file the answer cited first", async () => {
    expect(
      await followUp("How does the Retry class decide how long to sleep?", "and where is it called?"),
    ).toBe("and where is Retry called?");
    expect(
      await followUp("Where is `RequestException` raised when a timeout happens?", "who calls it?"),
    ).toBe("who calls RequestException?");
    const about = await followUp(
      "How does the Retry class decide how long to sleep?",
      "what about the timeout?",
    );
    expect(about).toBe("what about the timeout? (about Retry)");
    expect(about).not.toMatch(/timing|sleep_for/);
  });

  it("leaves a question with no subject in the previous turn as it is", async () => {
    expect(await followUp("How does it work?", "and where is it called?")).toBe("and where is it called?");
  });
});
