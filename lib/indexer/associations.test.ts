/**
 * The build phase that learns a repository's term associations, on a real database and
 * real indexing: learned on the first build, kept (not learned again) across small
 * edits, learned again once enough code changed, the rows no kept generation reads
 * deleted, and the whole-file channel finding a file by a word the repository
 * associates with the question's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client.ts";
import { associationsFor } from "../db/associations-store.ts";
import { wholeFileSearch } from "../search/whole-file.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";
import { indexRepository } from "../builds/build.ts";

let t: TempEnv;
beforeAll(async () => {
  t = await setupTempEnv();
});
afterAll(async () => {
  await t?.cleanup();
});

/**
 * Sessions whose cookies carry a "quokkalife" (this repository's word for how long they
 * live), some filler modules, and one module that only ever says quokkalife.
 */
function files(version: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < 12; i++) {
    out[`app/session_${i}.py`] = [
      `def save_session_${i}(cookie, session):`,
      `    """Store the session cookie until its expiry: the quokkalife says when (v${version})."""`,
      `    cookie.quokkalife = session.expiry`,
      `    return cookie`,
      "",
    ].join("\n");
  }
  for (let i = 0; i < 70; i++) {
    out[`lib/util_${i}.py`] =
      `def helper_${i}(value):\n    """Render value ${i} as text for the page."""\n    return str(value)\n`;
  }
  out["app/lifetime.py"] = "def quokkalife_of(thing):\n    return thing.quokkalife\n";
  return out;
}

async function rows(repositoryId: string): Promise<number[]> {
  const client = await db();
  return (
    await client.termAssociations.findMany({ where: { repositoryId }, orderBy: { generation: "asc" } })
  ).map((r) => r.generation);
}

describe("learning term associations while indexing", () => {
  let root: string;

  it("learns them on the first build and expands questions with them", async () => {
    root = t.makeRepo(files(1));
    const { repository, stats } = await indexRepository(root);
    expect(stats.associationsLearned).toBe(true);
    expect(stats.associationWords).toBeGreaterThan(0);
    expect(stats.phaseSeconds.associations).toBeGreaterThanOrEqual(0);
    expect(await rows(repository.id)).toEqual([1]);
    // "expiry" is nowhere in lifetime.py, but this repository writes it beside quokkalife.
    const hits = (await wholeFileSearch(stats.generationId, "expiry")).map((h) => h.path);
    expect(hits).toContain("app/lifetime.py");
  });

  it("keeps them across a small edit, and learns them again once enough changed", async () => {
    t.write(root, "lib/util_0.py", "def helper_0(value):\n    return repr(value)\n");
    const small = await indexRepository(root);
    expect(small.stats.associationsLearned).toBe(false);
    expect((await associationsFor(small.stats.generationId))?.generation).toBe(1);
    const next = files(2);
    for (const [path, text] of Object.entries(next))
      if (path.startsWith("app/session_")) t.write(root, path, text);
    for (let i = 1; i < 24; i++)
      t.write(root, `lib/util_${i}.py`, `def helper_${i}(value):\n    return value\n`);
    const large = await indexRepository(root);
    expect(large.stats.associationsLearned).toBe(true);
    expect((await associationsFor(large.stats.generationId))?.generation).toBe(3);
    // Generation 2 (kept, superseded) still reads the row of generation 1.
    expect((await associationsFor(small.stats.generationId))?.generation).toBe(1);
    expect(await rows(large.repository.id)).toEqual([1, 3]);
  });

  it("deletes the rows no kept generation reads", async () => {
    t.write(root, "lib/util_0.py", "def helper_0(value):\n    return ascii(value)\n");
    const { repository } = await indexRepository(root);
    // Kept: generation 4 (ready) and 3 (superseded), both read the row of generation 3.
    expect(await rows(repository.id)).toEqual([3]);
  });
});
