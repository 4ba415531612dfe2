/** Python extraction against a small user-service fixture plus inline edge cases. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { ExtractedSymbol, FileExtraction } from "../types";
import { extractSource } from "./index";

const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../__fixtures__/python/${name}`, import.meta.url)), "utf8");

let result: FileExtraction;
const symbol = (qualifiedName: string): ExtractedSymbol => {
  const found = result.symbols.find((s) => s.qualifiedName === qualifiedName);
  if (!found) throw new Error(`no symbol ${qualifiedName}`);
  return found;
};
const calls = (qualifiedName: string) =>
  symbol(qualifiedName).calls.map((c) => [c.raw, c.name, c.receiver, c.line]);

beforeAll(async () => {
  result = await extractSource("python", fixture("user_service.py"));
});

describe("python extraction", () => {
  it("finds classes, nested classes, methods and nested functions in order", () => {
    expect(result.symbols.map((s) => [s.qualifiedName, s.kind, s.startLine, s.endLine])).toEqual([
      ["UserNotFound", "class", 16, 17],
      ["User", "class", 20, 24],
      ["UserService", "class", 27, 84],
      ["UserService.Config", "class", 33, 37],
      ["UserService.Config.describe", "method", 36, 37],
      ["UserService.__init__", "method", 39, 43],
      ["UserService.size", "method", 45, 48],
      ["UserService.normalize", "method", 50, 52],
      ["UserService.get", "method", 54, 65],
      ["UserService.load_all", "method", 67, 75],
      ["UserService.load_all.fetch", "function", 72, 73],
      ["UserService.reset", "method", 77, 84],
      ["_make_key", "function", 87, 88],
    ]);
    expect(result.parseErrors).toBe(0);
  });

  it("records parents and public names", () => {
    expect(symbol("UserService.Config.describe").parent).toBe("UserService.Config");
    expect(symbol("UserService.load_all.fetch").parent).toBe("UserService.load_all");
    expect(symbol("UserService").parent).toBeNull();
    expect(symbol("UserService.__init__").exported).toBe(true);
    expect(symbol("UserService.load_all.fetch").exported).toBe(false);
    expect(symbol("_make_key").exported).toBe(false);
  });

  it("builds one-line signatures without bodies", () => {
    expect(symbol("UserService").signature).toBe("class UserService(BaseService, metaclass=Registry)");
    expect(symbol("UserService.__init__").signature).toBe(
      "def __init__(self, session: Session, *, strict: bool = False) -> None",
    );
    expect(symbol("UserService.load_all").signature).toBe(
      "def load_all(self, ids: list[int], strict: Optional[bool] = None) -> list[User]",
    );
    expect(symbol("_make_key").signature).toBe('def _make_key(*parts: str, sep: str = ":") -> str');
  });

  it("keeps decorators (start line includes them), bases and docstrings", () => {
    expect(symbol("User").decorators).toEqual(["dataclass(frozen=True)"]);
    expect(symbol("UserService.size").decorators).toEqual(["property"]);
    expect(symbol("UserService.normalize").decorators).toEqual(["staticmethod"]);
    expect(symbol("UserService").bases).toEqual(["BaseService"]);
    expect(symbol("UserNotFound").bases).toEqual(["errors.NotFound"]);
    expect(symbol("UserService").docstring).toBe(
      "Looks users up by id.\n\nResults are cached in the module-level ``_cache``.",
    );
    expect(symbol("UserService.size").docstring).toBe("Number of cached users.");
    expect(symbol("UserService.get").docstring).toBe("");
  });

  it("attributes calls to the innermost symbol", () => {
    expect(calls("UserService.__init__")).toEqual([
      ["super().__init__", "__init__", "super()", 40],
      ["super", "super", null, 40],
      ["set", "set", null, 43],
    ]);
    expect(calls("UserService.get")).toEqual([
      ["self.session.query().get", "get", "self.session.query()", 59],
      ["self.session.query", "query", "self.session", 59],
      ["logger.warning", "warning", "logger", 61],
      ["UserNotFound", "UserNotFound", null, 62],
      ["self._seen.add", "add", "self._seen", 64],
    ]);
    expect(calls("UserService.load_all")).toEqual([["fetch", "fetch", null, 75]]);
    expect(calls("UserService.load_all.fetch")).toEqual([["self.get", "get", "self", 73]]);
  });

  it("collects raises, error strings and writes", () => {
    const get = symbol("UserService.get");
    expect(get.raises).toEqual(["UserNotFound"]);
    expect(get.errorStrings).toEqual(["user %s not found", "no user {…}"]);
    expect(get.mutates).toEqual(["_hits", "_cache"]);

    const reset = symbol("UserService.reset");
    // Bare `raise` names nothing; `errors.ServiceError` is reported by its last identifier.
    expect(reset.raises).toEqual(["ServiceError"]);
    expect(reset.errorStrings).toEqual(["reset failed"]);
    // `_cache.clear()` is a method call and `stats` a parameter: neither counts as a write.
    expect(reset.mutates).toEqual(["self.counters"]);

    expect(symbol("UserService.__init__").mutates).toEqual(["self.session", "self.strict", "self._seen"]);
    expect(symbol("UserService.size").mutates).toEqual([]);
  });

  it("reads imports and module state", () => {
    expect(result.imports).toEqual([
      { module: "logging", names: [], line: 2 },
      { module: "os.path", names: [], local: "osp", line: 3 },
      { module: "sys", names: [], line: 3 },
      { module: "dataclasses", names: ["dataclass", "field"], line: 4 },
      { module: "typing", names: ["Optional"], line: 5 },
      { module: ".", names: ["errors"], line: 7 },
      {
        module: "..db.session",
        names: ["Session", "transaction"],
        aliases: { tx: "transaction" },
        line: 8,
      },
    ]);
    expect(result.moduleState).toEqual(["logger", "_cache", "_hits", "MAX_USERS", "MIN_USERS"]);
  });

  it("records the local name of every aliased import, module-level and function-local", async () => {
    const out = await extractSource(
      "python",
      [
        "import numpy as np",
        "import xarray.core.dataset as ds_mod, os",
        "from .core import merge as _merge, concat",
        "from . import store as st",
        "def load():",
        "    import pandas as pd",
        "    from .io import open_dataset as _open",
        "    return pd.read_csv(_open())",
      ].join("\n"),
    );
    expect(out.imports).toEqual([
      { module: "numpy", names: [], local: "np", line: 1 },
      { module: "xarray.core.dataset", names: [], local: "ds_mod", line: 2 },
      // Without `as` the binding is implicit (`os`), so no local name is recorded.
      { module: "os", names: [], line: 2 },
      { module: ".core", names: ["merge", "concat"], aliases: { _merge: "merge" }, line: 3 },
      { module: ".", names: ["store"], aliases: { st: "store" }, line: 4 },
      { module: "pandas", names: [], local: "pd", line: 6 },
      { module: ".io", names: ["open_dataset"], aliases: { _open: "open_dataset" }, line: 7 },
    ]);
    expect(out.symbols[0]?.calls.map((c) => c.raw)).toEqual(["pd.read_csv", "_open"]);
  });

  it("handles cls writes, shadowed module names, raise forms and log helpers", async () => {
    const source = [
      "import warnings",
      "_registry = {}",
      "class Plugin:",
      "    @classmethod",
      "    def register(cls, name):",
      "        cls.names[name] = True",
      "        _registry[name] = cls",
      "        _registry.last = name",
      "    def shadow(self):",
      "        _registry = {}",
      "        _registry['x'] = 1",
      "        warnings.warn('deprecated: %s' % self)",
      "        raise errors.NotFound",
      "    async def fail(self, err):",
      "        self.log.error(f'failed {err!r} twice')",
      "        raise err",
    ].join("\n");
    const out = await extractSource("python", source);
    const byName = new Map(out.symbols.map((s) => [s.qualifiedName, s]));
    expect(byName.get("Plugin.register")?.mutates).toEqual(["cls.names", "_registry"]);
    expect(byName.get("Plugin.shadow")?.mutates).toEqual([]);
    expect(byName.get("Plugin.shadow")?.errorStrings).toEqual(["deprecated: %s"]);
    expect(byName.get("Plugin.shadow")?.raises).toEqual(["NotFound"]);
    expect(byName.get("Plugin.fail")?.signature).toBe("async def fail(self, err)");
    expect(byName.get("Plugin.fail")?.errorStrings).toEqual(["failed {…} twice"]);
    expect(byName.get("Plugin.fail")?.raises).toEqual([]);
  });
});
