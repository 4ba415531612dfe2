/** Java extraction against an inventory-service fixture (nested types, constructors, throws, field writes). */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { ExtractedSymbol, FileExtraction } from "../types";
import { extractSource } from "./index";

const source = readFileSync(
  fileURLToPath(new URL("../__fixtures__/java/InventoryService.java", import.meta.url)),
  "utf8",
);

let result: FileExtraction;
const symbol = (qualifiedName: string): ExtractedSymbol => {
  const found = result.symbols.find((s) => s.qualifiedName === qualifiedName);
  if (!found) throw new Error(`no symbol ${qualifiedName}`);
  return found;
};
const calls = (qualifiedName: string) =>
  symbol(qualifiedName).calls.map((c) => [c.raw, c.name, c.receiver, c.line]);

beforeAll(async () => {
  result = await extractSource("java", source);
});

describe("java extraction", () => {
  it("finds types, nested types, methods and constructors", () => {
    expect(result.symbols.map((s) => [s.qualifiedName, s.kind, s.startLine, s.endLine, s.exported])).toEqual([
      ["InventoryService", "class", 7, 67, true],
      ["InventoryService.InventoryService", "method", 17, 20, true],
      ["InventoryService.reserve", "method", 22, 33, true],
      ["InventoryService.reload", "method", 35, 42, false],
      ["InventoryService.close", "method", 44, 47, true],
      ["InventoryService.Repository", "interface", 49, 55, true],
      ["InventoryService.Repository.name", "method", 50, 50, true],
      ["InventoryService.Repository.load", "method", 52, 54, true],
      ["InventoryService.Level", "enum", 57, 64, true],
      ["InventoryService.Level.critical", "method", 61, 63, true],
      ["InventoryService.Item", "class", 66, 66, true],
    ]);
    expect(symbol("InventoryService.Level.critical").parent).toBe("InventoryService.Level");
    expect(result.parseErrors).toBe(0);
  });

  it("builds signatures without annotations, keeping throws clauses", () => {
    expect(symbol("InventoryService").signature).toBe(
      "public class InventoryService extends BaseService implements Closeable",
    );
    expect(symbol("InventoryService.InventoryService").signature).toBe(
      "public InventoryService(Repository repo)",
    );
    expect(symbol("InventoryService.reserve").signature).toBe(
      "public synchronized int reserve(String sku) throws IOException, StockException",
    );
    expect(symbol("InventoryService.Repository.name").signature).toBe("String name()");
    expect(symbol("InventoryService.Item").signature).toBe("public record Item(String sku, int count)");
  });

  it("reads annotations, doc comments and bases", () => {
    expect(symbol("InventoryService").decorators).toEqual(["Service"]);
    expect(symbol("InventoryService").docstring).toBe("Keeps stock levels per SKU.");
    expect(symbol("InventoryService").bases).toEqual(["BaseService", "Closeable"]);
    expect(symbol("InventoryService.reserve").decorators).toEqual(["Transactional"]);
    expect(symbol("InventoryService.reserve").docstring).toBe("Reserves one unit.");
    expect(symbol("InventoryService.close").decorators).toEqual(["Override"]);
  });

  it("collects calls, throws, error strings and field writes", () => {
    expect(calls("InventoryService.InventoryService")).toEqual([
      ["super", "super", null, 18],
      ["repo.name", "name", "repo", 18],
      ["requireNonNull", "requireNonNull", null, 19],
    ]);
    expect(calls("InventoryService.reserve")).toEqual([
      ["stock.get", "get", "stock", 25],
      ["LOG.error", "error", "LOG", 27],
      ["new StockException", "StockException", null, 28],
      ["String.format", "format", "String", 28],
      ["stock.put", "put", "stock", 30],
    ]);
    const reserve = symbol("InventoryService.reserve");
    expect(reserve.raises).toEqual(["IOException", "StockException"]);
    expect(reserve.errorStrings).toEqual(["out of stock: {…}", "no stock for %s"]);
    expect(reserve.mutates).toEqual(["this.reservations"]);
    expect(symbol("InventoryService.InventoryService").mutates).toEqual(["this.repo"]);
    // The local `reservations` shadows the field; `stock[...]` and bare `repo` are fields.
    expect(symbol("InventoryService.reload").mutates).toEqual(["this.stock", "this.repo"]);
    expect(calls("InventoryService.reload")).toEqual([
      ["repo.load().count", "count", "repo.load()", 38],
      ["repo.load", "load", "repo", 38],
    ]);
    expect(symbol("InventoryService.Repository.load").raises).toEqual(["UnsupportedOperationException"]);
    expect(symbol("InventoryService.Repository.load").errorStrings).toEqual(["load"]);
  });

  it("reads imports", () => {
    expect(result.imports).toEqual([
      { module: "java.io.IOException", names: ["IOException"], line: 3 },
      { module: "java.util", names: ["*"], line: 4 },
      { module: "java.util.Objects.requireNonNull", names: ["requireNonNull"], line: 5 },
    ]);
    expect(result.moduleState).toEqual([]);
  });

  it("keeps anonymous class bodies inside the enclosing method", async () => {
    const out = await extractSource(
      "java",
      "class A { void run() { exec(new Runnable() { public void run() { work(); } }); } }",
    );
    expect(out.symbols.map((s) => s.qualifiedName)).toEqual(["A", "A.run"]);
    expect(out.symbols[1]?.calls.map((c) => c.raw)).toEqual(["exec", "new Runnable", "work"]);
  });
});

describe("java fields bound to code", () => {
  it("makes a lambda field a method and names an anonymous class after its field", async () => {
    const out = await extractSource(
      "java",
      readFileSync(fileURLToPath(new URL("../__fixtures__/java/Scheduler.java", import.meta.url)), "utf8"),
    );
    expect(out.symbols.map((s) => [s.qualifiedName, s.kind, s.parent, s.startLine, s.endLine])).toEqual([
      ["Scheduler", "class", null, 3, 16],
      ["Scheduler.byPriority", "method", "Scheduler", 4, 5],
      ["Scheduler.tick", "class", "Scheduler", 7, 11],
      ["Scheduler.tick.run", "method", "Scheduler.tick", 8, 10],
      ["Scheduler.start", "method", "Scheduler", 13, 15],
    ]);
    const symbol = (name: string) => out.symbols.find((s) => s.qualifiedName === name);
    expect(symbol("Scheduler.byPriority")?.docstring).toBe("Orders jobs by priority, then by age.");
    expect(symbol("Scheduler.byPriority")?.calls.map((c) => c.raw)).toEqual([
      "Integer.compare",
      "b.priority",
      "a.priority",
    ]);
    expect(symbol("Scheduler.tick")?.bases).toEqual(["Runnable"]);
    expect(symbol("Scheduler.tick.run")?.calls.map((c) => c.raw)).toEqual(["drain"]);
    // An anonymous class inside a method still belongs to the method.
    expect(symbol("Scheduler.start")?.calls.map((c) => c.raw)).toEqual([
      "executor.submit",
      "new Runnable",
      "poll",
    ]);
  });
});

describe("java overloads", () => {
  it("extracts every overload with its own body", async () => {
    const connection = await extractSource(
      "java",
      readFileSync(fileURLToPath(new URL("../__fixtures__/java/Connection.java", import.meta.url)), "utf8"),
    );
    const executes = connection.symbols.filter((s) => s.qualifiedName === "Connection.Response.execute");
    expect(executes.map((s) => [s.startLine, s.endLine, s.raises])).toEqual([
      [6, 8, ["IOException"]],
      [10, 13, ["IOException", "IllegalArgumentException"]],
    ]);
    expect(executes[0]?.calls.map((c) => c.raw)).toEqual(["execute"]);
  });
});
