/** Rust extraction against a cache fixture (traits, impl blocks, Err variants, use trees). */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { ExtractedSymbol, FileExtraction } from "../types";
import { extractSource } from "./index";

const source = readFileSync(fileURLToPath(new URL("../__fixtures__/rust/cache.rs", import.meta.url)), "utf8");

let result: FileExtraction;
const symbol = (qualifiedName: string): ExtractedSymbol => {
  const found = result.symbols.find((s) => s.qualifiedName === qualifiedName);
  if (!found) throw new Error(`no symbol ${qualifiedName}`);
  return found;
};
const calls = (qualifiedName: string) =>
  symbol(qualifiedName).calls.map((c) => [c.raw, c.name, c.receiver, c.line]);

beforeAll(async () => {
  result = await extractSource("rust", source);
});

describe("rust extraction", () => {
  it("finds traits, types, impl methods and nested fns", () => {
    expect(result.symbols.map((s) => [s.qualifiedName, s.kind, s.startLine, s.endLine, s.exported])).toEqual([
      ["Entry", "trait", 9, 17, true],
      ["Entry.key", "method", 11, 11, true],
      ["Entry.size", "method", 13, 16, true],
      ["Cache", "struct", 19, 24, true],
      ["Lookup", "enum", 26, 29, true],
      ["Cache.new", "method", 32, 35, true],
      ["Cache.get", "method", 37, 42, true],
      ["Cache.insert", "method", 44, 52, false],
      ["Cache.evict", "method", 54, 60, false],
      // Methods of a trait impl are public through the trait.
      ["Cache.fmt", "method", 64, 66, true],
      ["parse_limit", "function", 69, 74, false],
      ["parse_limit.clamp", "function", 70, 72, false],
    ]);
    expect(symbol("Cache.new").parent).toBe("Cache");
    expect(symbol("Entry.size").parent).toBe("Entry");
    expect(symbol("parse_limit.clamp").parent).toBe("parse_limit");
    expect(result.parseErrors).toBe(0);
  });

  it("builds signatures, docs, attributes and bases", () => {
    expect(symbol("Cache.new").signature).toBe("pub fn new(limit: usize) -> Self");
    expect(symbol("Cache.evict").signature).toBe("pub(crate) fn evict(&mut self)");
    expect(symbol("Entry.key").signature).toBe("fn key(&self) -> String");
    expect(symbol("Cache").signature).toBe("pub struct Cache<T: Entry>");
    expect(symbol("Entry").signature).toBe("pub trait Entry: Clone + Send");
    expect(symbol("Cache").docstring).toBe("The cache itself.");
    expect(symbol("Cache").decorators).toEqual(["derive(Debug, Default)"]);
    expect(symbol("Entry.size").docstring).toBe("Size in bytes; defaults to zero.");
    expect(symbol("Cache.new").docstring).toBe("Creates an empty cache.");
    // The `//!` crate comment does not document the `use` lines or the trait.
    expect(symbol("Entry").docstring).toBe("Something that can be stored.");
    expect(symbol("Entry").bases).toEqual(["Clone", "Send"]);
    expect(symbol("Cache").bases).toEqual(["Display"]);
  });

  it("collects calls, error variants, panics and writes", () => {
    expect(calls("Cache.new")).toEqual([["HashMap::new", "new", "HashMap", 34]]);
    expect(calls("Cache.get")).toEqual([
      ["self.items.get().ok_or", "ok_or", "self.items.get()", 41],
      ["self.items.get", "get", "self.items", 41],
    ]);
    expect(symbol("Cache.get").raises).toEqual(["Error::NotFound"]);
    expect(symbol("Cache.get").mutates).toEqual(["HITS"]);
    expect(symbol("Cache.insert").raises).toEqual(["Error::Full"]);
    expect(symbol("Cache.insert").mutates).toEqual(["self.limit"]);
    expect(calls("Cache.insert").map((c) => c[0])).toEqual([
      "self.items.len",
      "value.key",
      "self.items.insert",
      "self.limit.max",
    ]);
    const evict = symbol("Cache.evict");
    expect(evict.raises).toEqual(["panic"]);
    expect(evict.errorStrings).toEqual(["cache is empty", "evicted the last entry: {}"]);
    expect(symbol("parse_limit").raises).toEqual(["Error::Parse"]);
    expect(calls("parse_limit.clamp")).toEqual([["n.min", "min", "n", 71]]);
  });

  it("flattens use trees and reads statics/consts", () => {
    expect(result.imports).toEqual([
      { module: "std::collections", names: ["HashMap"], line: 2 },
      { module: "std::fmt", names: ["Display"], line: 3 },
      {
        module: "crate::error",
        names: ["Error", "Result"],
        aliases: { CacheResult: "Result" },
        line: 4,
      },
    ]);
    expect(result.moduleState).toEqual(["HITS", "MAX_ENTRIES"]);
  });

  it("records `as` renames of items and modules in use trees and extern crates", async () => {
    const out = await extractSource(
      "rust",
      [
        "use crate::db::pool as p;",
        "use crate::db::{Pool as DbPool, connect};",
        "use std::io::{self as sio, Write as _};",
        "use serde_json as json;",
        "extern crate rand as rng;",
      ].join("\n"),
    );
    expect(out.imports).toEqual([
      { module: "crate::db", names: ["pool"], aliases: { p: "pool" }, line: 1 },
      { module: "crate::db", names: ["Pool", "connect"], aliases: { DbPool: "Pool" }, line: 2 },
      { module: "std::io", names: ["Write"], local: "sio", aliases: { _: "Write" }, line: 3 },
      { module: "serde_json", names: [], local: "json", line: 4 },
      { module: "rand", names: [], local: "rng", line: 5 },
    ]);
  });

  it("handles nested use lists, string errors, bail! and modules", async () => {
    const out = await extractSource(
      "rust",
      [
        "use std::{io::{self, Read}, sync::*};",
        "mod db {",
        "    pub fn open(path: &str) -> anyhow::Result<()> {",
        '        if path.is_empty() { bail!("empty path"); }',
        '        Err("not implemented")?',
        "    }",
        "}",
      ].join("\n"),
    );
    expect(out.imports).toEqual([
      { module: "std::io", names: ["Read"], line: 1 },
      { module: "std::sync", names: ["*"], line: 1 },
    ]);
    expect(out.symbols.map((s) => [s.qualifiedName, s.parent, s.exported])).toEqual([
      ["db.open", null, true],
    ]);
    expect(out.symbols[0]?.errorStrings).toEqual(["empty path", "not implemented"]);
  });
});

describe("rust macros", () => {
  it("makes each `macro_rules!` a definition, public when exported, with no calls from its rules", async () => {
    const macros = await extractSource(
      "rust",
      [
        "/// Return early with an error.",
        "#[macro_export]",
        "macro_rules! bail {",
        "    ($msg:literal) => { return Err(anyhow!($msg)) };",
        "}",
        "",
        "macro_rules! backtrace {",
        "    () => { Some(Backtrace::capture()) };",
        "}",
        "",
        "pub fn render() -> String { String::new() }",
      ].join("\n"),
    );
    expect(
      macros.symbols.map((s) => [s.qualifiedName, s.startLine, s.endLine, s.exported, s.signature]),
    ).toEqual([
      ["bail", 1, 5, true, "macro_rules! bail"],
      ["backtrace", 7, 9, false, "macro_rules! backtrace"],
      ["render", 11, 11, true, "pub fn render() -> String"],
    ]);
    expect(macros.symbols[0]?.docstring).toContain("Return early");
    expect(macros.symbols[0]?.calls).toEqual([]);
  });

  it("reads items written inside a braced macro call, not the tokens of a code generator", async () => {
    const source = [
      "feature! {",
      '    #![feature = "std"]',
      "    /// The default registry.",
      "    pub fn registry() -> Registry {",
      "        Registry::default()",
      "    }",
      "}",
      "",
      "pin_project! {",
      "    pub struct Instrumented<T> {",
      "        #[pin]",
      "        inner: T,",
      "    }",
      "}",
      "",
      "fn expand(name: &Ident) -> TokenStream {",
      "    quote! {",
      "        fn #name() {}",
      "    }",
      "}",
      "",
      "thread_local! {",
      "    static CURRENT: Cell<u8> = Cell::new(0);",
      "}",
    ].join("\n");
    const result = await extractSource("rust", source);
    expect(result.symbols.map((s) => [s.qualifiedName, s.kind, s.startLine, s.endLine])).toEqual([
      ["registry", "function", 3, 6],
      ["Instrumented", "struct", 10, 13],
      ["expand", "function", 16, 20],
    ]);
    expect(result.symbols[0]?.calls.map((c) => c.raw)).toEqual(["Registry::default"]);
    expect(result.moduleState).toContain("CURRENT");
    expect(result.parseErrors).toBe(0);
  });
});

describe("rust macro arguments", () => {
  const source = [
    "impl Walker {",
    "    fn step(&mut self, dent: DirEntry) -> Option<Result<DirEntry>> {",
    "        dent = itry!(self.follow(dent));",
    "        if itry!(self.is_same_file_system(&dent)) {",
    "            itry!(self.push(&dent));",
    "        }",
    "        let root = itry!(DirEntry::from_path(0, util::root(), false));",
    '        assert!(is_valid(&root), "root {} is invalid", root.path().display());',
    "        let v = vec![make(a), self.stack[0].close()];",
    "        Some(Ok(dent))",
    "    }",
    "}",
    "",
    "impl fmt::Display for Error {",
    "    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {",
    "        match self.inner {",
    "            Inner::Io { ref path, ref err } => {",
    '                Ok(write!(f, "IO error for operation on {}: {}", path.display(), err)?)',
    "            }",
    '            Inner::Loop { .. } => write!(f, "File system loop found: \\',
    '                 {} points to an ancestor", describe_loop(self)),',
    "        }",
    "    }",
    "}",
    "",
    "fn load(path: &str) -> Result<Config> {",
    '    let text = itry!(read(path).expect("config file is readable"));',
    '    let n: u32 = text.parse().map_err(|_| format!("bad number in {}", path))?;',
    '    println!("{} {}", fmt_size(n), quote_name!("x"));',
    '    if n == 0 { return Err(format!("empty config {}", path)); }',
    "    tokens!($name(x), #ident(y), Vec::<u8>::with_capacity(2), #[derive(Debug)] struct S);",
    "    Ok(parse(text))",
    "}",
  ].join("\n");
  let out: FileExtraction;
  const of = (name: string) => out.symbols.find((s) => s.qualifiedName === name) as ExtractedSymbol;
  beforeAll(async () => {
    out = await extractSource("rust", source);
  });

  it("reads calls written in a macro's token tree, with receivers and lines", () => {
    expect(of("Walker.step").calls.map((c) => [c.raw, c.name, c.receiver, c.line])).toEqual([
      ["self.follow", "follow", "self", 3],
      ["self.is_same_file_system", "is_same_file_system", "self", 4],
      ["self.push", "push", "self", 5],
      ["DirEntry::from_path", "from_path", "DirEntry", 7],
      ["util::root", "root", "util", 7],
      ["is_valid", "is_valid", null, 8],
      ["root.path", "path", "root", 8],
      ["root.path().display", "display", "root.path()", 8],
      ["make", "make", null, 9],
      ["self.stack[…].close", "close", "self.stack[…]", 9],
    ]);
    // `Ok`/`Some` are constructors, `$name(…)` and `#ident(…)` are a macro's own placeholders,
    // `#[derive(…)]` is an attribute, `::with_capacity` after a turbofish has no known path, and
    // what a print line calls (`fmt_size`) only feeds the line.
    expect(of("load").calls.map((c) => c.raw)).toEqual([
      "read",
      "read().expect",
      "text.parse().map_err",
      "text.parse",
      "parse",
    ]);
  });

  it("reads the messages of write! in fmt impls, format! errors and expect inside macros", () => {
    expect(of("Error.fmt").errorStrings).toEqual([
      "IO error for operation on {}: {}",
      "File system loop found: {} points to an ancestor",
    ]);
    expect(of("Error.fmt").calls.map((c) => c.raw)).toEqual(["path.display", "describe_loop"]);
    expect(of("load").errorStrings).toEqual([
      "config file is readable",
      "bad number in {}",
      "empty config {}",
    ]);
    // A format string outside a fmt impl or an error is no message.
    expect(of("Walker.step").errorStrings).toEqual([]);
  });

  it("reads what a helper given the formatter writes, as a fmt impl's own write! (a Debug layout)", async () => {
    const layout = await extractSource(
      "rust",
      [
        "impl Report {",
        "    pub(crate) fn debug(&self, f: &mut core::fmt::Formatter) -> fmt::Result {",
        '        write!(f, "{}", self.head)?;',
        "        if let Some(cause) = self.cause() {",
        '            write!(f, "\\n\\nCaused by:")?;',
        "        }",
        "        Ok(())",
        "    }",
        "    fn summary(&self) -> String {",
        '        format!("{} causes", self.count)',
        "    }",
        "}",
      ].join("\n"),
    );
    const errors = (name: string) => layout.symbols.find((s) => s.qualifiedName === name)?.errorStrings;
    // What only places values (`"{}"`) says nothing of the layout.
    expect(errors("Report.debug")).toEqual(["\\n\\nCaused by:"]);
    // A format string of a function given no formatter is no message.
    expect(errors("Report.summary")).toEqual([]);
  });
});
