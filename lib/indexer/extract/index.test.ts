/** Cross-language behaviour: grammar loading, empty and malformed input, offsets and caps. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { getParser, grammarPath, languageForFile, languageForPath } from "../parser";
import { LANGUAGES, type CodeLanguage } from "../types";
import { extractSource } from "./index";
import { EMPTY_FACTS } from "../../db/file-shapes.ts";

const malformed = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../__fixtures__/malformed/${name}`, import.meta.url)), "utf8");

describe("languageForPath", () => {
  it("maps extensions to grammars", () => {
    expect(languageForPath("pkg/mod.py")).toBe("python");
    expect(languageForPath("src/a.ts")).toBe("typescript");
    expect(languageForPath("src/a.mts")).toBe("typescript");
    expect(languageForPath("src/a.cts")).toBe("typescript");
    expect(languageForPath("src/App.tsx")).toBe("tsx");
    expect(languageForPath("src/a.js")).toBe("javascript");
    expect(languageForPath("src/a.mjs")).toBe("javascript");
    expect(languageForPath("src/a.cjs")).toBe("javascript");
    expect(languageForPath("src/App.jsx")).toBe("javascript");
    expect(languageForPath("src/Main.java")).toBe("java");
    expect(languageForPath("cmd/main.go")).toBe("go");
    expect(languageForPath("src/lib.rs")).toBe("rust");
    expect(languageForPath("SRC/LIB.RS")).toBe("rust");
    expect(["a.c", "a.h", "a.hpp", "a.cc", "A.cs", "a.rb", "a.php"].map(languageForPath)).toEqual([
      "c",
      "c",
      "cpp",
      "cpp",
      "csharp",
      "ruby",
      "php",
    ]);
    expect(languageForFile("fmt.h", "namespace fmt {\n}")).toBe("cpp");
    expect(languageForFile("jv.h", "typedef struct jv jv;")).toBe("c");
    expect(languageForPath("README.md")).toBeNull();
    expect(languageForPath("Makefile")).toBeNull();
  });

  it("loads every grammar once and reuses the parser", async () => {
    for (const language of LANGUAGES) {
      expect(grammarPath(language)).toMatch(/tree-sitter-[a-z-]+\.wasm$/);
      const first = await getParser(language);
      expect(await getParser(language)).toBe(first);
    }
  });
});

describe("degenerate input", () => {
  it.each(LANGUAGES)("an empty %s file yields nothing", async (language) => {
    for (const source of ["", "\n\n   \n"]) {
      expect(await extractSource(language, source)).toEqual({
        language,
        symbols: [],
        imports: [],
        moduleState: [],
        parseErrors: 0,
        facts: EMPTY_FACTS,
      });
    }
  });

  const cases: Array<[CodeLanguage, string, string[], string]> = [
    ["python", "broken.py", ["good", "Survivor", "Survivor.method"], "self.value"],
    ["typescript", "broken.ts", ["good", "broken", "Survivor", "Survivor.run"], "this.count"],
    ["java", "Broken.java", ["Broken", "Broken.good", "Broken.broken", "Broken.survivor"], "this.count"],
    ["go", "broken.go", ["good", "broken", "Server.Survivor"], "s.count"],
    ["rust", "broken.rs", ["good", "broken", "Survivor.run"], "self.count"],
  ];

  it.each(cases)("malformed %s still yields the intact symbols", async (language, file, names, write) => {
    const result = await extractSource(language, malformed(file));
    expect(result.parseErrors).toBeGreaterThan(0);
    expect(result.symbols.map((s) => s.qualifiedName)).toEqual(names);
    const survivor = result.symbols[result.symbols.length - 1];
    expect(survivor?.mutates).toEqual([write]);
    expect(survivor?.calls.map((c) => c.name)).toEqual(["compute"]);
    expect(result.imports.length).toBe(1);
  });

  it("keeps python line numbers exact after skipping a broken region", async () => {
    const result = await extractSource("python", malformed("broken.py"));
    const method = result.symbols.find((s) => s.qualifiedName === "Survivor.method");
    expect([method?.startLine, method?.endLine]).toEqual([13, 14]);
    expect(method?.calls).toEqual([{ raw: "compute", name: "compute", receiver: null, line: 14 }]);
  });

  it("handles non-ASCII text without shifting offsets", async () => {
    const result = await extractSource(
      "python",
      'NAME = "café ☕"\n\ndef grüß(x):\n    """Grüße ☕."""\n    return ö(x)\n',
    );
    expect(result.symbols.map((s) => [s.name, s.signature, s.docstring, s.startLine])).toEqual([
      ["grüß", "def grüß(x)", "Grüße ☕.", 3],
    ]);
    expect(result.symbols[0]?.calls.map((c) => c.raw)).toEqual(["ö"]);
  });

  it("caps long docstrings and error strings", async () => {
    const long = "x".repeat(1000);
    const result = await extractSource(
      "python",
      `def f():\n    """${long}"""\n    raise ValueError("${long}")\n`,
    );
    const f = result.symbols[0];
    expect(f?.docstring.length).toBe(400);
    expect(f?.docstring.endsWith("…")).toBe(true);
    expect(f?.errorStrings[0]?.length).toBe(160);
  });
});
