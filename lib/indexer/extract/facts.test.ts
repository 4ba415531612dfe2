/**
 * File-level facts from real tree-sitter parses: the file's stated purpose, swallowed
 * exceptions per language (and the idioms that are not), TODO markers in comments,
 * type-only imports and module-state definitions.
 */
import { describe, expect, it } from "vitest";
import { extractSource } from "./index";

describe("purpose", () => {
  it("reads a Python module docstring, a leading comment block, or a Go package comment", async () => {
    expect(
      (await extractSource("python", '"""Order workflow.\n\n    Details."""\nimport os\n')).facts.doc,
    ).toBe("Order workflow.\n\nDetails.");
    expect(
      (await extractSource("typescript", "/** Settings loading. */\nimport x from './x';\n")).facts.doc,
    ).toBe("Settings loading.");
    expect((await extractSource("go", "// Package srv serves.\npackage srv\n")).facts.doc).toBe(
      "Package srv serves.",
    );
    expect((await extractSource("rust", "//! Cache layer.\nfn f() {}\n")).facts.doc).toBe("Cache layer.");
  });

  it("skips licence headers and comments that document the first declaration", async () => {
    const licensed =
      "// Copyright 2024 Acme. Licensed under MIT.\n\n// Parses dates.\nimport x from './x';\n";
    expect((await extractSource("typescript", licensed)).facts.doc).toBe("Parses dates.");
    expect((await extractSource("typescript", "/** Adds. */\nexport function add() {}\n")).facts.doc).toBe(
      "",
    );
  });
});

describe("swallowed exceptions", () => {
  it("finds except-pass and bare except without re-raise, not optional imports or re-raises", async () => {
    const source = [
      "try:",
      "    import fast",
      "except ImportError:  # pragma: no cover",
      "    pass",
      "def f():",
      "    try:",
      "        g()",
      "    except:",
      "        pass",
      "    try:",
      "        g()",
      "    except (KeyError, ValueError) as e:",
      "        ...",
      "    try:",
      "        g()",
      "    except:",
      "        log()",
      "    try:",
      "        g()",
      "    except:",
      "        log()",
      "        raise",
      "",
    ].join("\n");
    expect((await extractSource("python", source)).facts.swallowed).toEqual([
      { line: 8, endLine: 9, kind: "except-pass", caught: null, symbol: "f" },
      { line: 12, endLine: 13, kind: "except-pass", caught: "(KeyError, ValueError)", symbol: "f" },
      { line: 16, endLine: 17, kind: "bare-except", caught: null, symbol: "f" },
    ]);
  });

  it("finds empty and comment-only catch blocks and dropped promise errors in TypeScript", async () => {
    const source = [
      "export function load() {",
      "  try { run(); } catch (e) {}",
      "  try { run(); } catch { /* best effort */ }",
      "  try { run(); } catch (e) { console.error(e); }",
      "  void save().catch(() => {});",
      "}",
    ].join("\n");
    expect((await extractSource("typescript", source)).facts.swallowed).toEqual([
      { line: 2, endLine: 2, kind: "empty-catch", caught: null, symbol: "load" },
      { line: 3, endLine: 3, kind: "commented-catch", caught: null, symbol: "load" },
      { line: 5, endLine: 5, kind: "promise-catch", caught: null, symbol: "load" },
    ]);
  });

  it("finds empty Java catches, Go blank errors and empty error checks, Rust ignored errors", async () => {
    const java = "class A {\n  void f() {\n    try { g(); } catch (IOException e) {\n    }\n  }\n}\n";
    expect((await extractSource("java", java)).facts.swallowed).toEqual([
      { line: 3, endLine: 4, kind: "empty-catch", caught: "IOException", symbol: "A.f" },
    ]);
    const go = "package x\n\nfunc f() {\n\terr := g()\n\t_ = err\n\tif err != nil {\n\t}\n}\n";
    expect((await extractSource("go", go)).facts.swallowed).toEqual([
      { line: 5, endLine: 5, kind: "blank-error", caught: "err", symbol: "f" },
      { line: 6, endLine: 7, kind: "empty-error-check", caught: "err", symbol: "f" },
    ]);
    const rust = "fn f() {\n    match g() {\n        Ok(v) => v,\n        Err(_) => {}\n    }\n}\n";
    expect((await extractSource("rust", rust)).facts.swallowed.map((s) => [s.line, s.kind])).toEqual([
      [4, "ignored-error"],
    ]);
  });
});

describe("other facts", () => {
  it("counts TODO markers in comments only, and finds type-only imports and module state", async () => {
    const source = [
      "from typing import TYPE_CHECKING",
      "if TYPE_CHECKING:",
      "    from app.models import Order",
      "_cache = {}",
      "count = 0",
      "# TODO: expire entries",
      'NOTE = "TODO in a string is not a marker"',
      "def f():",
      "    pass  # FIXME later",
      "",
    ].join("\n");
    const { facts } = await extractSource("python", source);
    expect(facts.todos).toEqual([
      { line: 6, tag: "TODO" },
      { line: 9, tag: "FIXME" },
    ]);
    expect(facts.todoCount).toBe(2);
    expect(facts.typeOnlyImports).toEqual([3]);
    expect(facts.state).toEqual({ _cache: 4, count: 5, NOTE: 7 });
    const ts = await extractSource(
      "typescript",
      'import type { A } from "./a";\nlet current = 0;\nexport const cache = new Map();\n',
    );
    expect(ts.facts.typeOnlyImports).toEqual([1]);
    expect(ts.facts.state).toEqual({ current: 2, cache: 3 });
  });
});
