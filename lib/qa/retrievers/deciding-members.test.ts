/**
 * A class the question names, asked how it works something out: the answer opens on the
 * class's method that does it, cited by that method's own lines, not on the class or on
 * another function sharing the question's words.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexSources } from "../../../test-support/qa-env.ts";
import { askOffline } from "../../../test-support/qa-flow.ts";

const PY = `"""Wait strategies: how long to sleep before the next attempt."""
import math


class wait_base:
    """Base of the wait strategies."""

    def __call__(self, state) -> float:
        raise NotImplementedError


class wait_exponential(wait_base):
    """Waits longer after each failed attempt, up to a ceiling."""

    def __init__(self, multiplier: float = 1, ceiling: float = 60, floor: float = 0) -> None:
        self.multiplier = multiplier
        self.ceiling = ceiling
        self.floor = floor

    def __call__(self, state) -> float:
        exponent = state.attempt_number - 1
        try:
            result = self.multiplier * (2**exponent)
        except OverflowError:
            return self.ceiling
        return max(max(0, self.floor), min(result, self.ceiling))
`;

const RUNNER = `"""Runs a call again until it succeeds."""
import time


class Runner:
    def __init__(self, wait):
        self.wait = wait

    def sleep_before_next(self, state) -> None:
        if self.wait:
            time.sleep(self.wait(state))
`;

const TS = `/** Delays between attempts. */
export class LinearBackoff {
  constructor(private readonly step: number, private readonly limit: number) {}

  delayFor(attempt: number): number {
    const raw = this.step * attempt;
    if (raw > this.limit) return this.limit;
    return raw;
  }
}

export function scheduleDelay(backoff: LinearBackoff, attempt: number): number {
  const delay = backoff.delayFor(attempt);
  return delay;
}
`;

let repo: Awaited<ReturnType<typeof indexSources>>;

beforeAll(async () => {
  repo = await indexSources("deciding-members", {
    "retrying/wait.py": PY,
    "retrying/runner.py": RUNNER,
    "src/backoff.ts": TS,
  });
});
afterAll(() => repo.close());

/** The lines of a method: from its head to the first closing brace at its indentation. */
const span = (text: string, head: string) => {
  const lines = text.split("\n");
  const from = lines.findIndex((l) => l.includes(head));
  const indent = (lines[from] as string).match(/^\s*/)?.[0] ?? "";
  const to = lines.findIndex((l, i) => i > from && l === `${indent}}`);
  return `${from + 1}-${to + 1}`;
};

describe("a named class's working method", () => {
  it("Python: the class's __call__ computing the wait, not its constructor or a caller sharing the word", async () => {
    const { opening, symbols } = await askOffline(
      repo.repositoryId,
      "How is the wait computed for wait_exponential, and what caps it?",
      "conceptual",
    );
    const lines = PY.split("\n");
    const from = lines.findIndex((l) => l.includes("exponent = state.attempt_number")); // the line after the def
    const to = lines.findIndex((l) => l.includes("return max(")) + 1;
    expect(opening).toContain(`\`wait_exponential.__call__\` (retrying/wait.py:${from}-${to})`);
    const runner = symbols.indexOf("retrying/runner.py::Runner.sleep_before_next");
    expect(symbols.indexOf("retrying/wait.py::wait_exponential.__call__")).toBeLessThan(
      runner === -1 ? Infinity : runner,
    );
  });

  it("TypeScript: the class's method working out the delay", async () => {
    const { opening } = await askOffline(
      repo.repositoryId,
      "How does LinearBackoff work out the delay, and what limits it?",
      "conceptual",
    );
    expect(opening).toContain(`\`LinearBackoff.delayFor\` (src/backoff.ts:${span(TS, "delayFor(attempt")}`);
  });
});
