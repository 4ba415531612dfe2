/**
 * Analytical questions that name a place and what it uses, answered on a real index of a
 * small layered fixture (offline engine): the files inside a package that depend on
 * another one, what a package depends on from a named one, callers of a kind named like a
 * folder ("which middlewares") listed first, and example code left out of callers.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexFixture, setupQaHome, type IndexedFixture } from "../../../test-support/qa-env.ts";
import { PartLog } from "../../../test-support/qa-model.ts";
import { askQuestion } from "../ask.ts";
import { asksUsersWithin } from "./analytical-dependencies.ts";

const LAYERED = fileURLToPath(new URL("./__fixtures__/layered", import.meta.url));

let layered: IndexedFixture;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-analytical-within-"));
  layered = await indexFixture(LAYERED, "layered");
});
afterAll(() => cleanup());

async function analytical(question: string) {
  const result = await askQuestion(
    { repository: layered.repositoryId, question, overrides: { mode: "analytical" } },
    new PartLog(),
    { model: null, ephemeral: true },
  );
  return { result, opening: result.loop.answer.split("\n")[0] ?? "" };
}

describe("a place and what it uses", () => {
  it("reads 'which files in X depend on Y' as users inside X, not callers coming into X", () => {
    expect(asksUsersWithin("Which files in the middleware package depend on the core package?")).toBe(true);
    expect(asksUsersWithin("Which modules under src/api import the config?")).toBe(true);
    expect(asksUsersWithin("Which files depend on the core package?")).toBe(false);
    expect(asksUsersWithin("Who calls into the middleware package?")).toBe(false);
    // "parts of the code" names no place.
    expect(asksUsersWithin("Which parts of the shop call into shop/pricing.py?")).toBe(false);
  });

  it("lists the files inside the package that depend on the other, each by the function that uses it", async () => {
    const { result, opening } = await analytical(
      "Which files in the middleware package depend on the core package?",
    );
    expect(opening).toMatch(/^2 of the 4 files in `middleware` depend on `core` /);
    expect(opening).toContain("`strip_slashes`, middleware/strip.py:");
    expect(opening).toContain("`clean_path`, middleware/clean.py:");
    expect(opening).not.toContain("timer.py");
    expect(result.loop.retrieval.rankedFiles.slice(0, 2).sort()).toEqual([
      "middleware/clean.py",
      "middleware/strip.py",
    ]);
  });

  it("counts only the part named after 'from' in what a package depends on", async () => {
    const { opening } = await analytical(
      "What do the files under middleware/ depend on from the core package?",
    );
    expect(opening).toMatch(/^`middleware` depends on 1 file outside it/);
    expect(opening).toContain("core/router.py");
    expect(opening).not.toContain("api/util.py");
  });

  it("lists callers in the folder the question names by their kind first, and leaves example code out", async () => {
    const { result, opening } = await analytical(
      "Which middlewares call route_context, and in which files are they?",
    );
    expect(opening).toMatch(/^5 functions in 5 files call `route_context`/);
    const named = opening.slice(opening.indexOf(":", opening.indexOf("directly")));
    expect(named.indexOf("strip_slashes")).toBeGreaterThan(0);
    expect(named.indexOf("clean_path")).toBeGreaterThan(0);
    expect(named.indexOf("mount") < 0 || named.indexOf("mount") > named.indexOf("clean_path")).toBe(true);
    expect(result.loop.answer).not.toContain("_examples/demo.py");
    // The callers' files in the named folder first, the subject's own file after the first of them.
    const files = result.loop.retrieval.rankedFiles;
    expect(files.slice(0, 3).sort()).toEqual([
      "core/router.py",
      "middleware/clean.py",
      "middleware/strip.py",
    ]);
    expect(files[0]).toMatch(/^middleware\//);
  });

  it("cites a caller too long to read at once by the lines around its call", async () => {
    const { opening } = await analytical("Which functions in the core package call route_context?");
    expect(opening).toContain("`dispatch` (core/dispatch.py:85-89)");
  });
});
