/**
 * Test support that its path does not give away: a folder such as `dummyserver/`,
 * `testing/helpers/` or `spec_support/` whose code only tests use. A folder is test support
 * when tests import it, nothing else outside it (save other test support) does, and it
 * imports the repository's own code from outside itself — it exercises the code, where a
 * library, which tests import too, is imported by its own users or uses nothing outside
 * itself. Whole-repository structure answers leave such folders out with the tests.
 */
import "server-only";
import { loadImportEdges } from "../../db/wiki-inputs.ts";
import { generationCache } from "../generation-cache.ts";
import { isTestPath } from "../../indexer/file-class.ts";

/** The top-level folder of a path (null for a file at the root). */
function topFolder(path: string): string | null {
  const slash = path.indexOf("/");
  return slash > 0 ? path.slice(0, slash) : null;
}

/**
 * The top-level folders whose code only tests use (see the module header), from the import
 * edges between the repository's files. Only a top-level folder counts: a folder inside the
 * package (`contrib/`, `testing/`) is part of what the package ships, whoever imports it.
 */
export function findTestSupport(edges: { srcPath: string; dstPath: string }[]): string[] {
  const support = new Set<string>();
  const test = (path: string) => isTestPath(path) || support.has(topFolder(path) ?? "");
  const files = new Map<string, Set<string>>();
  for (const e of edges)
    for (const path of [e.srcPath, e.dstPath]) {
      const top = topFolder(path);
      if (top !== null) files.set(top, (files.get(top) ?? new Set()).add(path));
    }
  // A folder found makes its imports test imports: repeat until no folder is new.
  for (let changed = true; changed;) {
    changed = false;
    const tally = new Map<
      string,
      { tested: Set<string>; testers: Set<string>; others: number; outside: number }
    >();
    const of = (folder: string) => {
      let t = tally.get(folder);
      if (!t) tally.set(folder, (t = { tested: new Set(), testers: new Set(), others: 0, outside: 0 }));
      return t;
    };
    for (const e of edges) {
      const from = topFolder(e.srcPath);
      const to = topFolder(e.dstPath);
      if (from === to) continue;
      if (to !== null) {
        if (test(e.srcPath)) {
          of(to).tested.add(e.dstPath);
          of(to).testers.add(e.srcPath);
        } else of(to).others++;
      }
      if (from !== null && !test(e.dstPath)) of(from).outside++;
    }
    for (const [folder, t] of tally) {
      if (support.has(folder) || isTestPath(`${folder}/x`)) continue;
      // Most of its files are there for tests (an application's entry folder, which a test
      // or two import, is mostly code nothing imports).
      const share = t.tested.size / (files.get(folder)?.size ?? 1);
      if (
        t.testers.size >= MIN_TEST_IMPORTERS &&
        share >= MIN_TESTED_SHARE &&
        t.others === 0 &&
        t.outside > 0
      ) {
        support.add(folder);
        changed = true;
      }
    }
  }
  return [...support].sort();
}

/** Test files importing a folder that make it test support: one stray import is not a pattern. */
const MIN_TEST_IMPORTERS = 2;
/** The share of a folder's files that tests import, at least, for it to be test support. */
const MIN_TESTED_SHARE = 0.5;

/** The generation's test-support folders (findTestSupport over its stored imports). */
export const testSupportOf = generationCache(async (generationId: string) =>
  findTestSupport(await loadImportEdges(generationId)),
);

/** Whether a path is one of the test-support folders or lies in one. */
export function inTestSupport(path: string, support: readonly string[]): boolean {
  return support.some((s) => path === s || path.startsWith(`${s}/`));
}
