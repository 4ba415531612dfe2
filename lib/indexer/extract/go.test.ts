/** Go extraction against a small server fixture (receivers, package vars, error helpers). */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { ExtractedSymbol, FileExtraction } from "../types";
import { extractSource } from "./index";

const source = readFileSync(fileURLToPath(new URL("../__fixtures__/go/server.go", import.meta.url)), "utf8");

let result: FileExtraction;
const symbol = (qualifiedName: string): ExtractedSymbol => {
  const found = result.symbols.find((s) => s.qualifiedName === qualifiedName);
  if (!found) throw new Error(`no symbol ${qualifiedName}`);
  return found;
};
const calls = (qualifiedName: string) =>
  symbol(qualifiedName).calls.map((c) => [c.raw, c.name, c.receiver, c.line]);

beforeAll(async () => {
  result = await extractSource("go", source);
});

describe("go extraction", () => {
  it("finds types, functions and methods qualified by receiver type", () => {
    expect(result.symbols.map((s) => [s.qualifiedName, s.kind, s.startLine, s.endLine, s.exported])).toEqual([
      ["Handler", "interface", 21, 25, true],
      ["Server", "struct", 27, 34, true],
      ["Request", "struct", 37, 38, true],
      ["ID", "type", 39, 39, true],
      ["NewServer", "function", 42, 47, true],
      ["Server.Start", "method", 49, 61, true],
      ["Server.Close", "method", 63, 68, true],
      ["helper", "function", 70, 73, false],
    ]);
    expect(symbol("Server.Start").parent).toBe("Server");
    expect(symbol("NewServer").parent).toBeNull();
    expect(result.parseErrors).toBe(0);
  });

  it("builds signatures, doc comments and embedded bases", () => {
    expect(symbol("Server.Start").signature).toBe(
      "func (s *Server) Start(ctx context.Context, req *Request) error",
    );
    expect(symbol("Server.Close").signature).toBe("func (s Server) Close()");
    expect(symbol("NewServer").signature).toBe("func NewServer(name string, h Handler) *Server");
    expect(symbol("Server").signature).toBe("type Server struct");
    expect(symbol("Handler").signature).toBe("type Handler interface");
    expect(symbol("ID").signature).toBe("type ID string");
    expect(symbol("Server").docstring).toBe("Server serves requests.\nIt is safe for concurrent use.");
    expect(symbol("Request").docstring).toBe("Request is one unit of work.");
    expect(symbol("Server.Start").docstring).toBe("Start runs the handler once.");
    expect(symbol("Server").bases).toEqual(["Base"]);
    expect(symbol("Handler").bases).toEqual(["fmt.Stringer"]);
  });

  it("collects calls (closures included), error strings and writes", () => {
    expect(calls("Server.Start")).toEqual([
      ["fmt.Errorf", "Errorf", "fmt", 52],
      ["mu.Lock", "Lock", "mu", 54],
      ["mu.Unlock", "Unlock", "mu", 56],
      ["s.handler.Handle", "Handle", "s.handler", 58],
    ]);
    expect(symbol("Server.Start").errorStrings).toEqual(["server %s: %w"]);
    expect(symbol("Server.Start").mutates).toEqual(["requests"]);
    expect(symbol("Server.Close").mutates).toEqual(["s.closed"]);
    // `stdlog` is the log package under an alias.
    expect(symbol("Server.Close").errorStrings).toEqual(["close %s without handler"]);
    expect(symbol("NewServer").mutates).toEqual(["registry"]);
    // The parameter `requests` shadows the package var.
    expect(symbol("helper").mutates).toEqual([]);
    expect(symbol("helper").errorStrings).toEqual(["unreachable: {…}"]);
    expect(symbol("helper").raises).toEqual([]);
  });

  it("reads imports and package vars", () => {
    expect(result.imports).toEqual([
      { module: "context", names: [], line: 4 },
      { module: "errors", names: [], line: 5 },
      { module: "fmt", names: [], line: 6 },
      { module: "log", names: [], local: "stdlog", line: 7 },
      { module: "sync", names: [], line: 8 },
    ]);
    expect(result.moduleState).toEqual(["mu", "requests", "registry", "ErrClosed"]);
  });

  it("records package aliases; dot imports merge the package, blank ones bind `_`", async () => {
    const out = await extractSource(
      "go",
      'package main\n\nimport (\n\tf "fmt"\n\t_ "embed"\n\t. "strings"\n\t"os"\n)\n',
    );
    expect(out.imports).toEqual([
      { module: "fmt", names: [], local: "f", line: 4 },
      { module: "embed", names: [], local: "_", line: 5 },
      { module: "strings", names: ["*"], line: 6 },
      { module: "os", names: [], line: 7 },
    ]);
  });
});
