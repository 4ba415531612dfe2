/**
 * Analytical questions that name a place and what it uses, answered on a real index of a
 * small layered fixture (offline engine): what a package depends on from a named one,
 * callers of a kind named like a folder ("which middlewares") listed first, example code
 * left out of callers, and a long caller cited where it makes the call.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexFixture, setupQaHome, type IndexedFixture } from "../../../test-support/qa-env.ts";
import { PartLog } from "../../../test-support/qa-model.ts";
import { askQuestion } from "../ask.ts";

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
    // Asked in which files they are: the callers' files lead, those in the named folder first.
    const files = result.loop.retrieval.rankedFiles;
    expect(files.slice(0, 2).sort()).toEqual(["middleware/clean.py", "middleware/strip.py"]);
    expect(files.slice(0, 5)).toEqual(expect.arrayContaining(["core/dispatch.py", "core/mux.py"]));
    expect(files.slice(0, 5)).not.toContain("_examples/demo.py");
  });

  it("cites a caller too long to read at once by the lines around its call", async () => {
    const { opening } = await analytical("Which functions in the core package call route_context?");
    expect(opening).toContain("`dispatch` (core/dispatch.py:85-89)");
  });
});
