/**
 * Go imports resolved against the repository's own modules, on a real build: a module
 * whose root folder is itself a package (`…/v5`), a package whose name differs from its
 * folder, a nested module, and a vendored copy; then go.mod and package-clause edits
 * re-resolve the Go files that did not change.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callersOf, edgesOfKind } from "../db/code-graph.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";
import { indexRepository } from "../builds/build.ts";
import { goDefaultName, goModulePath } from "./module-scope.ts";

const STRIP = [
  "package middleware",
  "",
  "import (",
  '\t"fmt"',
  "",
  '\t"github.com/acme/router/v5"',
  '\t"github.com/acme/router/v5/internal/textutil"',
  '\t"github.com/acme/router/v5/plugins/hooks"',
  '\t"github.com/other/lib"',
  ")",
  "",
  "func StripSlashes(ctx int) int {",
  '\tfmt.Println("strip")',
  "\tstrutil.Trim()",
  "\thooks.Run()",
  "\tlib.Do()",
  "\treturn router.RouteContext(ctx)",
  "}",
  "",
].join("\n");

const FILES = {
  "go.mod": "module github.com/acme/router/v5 // the router\n\ngo 1.21\n",
  "context.go": "package router\n\nfunc RouteContext(ctx int) int {\n\treturn ctx\n}\n",
  "context_test.go": "package router_test\n\nfunc TestRouteContext() {}\n",
  "middleware/strip.go": STRIP,
  "internal/textutil/trim.go": "package strutil\n\nfunc Trim() {}\n",
  "plugins/go.mod": 'module "example.com/plugins"\n',
  "plugins/hooks/hooks.go": "package hooks\n\nfunc Run() {}\n",
  "plugins/auth/auth.go": [
    "package auth",
    "",
    'import "example.com/plugins/hooks"',
    "",
    "func Check() {",
    "\thooks.Run()",
    "}",
    "",
  ].join("\n"),
  "vendor/github.com/other/lib/lib.go": "package lib\n\nfunc Do() {}\n",
};

const callerIds = async (gen: string, id: string) => (await callersOf(gen, id)).map((e) => e.srcId).sort();

async function importTargets(gen: string, from: string): Promise<string[]> {
  // Imports of code outside the repository are kept without a target.
  const edges = await edgesOfKind(gen, "imports");
  return edges
    .filter((e) => e.srcId === from && e.dstId)
    .map((e) => e.dstId ?? "")
    .sort();
}

describe("Go module paths", () => {
  it("reads a go.mod's module line, quoted or not, past comments", () => {
    expect(goModulePath(FILES["go.mod"])).toBe("github.com/acme/router/v5");
    expect(goModulePath(FILES["plugins/go.mod"])).toBe("example.com/plugins");
    expect(goModulePath("// module not.this\ngo 1.21\n")).toBeNull();
  });

  it("names an outside package without its major version or go- prefix", () => {
    expect(goDefaultName("github.com/go-chi/chi/v5")).toBe("chi");
    expect(goDefaultName("gopkg.in/yaml.v3")).toBe("yaml");
    expect(goDefaultName("github.com/mattn/go-sqlite3")).toBe("sqlite3");
    expect(goDefaultName("fmt")).toBe("fmt");
  });
});

describe("Go imports on an indexed module", () => {
  let t: TempEnv;
  let root: string;
  beforeAll(async () => {
    t = await setupTempEnv();
    root = t.makeRepo(FILES);
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it("resolves the module root, renamed and nested packages; vendored and other modules stay outside", async () => {
    const { stats } = await indexRepository(root);
    const gen = stats.generationId;
    // `router.RouteContext`: the root folder is package `router`, imported as `…/router/v5`.
    expect(await callerIds(gen, "context.go::RouteContext")).toEqual(["middleware/strip.go::StripSlashes"]);
    // Bound by its package clause (`strutil`), not its folder (`textutil`).
    expect(await callerIds(gen, "internal/textutil/trim.go::Trim")).toEqual([
      "middleware/strip.go::StripSlashes",
    ]);
    // plugins/ is its own module: only its own import path reaches it.
    expect(await callerIds(gen, "plugins/hooks/hooks.go::Run")).toEqual(["plugins/auth/auth.go::Check"]);
    expect(await callerIds(gen, "vendor/github.com/other/lib/lib.go::Do")).toEqual([]);
    expect(await importTargets(gen, "middleware/strip.go")).toEqual([
      "context.go",
      "internal/textutil/trim.go",
    ]);
    expect(await importTargets(gen, "plugins/auth/auth.go")).toEqual(["plugins/hooks/hooks.go"]);
  });

  it("re-resolves unchanged Go files when a go.mod or a package clause changes", async () => {
    t.write(root, "go.mod", "module github.com/acme/router/v6\n");
    t.write(root, "internal/textutil/trim.go", "package textutil\n\nfunc Trim() {}\n");
    const { stats } = await indexRepository(root);
    const gen = stats.generationId;
    expect(stats.reusedFiles).toBeGreaterThan(0);
    // strip.go did not change, but `…/v5` is no longer this module and `strutil` binds nothing.
    expect(await callerIds(gen, "context.go::RouteContext")).toEqual([]);
    expect(await callerIds(gen, "internal/textutil/trim.go::Trim")).toEqual([]);
    expect(await importTargets(gen, "middleware/strip.go")).toEqual([]);
    expect(await callerIds(gen, "plugins/hooks/hooks.go::Run")).toEqual(["plugins/auth/auth.go::Check"]);

    t.write(root, "go.mod", FILES["go.mod"]);
    const back = (await indexRepository(root)).stats.generationId;
    expect(await callerIds(back, "context.go::RouteContext")).toEqual(["middleware/strip.go::StripSlashes"]);
    // The folder resolves by its path again; its package is now `textutil`, so `strutil.Trim` stays unbound.
    expect(await importTargets(back, "middleware/strip.go")).toEqual([
      "context.go",
      "internal/textutil/trim.go",
    ]);
    expect(await callerIds(back, "internal/textutil/trim.go::Trim")).toEqual([]);
  });
});
