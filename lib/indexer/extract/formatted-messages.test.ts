/**
 * Messages made by formatting calls read at their raise sites as their format string
 * (PHP sprintf, Java String.format, C# string.Format, Go fmt.Sprintf, Python "….format",
 * C snprintf into a buffer), and calls that format nothing left unread.
 */
import { describe, expect, it } from "vitest";
import type { CodeLanguage } from "../types";
import { extractSource } from "./index";

async function errorsOf(language: CodeLanguage, source: string, name: string): Promise<string[]> {
  const { symbols } = await extractSource(language, source);
  const symbol = symbols.find((s) => s.qualifiedName === name);
  if (!symbol) throw new Error(`no ${name} in ${symbols.map((s) => s.qualifiedName).join(", ")}`);
  return symbol.errorStrings;
}

describe("messages made by formatting calls", () => {
  it("PHP: sprintf inside a throw, and a call that formats nothing", async () => {
    const source = `<?php
class Parser {
  public function parse(string $content) {
    throw new InvalidFileException(\\sprintf('Failed to parse dotenv file. %s', $error));
  }
  public function other() {
    throw new InvalidFileException(trim($error));
  }
}`;
    expect(await errorsOf("php", source, "Parser.parse")).toEqual(["Failed to parse dotenv file. %s"]);
    expect(await errorsOf("php", source, "Parser.other")).toEqual([]);
  });

  it("Java and C#: String.format and string.Format", async () => {
    const java = `class Registry {
  void lookup(String name) {
    throw new IllegalArgumentException(String.format("No handler registered for %s", name));
  }
}`;
    expect(await errorsOf("java", java, "Registry.lookup")).toEqual(["No handler registered for %s"]);
    const csharp = `class Registry {
  void Lookup(string name) {
    throw new InvalidOperationException(string.Format("No handler registered for {0}", name));
  }
}`;
    expect(await errorsOf("csharp", csharp, "Registry.Lookup")).toEqual(["No handler registered for {0}"]);
  });

  it('Go and Python: errors.New(fmt.Sprintf(…)) and "…".format(…)', async () => {
    const go = `package store
import ("errors"; "fmt")
func open(name string) error {
	return errors.New(fmt.Sprintf("store %q is closed", name))
}`;
    expect(await errorsOf("go", go, "open")).toEqual(["store %q is closed"]);
    const python = `def check(value):
    raise ValueError("unsupported value {!r}".format(value))
`;
    expect(await errorsOf("python", python, "check")).toEqual(["unsupported value {!r}"]);
  });
});
