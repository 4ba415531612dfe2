/**
 * Chunking: what a search hit can show. Code chunks come from real tree-sitter
 * extraction (one per symbol, classes as header + member list, a file summary);
 * text is cut at Markdown headings and into bounded pieces. Line ranges must be
 * exact, since citations and source views use them.
 */
import { describe, expect, it } from "vitest";
import { extractSource } from "./extract/index.ts";
import { chunkCode, chunkText, fileLines } from "./chunk.ts";
import { countLines } from "./discover.ts";

const PYTHON = [
  '"""Inventory helpers (module docstring)."""',
  "import os",
  "",
  "",
  "class Store:",
  '    """Keeps stock."""',
  "",
  "    limit = 10",
  "",
  "    def add(self, item):",
  "        return item",
  "",
  "    def remove(self, item):",
  "        return None",
  "",
  "",
  "def top_level(x):",
  "    return x + 1",
  "",
].join("\n");

describe("chunkCode", () => {
  it("makes one chunk per symbol, a header + members chunk per class and a file summary", async () => {
    const extraction = await extractSource("python", PYTHON);
    const lines = fileLines(PYTHON);
    const chunks = chunkCode("inv.py", lines, extraction.symbols, (s) => `inv.py::${s.qualifiedName}`);
    const byTitle = new Map(chunks.map((c) => [c.title, c]));

    const store = byTitle.get("Store");
    expect(store).toMatchObject({ kind: "code", symbolId: "inv.py::Store", startLine: 5, endLine: 9 });
    // The class chunk stops before its first method and lists the members instead of repeating them.
    expect(store?.text).toContain('"""Keeps stock."""');
    expect(store?.text).toContain("limit = 10");
    expect(store?.text).toMatch(/# members:\n\s+def add\(self, item\)\n\s+def remove\(self, item\)/);
    expect(store?.text).not.toContain("return item");

    expect(byTitle.get("Store.add")).toMatchObject({
      startLine: 10,
      endLine: 11,
      text: "    def add(self, item):\n        return item",
    });
    expect(byTitle.get("top_level")).toMatchObject({ startLine: 17, endLine: 18 });

    const summary = chunks.find((c) => c.kind === "file");
    expect(summary).toMatchObject({ title: "inv.py", symbolId: null, startLine: 1, endLine: 18 });
    expect(summary?.text).toContain("module docstring");
    expect(summary?.text).toContain("def top_level(x)");
    // Only top-level signatures go in the summary.
    expect(summary?.text).not.toContain("def add");
  });

  it("puts module-level statements between symbols in the file summary, without imports", async () => {
    const source = [
      '"""Globals."""',
      "import os",
      "",
      "def first():",
      "    return 1",
      "",
      "from .x import y",
      '_no_app_msg = """Working outside of application context."""',
      "app.add_url_rule('/', view_func=first)",
      "",
      "def second():",
      "    return 2",
      "",
    ].join("\n");
    const extraction = await extractSource("python", source);
    const chunks = chunkCode(
      "g.py",
      fileLines(source),
      extraction.symbols,
      (s) => `g.py::${s.qualifiedName}`,
    );
    const summary = chunks.find((c) => c.kind === "file")?.text ?? "";
    expect(summary).toContain("Working outside of application context.");
    expect(summary).toContain("app.add_url_rule('/', view_func=first)");
    expect(summary).not.toContain("from .x import y");
    expect(summary).not.toContain("return 1");
  });

  it("caps a very long function at 150 lines", async () => {
    const body = Array.from({ length: 300 }, (_, i) => `    v${i} = ${i}`);
    const source = ["def huge():", ...body, "    return v0", ""].join("\n");
    const extraction = await extractSource("python", source);
    const [chunk] = chunkCode("h.py", fileLines(source), extraction.symbols, (s) => s.qualifiedName);
    expect(chunk).toMatchObject({ title: "huge", startLine: 1, endLine: 150 });
    expect(chunk?.text.split("\n")).toHaveLength(150);
  });
});

describe("chunkText", () => {
  it("cuts Markdown at headings, titling each section with its heading", () => {
    const md = "Intro line\n# Title\nabout\n\n## Setup\nstep one\n## Usage\nrun it\n";
    expect(chunkText("README.md", md, "markdown")).toEqual([
      { kind: "doc", title: "README.md", symbolId: null, startLine: 1, endLine: 1, text: "Intro line" },
      {
        kind: "doc",
        title: "README.md › Title",
        symbolId: null,
        startLine: 2,
        endLine: 4,
        text: "# Title\nabout\n",
      },
      {
        kind: "doc",
        title: "README.md › Setup",
        symbolId: null,
        startLine: 5,
        endLine: 6,
        text: "## Setup\nstep one",
      },
      {
        kind: "doc",
        title: "README.md › Usage",
        symbolId: null,
        startLine: 7,
        endLine: 8,
        text: "## Usage\nrun it",
      },
    ]);
  });

  it("splits long sections into pieces of at most 60 lines and drops blank ones", () => {
    const yaml = `${Array.from({ length: 150 }, (_, i) => `key${i}: ${i}`).join("\n")}\n`;
    const chunks = chunkText("config.yaml", yaml, "yaml");
    expect(chunks.map((c) => [c.kind, c.startLine, c.endLine])).toEqual([
      ["text", 1, 60],
      ["text", 61, 120],
      ["text", 121, 150],
    ]);
    expect(chunks[2]?.text.startsWith("key120: 120")).toBe(true);
    expect(chunkText("empty.txt", "\n\n  \n", "text")).toEqual([]);
    // `#` lines in non-Markdown text are not headings.
    expect(chunkText("notes.txt", "# not a heading\nline\n", "text")).toHaveLength(1);
  });
});

describe("line counting", () => {
  it("agrees between discovery and chunking, with or without a trailing newline", () => {
    for (const text of ["a", "a\n", "a\nb", "a\nb\n", "a\n\n"]) {
      expect(fileLines(text).length, JSON.stringify(text)).toBe(countLines(text));
    }
    expect(countLines("")).toBe(0);
  });
});
