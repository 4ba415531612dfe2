/**
 * How a diagnostic ranking reads the folders a report names: a package, plugin or module
 * named by a word of the report, on layouts as Go, JavaScript and Rust projects have them.
 */
import { describe, expect, it } from "vitest";
import { namedFolderCandidates, namedFolders } from "./diagnostic-files.ts";
import { pathIndexOf } from "./file-index.ts";

const index = pathIndexOf([
  "core/stores/sqlx/sqlconn.go",
  "core/stores/sqlx/sqlconn_test.go",
  "core/stores/mongo/query.go",
  "core/breaker/breaker.go",
  "core/logx/logs.go",
  "rest/handler/sheddinghandler.go",
  "src/plugin/customParseFormat/index.js",
  "src/plugin/utc/index.js",
  "src/index.js",
  "tracing-subscriber/src/filter/mod.rs",
  "tracing-core/src/filter/mod.rs",
  "tracing/src/filter/mod.rs",
]);

describe("namedFolders", () => {
  it("finds the package or plugin a report names, whatever its case", () => {
    expect(namedFolders(["sqlx", "failover", "database"], index)).toEqual(["core/stores/sqlx"]);
    expect(namedFolders(["customParseFormat", "strict"], index)).toEqual(["src/plugin/customParseFormat"]);
  });

  it("takes no folder named like a place in every project, nor a name many folders share", () => {
    expect(namedFolders(["core", "plugin", "src", "handler"], index)).toEqual(["rest/handler"]);
    expect(namedFolders(["filter"], index)).toEqual([]);
  });

  it("ignores words of fewer than four letters", () => {
    expect(namedFolders(["utc"], index)).toEqual([]);
  });
});

describe("namedFolderCandidates", () => {
  it("keeps the leading files inside the named folders, in their order", () => {
    const leading = ["core/breaker/breaker.go", "core/stores/mongo/query.go", "core/stores/sqlx/sqlconn.go"];
    expect(namedFolderCandidates(leading, ["core/stores/sqlx"]).map((c) => c.chunk?.path)).toEqual([
      "core/stores/sqlx/sqlconn.go",
    ]);
    expect(namedFolderCandidates(leading, [])).toEqual([]);
  });
});
