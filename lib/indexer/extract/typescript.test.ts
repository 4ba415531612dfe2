/** TypeScript, TSX and JavaScript extraction against fixtures covering classes, arrows, JSX and CommonJS. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { ExtractedSymbol, FileExtraction } from "../types";
import { extractSource } from "./index";

const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../__fixtures__/typescript/${name}`, import.meta.url)), "utf8");

const finder = (result: FileExtraction) => (qualifiedName: string) => {
  const found = result.symbols.find((s) => s.qualifiedName === qualifiedName);
  if (!found) throw new Error(`no symbol ${qualifiedName}`);
  return found;
};
const callsOf = (s: ExtractedSymbol) => s.calls.map((c) => [c.raw, c.name, c.receiver, c.line]);

describe("typescript extraction", () => {
  let result: FileExtraction;
  let symbol: (qualifiedName: string) => ExtractedSymbol;
  beforeAll(async () => {
    result = await extractSource("typescript", fixture("order-service.ts"));
    symbol = finder(result);
  });

  it("finds declarations, class members and functions bound to variables", () => {
    expect(result.symbols.map((s) => [s.qualifiedName, s.kind, s.startLine, s.endLine, s.exported])).toEqual([
      ["OrderNotFound", "class", 12, 13, true],
      ["OrderRepo", "interface", 15, 17, true],
      ["OrderStatus", "type", 19, 19, true],
      ["Priority", "enum", 21, 24, true],
      ["OrderService", "class", 26, 72, true],
      ["OrderService.constructor", "method", 35, 38, true],
      ["OrderService.size", "method", 40, 42, true],
      ["OrderService.get", "method", 44, 56, true],
      ["OrderService.handle", "method", 58, 61, false],
      ["OrderService.#reset", "method", 63, 67, false],
      ["OrderService.[Symbol.dispose]", "method", 69, 71, true],
      ["formatOrder", "function", 74, 75, true],
      ["loadOrders", "function", 77, 84, true],
      ["loadOrders.helper", "function", 79, 81, false],
      // Exported through the `export { resetCounters }` list at the bottom.
      ["resetCounters", "function", 86, 89, true],
    ]);
    expect(symbol("OrderService.get").parent).toBe("OrderService");
    expect(symbol("loadOrders.helper").parent).toBe("loadOrders");
    expect(result.parseErrors).toBe(0);
  });

  it("builds signatures", () => {
    expect(symbol("OrderService").signature).toBe(
      "class OrderService extends EventEmitter implements Disposable",
    );
    expect(symbol("OrderService.get").signature).toBe("async get(id: OrderId): Promise<Order>");
    expect(symbol("OrderService.size").signature).toBe("get size(): number");
    expect(symbol("OrderService.handle").signature).toBe(
      "private handle = async (id: OrderId): Promise<void> =>",
    );
    expect(symbol("formatOrder").signature).toBe(
      'const formatOrder = (order: Order, currency = "EUR"): string =>',
    );
    expect(symbol("loadOrders").signature).toBe(
      "async function loadOrders(ids: OrderId[], limit: number = DEFAULT_LIMIT): Promise<Order[]>",
    );
    expect(symbol("loadOrders.helper").signature).toBe("const helper = function (id: OrderId)");
    expect(symbol("OrderRepo").signature).toBe("interface OrderRepo extends Repo<Order>");
    expect(symbol("OrderStatus").signature).toBe('type OrderStatus = "open" | "paid" | "shipped"');
    expect(symbol("Priority").signature).toBe("enum Priority");
  });

  it("reads doc comments, decorators and bases", () => {
    expect(symbol("OrderService").docstring).toBe("Loads orders, caching them in memory.\n@see OrderRepo");
    expect(symbol("OrderService").decorators).toEqual(["Injectable()"]);
    expect(symbol("OrderService").bases).toEqual(["EventEmitter", "Disposable"]);
    expect(symbol("OrderNotFound").docstring).toBe("Thrown when an order id is unknown.");
    expect(symbol("OrderService.handle").docstring).toBe(
      "Arrow field keeps `this` bound when passed as a callback.",
    );
    expect(symbol("OrderRepo").bases).toEqual(["Repo<Order>"]);
  });

  it("collects calls, throws, error strings and writes", () => {
    const get = symbol("OrderService.get");
    expect(callsOf(get)).toEqual([
      ["cache.get", "get", "cache", 46],
      ["this.repo.find", "find", "this.repo", 48],
      ["console.error", "error", "console", 50],
      ["new OrderNotFound", "OrderNotFound", null, 51],
      ["cache.set", "set", "cache", 54],
    ]);
    expect(get.raises).toEqual(["OrderNotFound"]);
    expect(get.errorStrings).toEqual(["order {…} missing", "no order {…}"]);
    expect(get.mutates).toEqual(["this.lastId", "requestCount"]);

    expect(callsOf(symbol("OrderService.handle"))).toEqual([
      ["this.emit", "emit", "this", 60],
      ["this.get", "get", "this", 60],
    ]);
    // The local `cache` shadows the module-level one.
    expect(symbol("OrderService.#reset").mutates).toEqual(["this.lastId"]);
    expect(symbol("resetCounters").mutates).toEqual(["requestCount"]);
    expect(symbol("loadOrders").raises).toEqual(["RangeError"]);
    expect(symbol("loadOrders").errorStrings).toEqual(["too many ids: {…}"]);
    expect(callsOf(symbol("loadOrders.helper"))).toEqual([["service.get", "get", "service", 80]]);
  });

  it("reads imports, re-exports and module state", () => {
    expect(result.imports).toEqual([
      { module: "node:events", names: ["EventEmitter"], line: 1 },
      { module: "node:path", names: ["*"], local: "path", line: 2 },
      { module: "./types", names: ["Order", "OrderId"], line: 3 },
      // A default import is the `default` export under the importer's name.
      {
        module: "../db",
        names: ["default", "transaction"],
        aliases: { db: "default", tx: "transaction" },
        line: 4,
      },
      { module: "./money", names: ["formatPrice"], line: 5 },
      { module: "./constants", names: ["*"], line: 6 },
    ]);
    expect(result.moduleState).toEqual(["requestCount", "cache", "DEFAULT_LIMIT"]);
  });
});

describe("tsx extraction", () => {
  let result: FileExtraction;
  beforeAll(async () => {
    result = await extractSource("tsx", fixture("user-card.tsx"));
  });

  it("treats components as functions and capitalised JSX tags as calls", () => {
    const symbol = finder(result);
    expect(result.symbols.map((s) => [s.qualifiedName, s.kind, s.startLine, s.endLine, s.exported])).toEqual([
      ["UserCardProps", "interface", 4, 7, false],
      ["UserCard", "function", 9, 22, true],
      ["UserCard.toggle", "function", 12, 15, false],
      ["Page", "function", 24, 26, true],
    ]);
    expect(symbol("UserCard").docstring).toBe("Shows one user with an edit toggle.");
    expect(symbol("UserCard").signature).toBe("function UserCard({ user, onSave }: UserCardProps)");
    expect(callsOf(symbol("UserCard"))).toEqual([
      ["useState", "useState", null, 11],
      ["<Card.Frame>", "Frame", "Card", 17],
      ["<Button>", "Button", null, 18],
      ["formatName", "formatName", null, 19],
    ]);
    expect(callsOf(symbol("UserCard.toggle"))).toEqual([
      ["setOpen", "setOpen", null, 13],
      ["onSave", "onSave", null, 14],
    ]);
    expect(callsOf(symbol("Page"))).toEqual([["<UserCard>", "UserCard", null, 25]]);
    expect(result.parseErrors).toBe(0);
  });
});

describe("javascript extraction", () => {
  let result: FileExtraction;
  let symbol: (qualifiedName: string) => ExtractedSymbol;
  beforeAll(async () => {
    result = await extractSource("javascript", fixture("legacy-store.js"));
    symbol = finder(result);
  });

  it("reads CommonJS requires and exports", () => {
    expect(result.symbols.map((s) => [s.qualifiedName, s.kind, s.startLine, s.endLine, s.exported])).toEqual([
      ["readJson", "function", 8, 16, true],
      ["Store", "class", 18, 31, true],
      ["Store.open", "method", 20, 20, true],
      ["Store.constructor", "method", 22, 25, true],
      ["Store.set", "method", 27, 30, true],
      ["loadPlugin", "function", 33, 35, true],
      // Function members of an object literal; exported because `handlers` is in module.exports.
      ["handlers.list", "method", 38, 41, true],
      ["handlers.drop-all", "method", 42, 44, true],
    ]);
    expect(result.imports).toEqual([
      { module: "fs", names: [], local: "fs", line: 2 },
      { module: "path", names: ["join", "resolve"], aliases: { resolvePath: "resolve" }, line: 3 },
      { module: "./logger", names: [], local: "logger", line: 4 },
    ]);
    // Bindings of require() are imports, not module state.
    expect(result.moduleState).toEqual(["store", "handlers"]);
    expect(symbol("loadPlugin").signature).toBe("exports.loadPlugin = function (name)");
  });

  it("collects calls, errors and writes in plain JS", () => {
    const readJson = symbol("readJson");
    expect(readJson.docstring).toBe("Reads a JSON file from disk.");
    expect(callsOf(readJson)).toEqual([
      ["JSON.parse", "parse", "JSON", 11],
      ["fs.readFileSync", "readFileSync", "fs", 11],
      ["join", "join", null, 11],
      ["logger.warn", "warn", "logger", 13],
      ["new Error", "Error", null, 14],
    ]);
    expect(readJson.raises).toEqual(["Error"]);
    expect(readJson.errorStrings).toEqual(["cannot read {…}", "bad json in {…}"]);
    expect(symbol("Store.constructor").mutates).toEqual(["this.#path", "this.items"]);
    expect(symbol("Store.set").mutates).toEqual(["this.items", "store"]);
    expect(symbol("Store.open").signature).toBe("static open = (file) =>");
  });

  it("turns function members of object literals into methods", () => {
    const list = symbol("handlers.list");
    expect([list.signature, list.docstring, list.parent]).toEqual([
      "list()",
      "Lists every stored key.",
      null,
    ]);
    expect(list.calls.map((c) => c.raw)).toEqual(["Object.keys"]);
    expect(symbol("handlers.drop-all").signature).toBe('"drop-all": () =>');
    expect(symbol("handlers.drop-all").mutates).toEqual(["store"]);
  });

  it("records aliases of named, namespace, default and require imports, not of re-exports", async () => {
    const out = await extractSource(
      "typescript",
      [
        'import { parse as parseConfig, load } from "./config";',
        'import * as utils from "./utils";',
        'import def from "./x";',
        'import view, * as views from "./views";',
        'import { default as Widget } from "./widget";',
        'import fs = require("fs");',
        'export { slugify as slug } from "./text";',
      ].join("\n"),
    );
    expect(out.imports).toEqual([
      { module: "./config", names: ["parse", "load"], aliases: { parseConfig: "parse" }, line: 1 },
      { module: "./utils", names: ["*"], local: "utils", line: 2 },
      { module: "./x", names: ["default"], aliases: { def: "default" }, line: 3 },
      { module: "./views", names: ["default", "*"], local: "views", aliases: { view: "default" }, line: 4 },
      { module: "./widget", names: ["default"], aliases: { Widget: "default" }, line: 5 },
      { module: "fs", names: [], local: "fs", line: 6 },
      // A re-export binds no local name, so its rename is not an alias.
      { module: "./text", names: ["slugify"], line: 7 },
    ]);
  });

  it("records dynamic imports with literal specifiers", async () => {
    const out = await extractSource("javascript", 'async function load() { return import("./lazy.js"); }\n');
    expect(out.imports).toEqual([{ module: "./lazy.js", names: [], line: 1 }]);
    expect(out.symbols[0]?.calls).toEqual([]);
  });
});

describe("definitions made by an expression", () => {
  it("names a function handed last to a module-level factory call after its variable", async () => {
    const result = await extractSource("typescript", fixture("schemas.ts"));
    expect(result.symbols.map((s) => [s.qualifiedName, s.kind, s.startLine, s.endLine, s.exported])).toEqual([
      ["ZodString", "function", 4, 10, true],
    ]);
    expect(result.symbols[0]?.calls.map((c) => c.raw)).toEqual([
      "core.$ZodString.init",
      "inst.check",
      "core.minLength",
    ]);
  });

  it("reads a function wrapped in a cast or a `satisfies` check as the function", async () => {
    const result = await extractSource("typescript", fixture("store.ts"));
    expect(result.symbols.map((s) => [s.qualifiedName, s.kind, s.startLine, s.endLine, s.exported])).toEqual([
      ["create", "function", 3, 5, true],
      ["createStore", "function", 7, 8, true],
      ["handle", "function", 10, 12, false],
    ]);
    const symbol = finder(result);
    expect(symbol("create").docstring).toBe("Makes a store and a hook bound to it.");
    expect(symbol("create").calls.map((c) => c.raw)).toEqual(["createImpl"]);
    expect(symbol("handle").calls.map((c) => c.raw)).toEqual(["respond"]);
    // Functions are no module state; a value cast `as const` still is.
    expect(result.moduleState).toEqual(["limits"]);
  });

  it("reads `export default condition && function …` as the default export", async () => {
    const result = await extractSource("javascript", fixture("xhr-adapter.js"));
    expect(result.symbols.map((s) => [s.qualifiedName, s.startLine, s.endLine, s.exported])).toEqual([
      ["default", 4, 8, true],
    ]);
    expect(result.symbols[0]?.calls.map((c) => c.raw)).toEqual(["new XMLHttpRequest", "request.open"]);
  });

  it("reads the members of both objects of `export default condition ? {…} : {…}`", async () => {
    const result = await extractSource("javascript", fixture("cookies.js"));
    expect(result.symbols.map((s) => [s.qualifiedName, s.startLine, s.exported])).toEqual([
      ["default.write", 6, true],
      ["default.read", 9, true],
      ["default.write", 15, true],
      ["default.read", 16, true],
    ]);
  });

  it("reads methods assigned to a prototype or an object as methods of their owner", async () => {
    const result = await extractSource("javascript", fixture("authenticator.js"));
    expect(result.symbols.map((s) => [s.qualifiedName, s.kind, s.parent, s.startLine, s.exported])).toEqual([
      ["Authenticator", "function", null, 4, true],
      ["Authenticator.use", "method", "Authenticator", 9, true],
      ["Authenticator._strategy", "method", "Authenticator", 18, true],
      ["SessionStore", "function", null, 22, false],
      ["SessionStore.get", "method", "SessionStore", 25, false],
      ["SessionStore.destroy", "method", "SessionStore", 26, false],
      ["Authenticator.init", "method", "Authenticator", 30, true],
      ["SessionStore.load", "method", "SessionStore", 34, false],
      ["req.login", "method", "req", 38, false],
      ["helpers", "function", null, 45, false],
    ]);
    const symbol = finder(result);
    expect(symbol("Authenticator.use").signature).toBe(
      "Authenticator.prototype.use = function(name, strategy)",
    );
    expect(symbol("Authenticator.use").docstring).toContain("Registers a strategy");
    expect(callsOf(symbol("Authenticator.init"))).toEqual([
      ["this.use", "use", "this", 30],
      ["new Strategy", "Strategy", null, 30],
    ]);
    expect(symbol("Authenticator.use").raises).toEqual(["Error"]);
    expect(symbol("Authenticator.use").errorStrings).toEqual(["Authentication strategies must have a name"]);
  });
});
