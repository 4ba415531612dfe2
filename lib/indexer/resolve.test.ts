/**
 * Call resolution: hand-built symbols and imports (the shapes extraction produces)
 * go through the Resolver, and each test pins where a call lands and how sure the
 * resolver is. A final end-to-end test indexes a real fixture and reads callers and
 * callees back through the code-graph queries the `symbol` command uses.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calleesOf, callersOf, symbolsByName } from "../db/code-graph.ts";
import { extractSource } from "./extract/index.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";
import { indexRepository } from "../builds/build.ts";
import { MIN_EDGE_CONFIDENCE, Resolver, type ResolvedEdge, type ResolverSymbol } from "./resolve.ts";
import { type ResolverFile } from "./module-scope.ts";
import type { CodeLanguage, ExtractedCall, ExtractedImport, SymbolKind } from "./types.ts";

const LANGUAGE_BY_EXT: Record<string, string> = {
  py: "python",
  ts: "typescript",
  js: "javascript",
  go: "go",
  rs: "rust",
  java: "java",
  c: "c",
  h: "c",
  cc: "cpp",
  hpp: "cpp",
  cs: "csharp",
  rb: "ruby",
  php: "php",
};

function languageOf(path: string): string {
  return LANGUAGE_BY_EXT[path.split(".").pop() ?? ""] ?? "text";
}

/**
 * A symbol as extraction reports it: `Outer.method` has parent `Outer`; `parent` says otherwise
 * when the qualifier is a namespace (`Serilog.Core.Logger` has none).
 */
function sym(
  path: string,
  qualifiedName: string,
  kind: SymbolKind,
  bases: string[] = [],
  parent?: string | null,
): ResolverSymbol {
  const dot = qualifiedName.lastIndexOf(".");
  return {
    qualifiedId: `${path}::${qualifiedName}`,
    path,
    name: qualifiedName.slice(dot + 1),
    qualifiedName,
    kind,
    parent: parent !== undefined ? parent : dot === -1 ? null : qualifiedName.slice(0, dot),
    language: languageOf(path),
    bases,
  };
}

type Binding = Pick<ExtractedImport, "local" | "aliases">;

/** A file and its imports: `[module, names]`, or `[module, names, { local, aliases }]` when renamed. */
function file(
  path: string,
  imports: [module: string, names: string[], binding?: Binding][] = [],
): ResolverFile {
  const list: ExtractedImport[] = imports.map(([module, names, binding], i) => ({
    module,
    names,
    ...binding,
    line: i + 1,
  }));
  return { path, language: languageOf(path), imports: list };
}

/** A call as written: `self.save`, `utils.parse`, `Pool::new`, `helper`. */
function call(raw: string, line = 10): ExtractedCall {
  const match = /^(.*)(?:\.|::)([^.:]+)$/.exec(raw);
  return match
    ? { raw, receiver: match[1] ?? null, name: match[2] ?? raw, line }
    : { raw, receiver: null, name: raw, line };
}

function resolveCalls(
  symbols: ResolverSymbol[],
  files: ResolverFile[],
  from: string,
  raws: string[],
): ResolvedEdge[] {
  const resolver = new Resolver(symbols, files);
  const caller = symbols.find((s) => s.qualifiedId === from);
  if (!caller) throw new Error(`no symbol ${from}`);
  return resolver.callEdges(
    caller,
    raws.map((r, i) => call(r, 10 + i)),
  );
}

/** `dstId@confidence` per edge, the compact form the assertions compare. */
function targets(edges: ResolvedEdge[]): string[] {
  return edges.map((e) => `${e.dstId}@${e.confidence}`);
}

describe("calls on self / this", () => {
  const symbols = [
    sym("repo.py", "Repo", "class"),
    sym("repo.py", "Repo.save", "method"),
    sym("repo.py", "Repo.commit", "method"),
    sym("other.py", "Other", "class"),
    sym("other.py", "Other.save", "method"),
  ];
  const files = [file("repo.py"), file("other.py")];

  it("resolves a method of the enclosing class at 0.95, not a same-named one elsewhere", () => {
    const edges = resolveCalls(symbols, files, "repo.py::Repo.commit", ["self.save"]);
    expect(targets(edges)).toEqual(["repo.py::Repo.save@0.95"]);
    expect(edges[0]).toMatchObject({
      kind: "calls",
      srcId: "repo.py::Repo.commit",
      raw: "self.save",
      line: 10,
    });
  });

  it("resolves this.x in TypeScript and Self::x in Rust the same way", () => {
    const ts = [sym("k.ts", "K", "class"), sym("k.ts", "K.m", "method"), sym("k.ts", "K.n", "method")];
    expect(targets(resolveCalls(ts, [file("k.ts")], "k.ts::K.m", ["this.n"]))).toEqual(["k.ts::K.n@0.95"]);
    const rs = [
      sym("src/s.rs", "S", "struct"),
      sym("src/s.rs", "S.new", "method"),
      sym("src/s.rs", "S.helper", "method"),
    ];
    expect(targets(resolveCalls(rs, [file("src/s.rs")], "src/s.rs::S.new", ["Self::helper"]))).toEqual([
      "src/s.rs::S.helper@0.95",
    ]);
  });

  it("treats a constructor function as the class of the methods assigned to its prototype", () => {
    const js = [
      sym("lib/auth.js", "Auth", "function"),
      sym("lib/auth.js", "Auth.use", "method"),
      sym("lib/auth.js", "Auth._strategy", "method"),
      sym("lib/auth.js", "helper", "function"),
      sym("lib/auth.js", "helper.inner", "function"),
      sym("lib/other.js", "Other", "class"),
      sym("lib/other.js", "Other._strategy", "method"),
    ];
    const files = [file("lib/auth.js"), file("lib/other.js")];
    expect(targets(resolveCalls(js, files, "lib/auth.js::Auth.use", ["this._strategy"]))).toEqual([
      "lib/auth.js::Auth._strategy@0.95",
    ]);
    // A function nested in a plain function has no class: `this` there is only guessed at.
    const guessed = targets(resolveCalls(js, files, "lib/auth.js::helper.inner", ["this._strategy"]));
    expect(guessed.every((t) => !t.endsWith("@0.95"))).toBe(true);
  });

  it("never links a method to itself (recursion adds nothing to the graph)", () => {
    expect(resolveCalls(symbols, files, "repo.py::Repo.save", ["self.save"])).toEqual([]);
  });
});

describe("inherited methods", () => {
  const symbols = [
    sym("base.py", "Base", "class"),
    sym("base.py", "Base.helper", "method"),
    sym("base.py", "Base.run", "method"),
    sym("child.py", "Child", "class", ["Base"]),
    sym("child.py", "Child.run", "method"),
    sym("grand.py", "Grand", "class", ["Child"]),
    sym("grand.py", "Grand.go", "method"),
  ];
  const files = [
    file("base.py"),
    file("child.py", [["base", ["Base"]]]),
    file("grand.py", [["child", ["Child"]]]),
  ];

  it("finds a method on an imported base class at 0.85", () => {
    expect(targets(resolveCalls(symbols, files, "child.py::Child.run", ["self.helper"]))).toEqual([
      "base.py::Base.helper@0.85",
    ]);
  });

  it("sends super() calls to the base even when the class overrides the method", () => {
    expect(targets(resolveCalls(symbols, files, "child.py::Child.run", ["super().run"]))).toEqual([
      "base.py::Base.run@0.85",
    ]);
  });

  it("walks more than one level of inheritance", () => {
    expect(targets(resolveCalls(symbols, files, "grand.py::Grand.go", ["self.helper", "self.run"]))).toEqual([
      "base.py::Base.helper@0.85",
      "child.py::Child.run@0.85",
    ]);
  });

  it("emits contains and inherits edges for the class structure", () => {
    const resolver = new Resolver(symbols, files);
    const child = symbols[3]!;
    const run = symbols[4]!;
    expect(resolver.structureEdges(child, 1)).toEqual([
      expect.objectContaining({
        kind: "inherits",
        srcId: "child.py::Child",
        dstId: "base.py::Base",
        confidence: 0.9,
      }),
    ]);
    expect(resolver.structureEdges(run, 2)).toEqual([
      expect.objectContaining({
        kind: "contains",
        srcId: "child.py::Child",
        dstId: "child.py::Child.run",
        confidence: 1,
      }),
    ]);
  });
});

describe("Python imports", () => {
  const symbols = [
    sym("app/utils.py", "parse", "function"),
    sym("app/utils.py", "dump", "function"),
    sym("app/pkg/__init__.py", "init_pkg", "function"),
    sym("app/pkg/helpers.py", "load", "function"),
    sym("app/main.py", "main", "function"),
    sym("app/other.py", "Thing", "class"),
    sym("app/other.py", "Thing.missing", "method"),
  ];

  it("resolves `from x import f` calls at 0.9", () => {
    const files = [file("app/utils.py"), file("app/main.py", [["app.utils", ["parse"]]])];
    expect(targets(resolveCalls(symbols, files, "app/main.py::main", ["parse"]))).toEqual([
      "app/utils.py::parse@0.9",
    ]);
  });

  it("resolves relative `from .x import f` imports", () => {
    const files = [file("app/utils.py"), file("app/main.py", [[".utils", ["dump"]]])];
    expect(targets(resolveCalls(symbols, files, "app/main.py::main", ["dump"]))).toEqual([
      "app/utils.py::dump@0.9",
    ]);
  });

  it("resolves calls through a module alias (`utils.parse()`, `app.pkg.helpers.load()`)", () => {
    const files = [
      file("app/utils.py"),
      file("app/pkg/__init__.py"),
      file("app/pkg/helpers.py"),
      file("app/main.py", [
        ["utils", []],
        ["app.pkg.helpers", []],
      ]),
    ];
    expect(
      targets(resolveCalls(symbols, files, "app/main.py::main", ["utils.parse", "app.pkg.helpers.load"])),
    ).toEqual(["app/utils.py::parse@0.9", "app/pkg/helpers.py::load@0.9"]);
  });

  it("resolves `from package import submodule` followed by `submodule.f()`", () => {
    const files = [
      file("app/pkg/__init__.py"),
      file("app/pkg/helpers.py"),
      file("app/main.py", [["app.pkg", ["helpers"]]]),
    ];
    expect(targets(resolveCalls(symbols, files, "app/main.py::main", ["helpers.load"]))).toEqual([
      "app/pkg/helpers.py::load@0.9",
    ]);
  });

  it("resolves `from . import submodule` in a namespace package (no __init__.py)", () => {
    const nsSymbols = [sym("svc/store.py", "save", "function"), sym("svc/api.py", "handle", "function")];
    const files = [file("svc/store.py"), file("svc/api.py", [[".", ["store"]]])];
    expect(targets(resolveCalls(nsSymbols, files, "svc/api.py::handle", ["store.save"]))).toEqual([
      "svc/store.py::save@0.9",
    ]);
  });

  it("does not guess when a known module lacks the name", () => {
    const files = [file("app/utils.py"), file("app/other.py"), file("app/main.py", [["utils", []]])];
    expect(resolveCalls(symbols, files, "app/main.py::main", ["utils.missing"])).toEqual([]);
  });

  it("links import statements to repository files, external ones to nothing", () => {
    const main = file("app/main.py", [
      ["app.utils", ["parse"]],
      ["os.path", []],
    ]);
    const resolver = new Resolver(symbols, [file("app/utils.py"), main]);
    expect(resolver.importEdges(main).map((e) => [e.raw, e.dstPath, e.confidence])).toEqual([
      ["app.utils:parse", "app/utils.py", 1],
      ["os.path", null, 0],
    ]);
  });
});

describe("Python imports of a package's submodules", () => {
  it("links `from package import submodule` to the submodule's file, not the package's __init__.py", () => {
    const files = [
      file("pkg/__init__.py", [
        [".", ["_utils"]],
        [".wait", ["wait_fixed"]],
      ]),
      file("pkg/_utils.py"),
      file("pkg/wait.py", [["pkg", ["_utils"]]]),
      file("pkg/stop.py", [["pkg", ["_utils", "RetryState"]]]),
      file("pkg/ns/__init__.py"),
      file("pkg/ns/inner.py"),
      file("app.py", [["pkg", ["ns"]]]),
    ];
    const symbols = [
      sym("pkg/__init__.py", "RetryState", "class"),
      sym("pkg/wait.py", "wait_fixed", "class"),
    ];
    const resolver = new Resolver(symbols, files);
    const edges = (path: string) =>
      resolver.importEdges(files.find((f) => f.path === path) as ResolverFile).map((e) => [e.raw, e.dstPath]);
    // No package imports itself through `from . import _utils`.
    expect(edges("pkg/__init__.py")).toEqual([
      [".:_utils", "pkg/_utils.py"],
      [".wait:wait_fixed", "pkg/wait.py"],
    ]);
    expect(edges("pkg/wait.py")).toEqual([["pkg:_utils", "pkg/_utils.py"]]);
    // A name the package defines stays an import of the package.
    expect(edges("pkg/stop.py")).toEqual([
      ["pkg:_utils", "pkg/_utils.py"],
      ["pkg:RetryState", "pkg/__init__.py"],
    ]);
    expect(edges("app.py")).toEqual([["pkg:ns", "pkg/ns/__init__.py"]]);
  });
});

describe("TypeScript imports", () => {
  const symbols = [
    sym("src/lib/dates.ts", "formatDate", "function"),
    sym("src/lib/index.ts", "boot", "function"),
    sym("src/shared/money.ts", "cents", "function"),
    sym("src/app/main.ts", "run", "function"),
    sym("src/app/main.ts", "Widget", "class"),
  ];
  const files = [
    file("src/lib/dates.ts"),
    file("src/lib/index.ts"),
    file("src/shared/money.ts"),
    file("src/app/main.ts", [
      ["../lib/dates", ["formatDate"]],
      ["../lib", ["boot"]],
      ["../shared/money.js", ["cents"]],
      ["react", ["useState"]],
    ]),
  ];

  it("resolves named imports through relative paths, index files and .js specifiers", () => {
    expect(
      targets(resolveCalls(symbols, files, "src/app/main.ts::run", ["formatDate", "boot", "cents"])),
    ).toEqual([
      "src/lib/dates.ts::formatDate@0.9",
      "src/lib/index.ts::boot@0.9",
      "src/shared/money.ts::cents@0.9",
    ]);
  });

  it("links `new Widget` / `Widget()` to the class and leaves external names alone", () => {
    expect(targets(resolveCalls(symbols, files, "src/app/main.ts::run", ["new Widget", "useState"]))).toEqual(
      [],
    );
    expect(targets(resolveCalls(symbols, files, "src/app/main.ts::run", ["Widget"]))).toEqual([
      "src/app/main.ts::Widget@0.95",
    ]);
  });

  it("resolves calls through a namespace import named after the module", () => {
    const withNamespace = [file("src/lib/dates.ts"), file("src/app/main.ts", [["../lib/dates", ["*"]]])];
    expect(
      targets(resolveCalls(symbols, withNamespace, "src/app/main.ts::run", ["dates.formatDate"])),
    ).toEqual(["src/lib/dates.ts::formatDate@0.9"]);
  });
});

describe("calls on libraries outside the repository", () => {
  const symbols = [
    sym("tests/fixtures/user_service.py", "UserService", "class"),
    sym("tests/fixtures/user_service.py", "UserService.normalize", "method"),
    sym("app/paths.ts", "clean", "function"),
    sym("app/tool.py", "main", "function"),
    sym("app/web.py", "serve", "function"),
    sym("app/site.py", "Site", "class"),
    sym("app/site.py", "Site.route", "method"),
  ];
  const files = [
    file("tests/fixtures/user_service.py"),
    file("app/paths.ts", [["node:path", [], { local: "path" }]]),
    file("app/tool.py", [
      ["os.path", []],
      ["numpy", [], { local: "np" }],
    ]),
    file("app/web.py", [["app.site", ["site"]]]),
    file("app/site.py"),
  ];

  it("never guesses a repository method for a call on an external module", () => {
    expect(targets(resolveCalls(symbols, files, "app/paths.ts::clean", ["path.normalize"]))).toEqual([]);
    expect(
      targets(resolveCalls(symbols, files, "app/tool.py::main", ["os.path.normalize", "np.normalize"])),
    ).toEqual([]);
  });

  it("still guesses for a receiver it cannot place (an instance, a parameter), never into tests", () => {
    // `normalize` is defined only in a test fixture: library code does not call its tests.
    expect(
      targets(resolveCalls(symbols, files, "app/web.py::serve", ["site.route", "value.normalize"])),
    ).toEqual(["app/site.py::Site.route@0.5"]);
  });
});

describe("Go and Rust", () => {
  it("resolves Go package-qualified calls through the import path", () => {
    const symbols = [
      sym("store/store.go", "Save", "function"),
      sym("store/store.go", "Store", "struct"),
      sym("store/store.go", "Store.Flush", "method"),
      sym("cmd/app/main.go", "main", "function"),
    ];
    const files = [
      file("store/store.go"),
      file("cmd/app/main.go", [
        ["example.com/shop/store", []],
        ["fmt", []],
      ]),
    ];
    expect(
      targets(
        resolveCalls(symbols, files, "cmd/app/main.go::main", ["store.Save", "fmt.Println", "store.Missing"]),
      ),
    ).toEqual(["store/store.go::Save@0.9"]);
  });

  it("resolves Rust `Type::new()` on an imported type to its impl method", () => {
    const symbols = [
      sym("src/db.rs", "Pool", "struct"),
      sym("src/db.rs", "Pool.new", "method"),
      sym("src/db.rs", "connect", "function"),
      sym("src/main.rs", "main", "function"),
    ];
    const files = [file("src/db.rs"), file("src/main.rs", [["crate::db", ["Pool"]]])];
    expect(targets(resolveCalls(symbols, files, "src/main.rs::main", ["Pool::new"]))).toEqual([
      "src/db.rs::Pool.new@0.9",
    ]);
  });

  it("resolves Rust `module::function()` after `use crate::module`", () => {
    const symbols = [sym("src/db.rs", "connect", "function"), sym("src/main.rs", "main", "function")];
    const files = [file("src/db.rs"), file("src/main.rs", [["crate", ["db"]]])];
    expect(targets(resolveCalls(symbols, files, "src/main.rs::main", ["db::connect"]))).toEqual([
      "src/db.rs::connect@0.9",
    ]);
  });
});

describe("Rust workspaces", () => {
  it("resolves `crate::`, `super::` and a crate's name inside the right crate", () => {
    const dispatch = file("tracing-core/src/dispatch.rs", [
      ["crate::collect", ["Collect"]],
      ["crate", ["span", "Event"]],
      ["super", ["*"]],
      ["super::collect", ["Interest"]],
    ]);
    const util = file("tracing-subscriber/src/util.rs", [["tracing_core::dispatch", ["Dispatch"]]]);
    const files = [
      file("tracing/src/collect.rs"),
      file("tracing-core/src/collect.rs"),
      file("tracing-core/src/lib.rs"),
      dispatch,
      util,
    ];
    const resolver = new Resolver([sym("tracing-core/src/dispatch.rs", "get", "function")], files);
    expect(resolver.importEdges(dispatch).map((e) => e.dstPath)).toEqual([
      "tracing-core/src/collect.rs",
      null,
      null,
      "tracing-core/src/collect.rs",
    ]);
    expect(resolver.importEdges(util).map((e) => e.dstPath)).toEqual(["tracing-core/src/dispatch.rs"]);
  });
});

describe("C, C++, C#, Ruby and PHP", () => {
  it("finds a C function through the header its caller includes, in the source paired with it", () => {
    const symbols = [
      sym("src/stack.c", "stack_push", "function"),
      sym("tests/fake_stack.c", "stack_push", "function"),
      sym("src/main.c", "main", "function"),
    ];
    const files = [
      file("src/stack.h"),
      file("src/stack.c"),
      file("tests/fake_stack.c"),
      file("src/main.c", [["stack.h", []]]),
    ];
    expect(targets(resolveCalls(symbols, files, "src/main.c::main", ["stack_push"]))).toEqual([
      "src/stack.c::stack_push@0.9",
    ]);
  });

  it("resolves C++ namespace-qualified calls and members defined out of line", () => {
    const symbols = [
      sym("include/buffer.hpp", "fmt.detail.buffer", "class", [], null),
      sym("include/buffer.hpp", "fmt.detail.buffer.push_back", "method"),
      sym("src/buffer.cc", "fmt.detail.buffer.grow", "method"),
      sym("src/check.cc", "fmt.detail.check", "function", [], null),
      sym("src/other.cc", "other.check", "function", [], null),
      sym("src/app.cc", "fmt.run", "function", [], null),
    ];
    const files = ["include/buffer.hpp", "src/buffer.cc", "src/check.cc", "src/other.cc", "src/app.cc"].map(
      (p) => file(p),
    );
    // `grow()` inside a member is a member of the class, even in another file.
    expect(
      targets(resolveCalls(symbols, files, "include/buffer.hpp::fmt.detail.buffer.push_back", ["grow"])),
    ).toEqual(["src/buffer.cc::fmt.detail.buffer.grow@0.9"]);
    // `detail::check` from inside namespace fmt is fmt::detail::check.
    expect(targets(resolveCalls(symbols, files, "src/app.cc::fmt.run", ["detail::check"]))).toEqual([
      "src/check.cc::fmt.detail.check@0.9",
    ]);
  });

  it("resolves a C# type through `using` before a same-named type in another namespace", () => {
    const symbols = [
      sym("src/Events/LogEvent.cs", "Serilog.Events.LogEvent", "class", [], null),
      sym("src/Legacy/LogEvent.cs", "Legacy.LogEvent", "class", [], null),
      sym("src/Core/Logger.cs", "Serilog.Core.Logger", "class", [], null),
      sym("src/Core/Logger.cs", "Serilog.Core.Logger.Write", "method"),
    ];
    const files = [
      file("src/Events/LogEvent.cs"),
      file("src/Legacy/LogEvent.cs"),
      file("src/Core/Logger.cs", [["Serilog.Events", []]]),
    ];
    expect(
      targets(resolveCalls(symbols, files, "src/Core/Logger.cs::Serilog.Core.Logger.Write", ["LogEvent"])),
    ).toEqual(["src/Events/LogEvent.cs::Serilog.Events.LogEvent@0.9"]);
  });

  it("resolves a bare Ruby call to a method of the class, reopened in another file", () => {
    const symbols = [
      sym("lib/sinatra/base.rb", "Sinatra.Base", "class"),
      sym("lib/sinatra/base.rb", "Sinatra.Base.dispatch!", "method"),
      sym("lib/sinatra/routing.rb", "Sinatra.Base.route!", "method"),
      sym("lib/other.rb", "Other.route!", "method"),
    ];
    const files = [
      file("lib/sinatra/base.rb", [["./routing", []]]),
      file("lib/sinatra/routing.rb"),
      file("lib/other.rb"),
      file("app.rb", [["sinatra/base", []]]),
    ];
    expect(
      targets(resolveCalls(symbols, files, "lib/sinatra/base.rb::Sinatra.Base.dispatch!", ["route!"])),
    ).toEqual(["lib/sinatra/routing.rb::Sinatra.Base.route!@0.9"]);
    const resolver = new Resolver(symbols, files);
    expect(resolver.importEdges(files[3] as ResolverFile).map((e) => e.dstPath)).toEqual([
      "lib/sinatra/base.rb",
    ]);
    expect(resolver.importEdges(files[0] as ResolverFile).map((e) => e.dstPath)).toEqual([
      "lib/sinatra/routing.rb",
    ]);
  });

  it("finds a PHP class by its `use` name and autoload path, and `$this`/`parent` members", () => {
    const symbols = [
      sym("Slim/Routing/Route.php", "Slim.Routing.Route", "class", [], null),
      sym("Slim/Routing/Route.php", "Slim.Routing.Route.run", "method"),
      sym("Slim/Routing/Route.php", "Slim.Routing.Route.finalize", "method"),
      sym("Slim/App.php", "Slim.App", "class", ["Base"], null),
      sym("Slim/App.php", "Slim.App.handle", "method"),
      sym("Slim/Base.php", "Slim.Base", "class", [], null),
      sym("Slim/Base.php", "Slim.Base.handle", "method"),
      sym("tests/Route.php", "Tests.Route", "class", [], null),
    ];
    const files = [
      file("Slim/Routing/Route.php"),
      file("Slim/Base.php"),
      file("tests/Route.php"),
      file("Slim/App.php", [["Slim\\Routing\\Route", ["Route"]]]),
    ];
    expect(
      targets(resolveCalls(symbols, files, "Slim/App.php::Slim.App.handle", ["Route", "parent::handle"])),
    ).toEqual(["Slim/Routing/Route.php::Slim.Routing.Route@0.9", "Slim/Base.php::Slim.Base.handle@0.85"]);
    expect(
      targets(
        resolveCalls(symbols, files, "Slim/Routing/Route.php::Slim.Routing.Route.run", ["$this.finalize"]),
      ),
    ).toEqual(["Slim/Routing/Route.php::Slim.Routing.Route.finalize@0.95"]);
  });
});

describe("aliased imports", () => {
  describe("Python", () => {
    const symbols = [
      sym("numpy/__init__.py", "asarray", "function"),
      sym("numpy/linalg.py", "norm", "function"),
      sym("xr/core/dataset.py", "Dataset", "class"),
      sym("xr/core/dataset.py", "Dataset.from_dict", "method"),
      sym("xr/core/merge.py", "merge", "function"),
      sym("xr/core/store.py", "save", "function"),
      // Same names as the aliases, elsewhere: an alias must never resolve to these.
      sym("xr/other.py", "_merge", "function"),
      sym("xr/other.py", "Merged", "class"),
      sym("xr/other.py", "Merged.from_dict", "method"),
      sym("xr/core/api.py", "run", "function"),
      sym("xr/core/api.py", "Child", "class", ["ds_mod.Dataset"]),
      sym("xr/core/api.py", "Child.build", "method"),
      sym("xr/core/api.py", "Renamed", "class", ["DS"]),
    ];
    const files = [
      file("numpy/__init__.py"),
      file("numpy/linalg.py"),
      file("xr/__init__.py", [[".core.merge", ["merge"]]]),
      file("xr/core/__init__.py"),
      file("xr/core/dataset.py"),
      file("xr/core/merge.py"),
      file("xr/core/store.py"),
      file("xr/other.py"),
      file("xr/core/api.py", [
        ["numpy", [], { local: "np" }],
        ["xr.core.dataset", [], { local: "ds_mod" }],
        [".merge", ["merge"], { aliases: { _merge: "merge" } }],
        [".dataset", ["Dataset"], { aliases: { DS: "Dataset", Merged: "Dataset" } }],
        [".", ["store"], { aliases: { st: "store" } }],
        ["xr", [], { local: "xa" }],
      ]),
    ];
    const run = (...raws: string[]) => targets(resolveCalls(symbols, files, "xr/core/api.py::run", raws));

    it("resolves `import numpy as np` then `np.asarray()` and a submodule through it (`np.linalg.norm`)", () => {
      expect(run("np.asarray", "np.linalg.norm")).toEqual([
        "numpy/__init__.py::asarray@0.9",
        "numpy/linalg.py::norm@0.9",
      ]);
    });

    it("resolves `from .merge import merge as _merge` then `_merge()` to the aliased function", () => {
      // xr/other.py defines a function literally named `_merge`; the alias wins over it.
      expect(run("_merge")).toEqual(["xr/core/merge.py::merge@0.9"]);
    });

    it("resolves `import xr.core.dataset as ds_mod` then `ds_mod.Dataset()` and `ds_mod.Dataset.from_dict()`", () => {
      expect(run("ds_mod.Dataset", "ds_mod.Dataset.from_dict")).toEqual([
        "xr/core/dataset.py::Dataset@0.9",
        "xr/core/dataset.py::Dataset.from_dict@0.9",
      ]);
    });

    it("resolves a renamed class used as a receiver, even when another class has the alias's name", () => {
      expect(run("DS.from_dict", "Merged.from_dict")).toEqual([
        "xr/core/dataset.py::Dataset.from_dict@0.9",
        "xr/core/dataset.py::Dataset.from_dict@0.9",
      ]);
    });

    it("resolves `from . import store as st` then `st.save()`", () => {
      expect(run("st.save")).toEqual(["xr/core/store.py::save@0.9"]);
    });

    it("follows a package alias through the package's re-export (`xa.merge` → xr/__init__ → core/merge.py)", () => {
      expect(run("xa.merge")).toEqual(["xr/core/merge.py::merge@0.9"]);
    });

    it("binds only the alias: the original module and name stay unbound", () => {
      // `numpy` is not bound by `import numpy as np`, nor `merge` by `import merge as _merge`.
      expect(run("numpy.asarray")).toEqual([]);
      expect(run("merge")).toEqual(["xr/core/merge.py::merge@0.6"]);
    });

    it("resolves base classes written through an alias and their inherited methods", () => {
      const resolver = new Resolver(symbols, files);
      const child = symbols.find((s) => s.qualifiedId === "xr/core/api.py::Child")!;
      const renamed = symbols.find((s) => s.qualifiedId === "xr/core/api.py::Renamed")!;
      expect(resolver.structureEdges(child, 1).map((e) => `${e.kind}:${e.dstId}@${e.confidence}`)).toEqual([
        "inherits:xr/core/dataset.py::Dataset@0.9",
      ]);
      expect(resolver.structureEdges(renamed, 1).map((e) => `${e.kind}:${e.dstId}@${e.confidence}`)).toEqual([
        "inherits:xr/core/dataset.py::Dataset@0.9",
      ]);
      expect(
        targets(resolveCalls(symbols, files, "xr/core/api.py::Child.build", ["self.from_dict"])),
      ).toEqual(["xr/core/dataset.py::Dataset.from_dict@0.85"]);
    });
  });

  describe("TypeScript and JavaScript", () => {
    const symbols = [
      sym("src/config.ts", "parse", "function"),
      sym("src/text.ts", "slugify", "function"),
      sym("src/x.ts", "default", "function"),
      sym("src/build.ts", "build", "function"),
      sym("src/lib/impl.ts", "format", "function"),
      sym("src/lib/index.ts", "boot", "function"),
      // Same names as the aliases, elsewhere.
      sym("src/legacy.ts", "parseConfig", "function"),
      sym("src/legacy.ts", "fmt", "function"),
      sym("src/app.ts", "main", "function"),
      sym("src/paths.js", "resolve", "function"),
      sym("src/cli.js", "start", "function"),
    ];
    const files = [
      file("src/config.ts"),
      file("src/text.ts"),
      file("src/x.ts"),
      file("src/build.ts"),
      file("src/lib/impl.ts"),
      file("src/lib/index.ts", [["./impl", ["format"]]]),
      file("src/legacy.ts"),
      file("src/app.ts", [
        ["./config", ["parse"], { aliases: { parseConfig: "parse" } }],
        ["./text", ["*"], { local: "utils" }],
        ["./x", ["default"], { aliases: { def: "default" } }],
        ["./build", ["default"], { aliases: { build: "default" } }],
        ["./lib", ["format"], { aliases: { fmt: "format" } }],
      ]),
      file("src/paths.js"),
      file("src/cli.js", [["./paths", ["resolve"], { aliases: { resolvePath: "resolve" } }]]),
    ];
    const run = (...raws: string[]) => targets(resolveCalls(symbols, files, "src/app.ts::main", raws));

    it("resolves `import { parse as parseConfig }` to parse, not to a function named parseConfig", () => {
      expect(run("parseConfig")).toEqual(["src/config.ts::parse@0.9"]);
    });

    it("resolves `import * as utils` by the alias, not the module's file name", () => {
      expect(run("utils.slugify")).toEqual(["src/text.ts::slugify@0.9"]);
      // `import * as utils` binds no `text`.
      expect(run("text.slugify")).toEqual([]);
    });

    it("resolves default imports to an anonymous default export or the export of the same name", () => {
      expect(run("def", "build")).toEqual(["src/x.ts::default@0.9", "src/build.ts::build@0.9"]);
    });

    it("follows a renamed import through an index file's re-export", () => {
      expect(run("fmt")).toEqual(["src/lib/impl.ts::format@0.9"]);
    });

    it("resolves a renamed CommonJS destructuring (`const { resolve: resolvePath } = require(…)`)", () => {
      expect(targets(resolveCalls(symbols, files, "src/cli.js::start", ["resolvePath"]))).toEqual([
        "src/paths.js::resolve@0.9",
      ]);
    });
  });

  describe("Go and Rust", () => {
    it('resolves a Go package alias (`import s "…/store"`); the package\'s own name is then unbound', () => {
      const symbols = [sym("store/store.go", "Save", "function"), sym("cmd/main.go", "main", "function")];
      const files = [
        file("store/store.go"),
        file("cmd/main.go", [["example.com/shop/store", [], { local: "s" }]]),
      ];
      expect(targets(resolveCalls(symbols, files, "cmd/main.go::main", ["s.Save"]))).toEqual([
        "store/store.go::Save@0.9",
      ]);
      expect(resolveCalls(symbols, files, "cmd/main.go::main", ["store.Save"])).toEqual([]);
    });

    it("resolves Rust `use … as …` for modules, `self` and types", () => {
      const symbols = [
        sym("src/db.rs", "connect", "function"),
        sym("src/db.rs", "Pool", "struct"),
        sym("src/db.rs", "Pool.new", "method"),
        sym("src/db/pool.rs", "open", "function"),
        sym("src/legacy.rs", "DbPool", "struct"),
        sym("src/legacy.rs", "DbPool.new", "method"),
        sym("src/main.rs", "main", "function"),
      ];
      const files = [
        file("src/db.rs"),
        file("src/db/pool.rs"),
        file("src/legacy.rs"),
        file("src/main.rs", [
          ["crate", ["db"], { aliases: { database: "db" } }],
          ["crate::db", ["Pool"], { local: "d", aliases: { DbPool: "Pool" } }],
        ]),
      ];
      expect(
        targets(
          resolveCalls(symbols, files, "src/main.rs::main", [
            "database::connect",
            "database::pool::open",
            "d::connect",
            "DbPool::new",
          ]),
        ),
      ).toEqual([
        "src/db.rs::connect@0.9",
        "src/db/pool.rs::open@0.9",
        "src/db.rs::connect@0.9",
        "src/db.rs::Pool.new@0.9",
      ]);
    });
  });

  it("resolves the aliases extraction records, from source text to edges", async () => {
    const sources: Record<string, string> = {
      "pkg/core.py": "def merge(a):\n    return a\n",
      "pkg/dataset.py": "class Dataset:\n    pass\n",
      "pkg/other.py": "def _merge(a):\n    return a\n",
      "pkg/api.py": [
        "from .core import merge as _merge",
        "import pkg.dataset as ds_mod",
        "",
        "def run(a):",
        "    ds_mod.Dataset()",
        "    return _merge(a)",
      ].join("\n"),
      "web/config.ts": "export function parse() {}\n",
      "web/text.ts": "export function slugify() {}\n",
      "web/x.ts": "export default function () {}\n",
      "web/app.ts": [
        'import { parse as parseConfig } from "./config";',
        'import * as utils from "./text";',
        'import def from "./x";',
        "export function main() {",
        "  parseConfig();",
        "  utils.slugify();",
        "  def();",
        "}",
      ].join("\n"),
    };
    const symbols: (ResolverSymbol & { calls: ExtractedCall[] })[] = [];
    const files: ResolverFile[] = [];
    for (const [path, source] of Object.entries(sources)) {
      const language = languageOf(path) as CodeLanguage;
      const extraction = await extractSource(language, source);
      files.push({ path, language, imports: extraction.imports });
      for (const s of extraction.symbols) {
        symbols.push({ ...sym(path, s.qualifiedName, s.kind), calls: s.calls });
      }
    }
    const resolver = new Resolver(symbols, files);
    const edgesOf = (id: string) => {
      const s = symbols.find((x) => x.qualifiedId === id)!;
      return targets(resolver.callEdges(s, s.calls));
    };
    expect(edgesOf("pkg/api.py::run")).toEqual(["pkg/dataset.py::Dataset@0.9", "pkg/core.py::merge@0.9"]);
    expect(edgesOf("web/app.ts::main")).toEqual([
      "web/config.ts::parse@0.9",
      "web/text.ts::slugify@0.9",
      "web/x.ts::default@0.9",
    ]);
  });
});

describe("ambiguous and generic names", () => {
  it("links a bare name defined in two other files once, at low confidence, to the closest", () => {
    const symbols = [
      sym("a/x.py", "process", "function"),
      sym("b/y.py", "process", "function"),
      sym("a/main.py", "main", "function"),
    ];
    const files = [file("a/x.py"), file("b/y.py"), file("a/main.py")];
    expect(targets(resolveCalls(symbols, files, "a/main.py::main", ["process"]))).toEqual([
      "a/x.py::process@0.3",
    ]);
  });

  it("drops a bare name with three or more candidates, and a unique one in another language", () => {
    const symbols = [
      sym("a.py", "process", "function"),
      sym("b.py", "process", "function"),
      sym("c.py", "process", "function"),
      sym("web/ui.ts", "render", "function"),
      sym("main.py", "main", "function"),
    ];
    const files = ["a.py", "b.py", "c.py", "web/ui.ts", "main.py"].map((p) => file(p));
    expect(resolveCalls(symbols, files, "main.py::main", ["process", "render"])).toEqual([]);
  });

  it("splits a method call on an unknown receiver across two candidates and drops more", () => {
    const two = [
      sym("a.py", "A", "class"),
      sym("a.py", "A.settle", "method"),
      sym("b.py", "B", "class"),
      sym("b.py", "B.settle", "method"),
      sym("main.py", "main", "function"),
    ];
    const files = ["a.py", "b.py", "c.py", "d.py", "main.py"].map((p) => file(p));
    const edges = resolveCalls(two, files, "main.py::main", ["conn.settle"]);
    expect(targets(edges).sort()).toEqual(["a.py::A.settle@0.25", "b.py::B.settle@0.25"]);
    expect(edges.every((e) => e.confidence >= MIN_EDGE_CONFIDENCE)).toBe(true);

    // A name four classes define is too common to guess which one a receiver is.
    const four = [
      ...two,
      sym("c.py", "C", "class"),
      sym("c.py", "C.settle", "method"),
      sym("d.py", "D", "class"),
      sym("d.py", "D.settle", "method"),
    ];
    expect(resolveCalls(four, files, "main.py::main", ["conn.settle"])).toEqual([]);
    // A unique method name is linked, but at a confidence that says it was a guess.
    expect(
      targets(resolveCalls(two.slice(0, 2).concat(two[4]!), files, "main.py::main", ["conn.settle"])),
    ).toEqual(["a.py::A.settle@0.5"]);
  });

  it("guesses a method on an unknown receiver only among the caller's language family", () => {
    const symbols = [
      sym("source/request.ts", "Request", "class"),
      sym("source/request.ts", "Request.send", "method"),
      sym("src/main/java/com/acme/log/SocketSink.java", "SocketSink", "class"),
      sym("src/main/java/com/acme/log/SocketSink.java", "SocketSink.write", "method"),
      sym("src/main/java/com/acme/net/Channel.java", "Channel", "class"),
      sym("src/main/java/com/acme/net/Channel.java", "Channel.deliver", "method"),
      sym("web/client.js", "flushAll", "function"),
    ];
    const files = [
      "source/request.ts",
      "src/main/java/com/acme/log/SocketSink.java",
      "src/main/java/com/acme/net/Channel.java",
      "web/client.js",
    ].map((p) => file(p));
    // Java's `socket.send(…)` is no call of the TypeScript class's `send`…
    expect(
      resolveCalls(symbols, files, "src/main/java/com/acme/log/SocketSink.java::SocketSink.write", [
        "socket.send",
      ]),
    ).toEqual([]);
    // …while a Java method of that name is still guessed, and JavaScript reaches TypeScript.
    expect(
      targets(
        resolveCalls(symbols, files, "src/main/java/com/acme/log/SocketSink.java::SocketSink.write", [
          "channel.deliver",
        ]),
      ),
    ).toEqual(["src/main/java/com/acme/net/Channel.java::Channel.deliver@0.5"]);
    expect(targets(resolveCalls(symbols, files, "web/client.js::flushAll", ["req.send"]))).toEqual([
      "source/request.ts::Request.send@0.5",
    ]);
  });

  it("never guesses a standard library method of the caller's language on an unknown receiver", () => {
    const symbols = [
      sym("lib/accept.rb", "AcceptEntry", "class"),
      sym("lib/accept.rb", "AcceptEntry.to_s", "method"),
      sym("lib/accept.rb", "AcceptEntry.include?", "method"),
      sym("lib/accept.rb", "AcceptEntry.settle", "method"),
      sym("lib/base.rb", "Base", "class"),
      sym("lib/base.rb", "Base.route", "method"),
      sym("lib/money.py", "Money", "class"),
      sym("lib/money.py", "Money.__str__", "method"),
      sym("lib/report.py", "report", "function"),
    ];
    const files = ["lib/accept.rb", "lib/base.rb", "lib/money.py", "lib/report.py"].map((p) => file(p));
    const from = "lib/base.rb::Base.route";
    expect(resolveCalls(symbols, files, from, ["name.to_s", "env.include?"])).toEqual([]);
    expect(resolveCalls(symbols, files, "lib/report.py::report", ["value.__str__"])).toEqual([]);
    // A class the repository does not define is a library's: `File.unlink`, `JSON.settle`.
    expect(resolveCalls(symbols, files, from, ["JSON.settle"])).toEqual([]);
    // A name of the repository's own stays guessable.
    expect(targets(resolveCalls(symbols, files, from, ["entry.settle"]))).toEqual([
      "lib/accept.rb::AcceptEntry.settle@0.5",
    ]);
  });

  it("sees a Ruby top-level method of another file only when the caller requires that file", () => {
    const symbols = [
      sym("spec/json_spec.rb", "mock_app", "function"),
      sym("test/test_helper.rb", "build_app", "function"),
      sym("test/routing_test.rb", "RoutingTest", "class"),
      sym("test/routing_test.rb", "RoutingTest.test_get", "method"),
    ].map((s) => ({ ...s, language: "ruby" }));
    const files = [
      { ...file("spec/json_spec.rb"), language: "ruby" },
      { ...file("test/test_helper.rb"), language: "ruby" },
      { ...file("test/routing_test.rb", [["./test_helper", []]]), language: "ruby" },
    ];
    const edges = resolveCalls(symbols, files, "test/routing_test.rb::RoutingTest.test_get", [
      "mock_app",
      "build_app",
    ]);
    expect(targets(edges)).toEqual(["test/test_helper.rb::build_app@0.9"]);
  });

  it("never links generic method names on unknown receivers, even when the repository defines them", () => {
    const symbols = [
      sym("cache.py", "Cache", "class"),
      sym("cache.py", "Cache.get", "method"),
      sym("cache.py", "Cache.append", "method"),
      sym("util.py", "get", "function"),
      sym("main.py", "main", "function"),
    ];
    const files = ["cache.py", "util.py", "main.py"].map((p) => file(p));
    expect(
      resolveCalls(symbols, files, "main.py::main", ["items.append", "d.get", "get", "len", "print"]),
    ).toEqual([]);
  });
});

describe("end to end on an indexed fixture", () => {
  let t: TempEnv;
  beforeAll(async () => {
    t = await setupTempEnv();
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it("serves callers and callees with the resolver's confidence", async () => {
    const root = t.makeRepo({
      "shop/__init__.py": "",
      "shop/base.py": [
        "class Repository:",
        "    def save(self, item):",
        "        self.validate(item)",
        "        return item",
        "",
        "    def validate(self, item):",
        "        if item is None:",
        '            raise ValueError("item is required")',
        "",
      ].join("\n"),
      "shop/orders.py": [
        "from shop.base import Repository",
        "from shop import pricing",
        "",
        "",
        "class OrderRepository(Repository):",
        "    def place(self, order):",
        "        total = pricing.total(order)",
        "        self.save(order)",
        "        return total",
        "",
      ].join("\n"),
      "shop/pricing.py": "def total(order):\n    return sum(order)\n",
      "web/api.ts":
        'import { place } from "./orders";\n\nexport function handler(): number {\n  return place();\n}\n',
      "web/orders.ts": "export function place(): number {\n  return 1;\n}\n",
    });
    const { stats } = await indexRepository(root);
    const gen = stats.generationId;

    const [save] = await symbolsByName(gen, "save");
    expect(save?.qualifiedId).toBe("shop/base.py::Repository.save");
    const callers = await callersOf(gen, "shop/base.py::Repository.save");
    expect(callers.map((e) => [e.srcId, e.confidence, e.line])).toEqual([
      ["shop/orders.py::OrderRepository.place", 0.85, 8],
    ]);
    const callees = await calleesOf(gen, "shop/orders.py::OrderRepository.place");
    expect(callees.map((e) => [e.dstId, e.confidence])).toEqual([
      ["shop/pricing.py::total", 0.9],
      ["shop/base.py::Repository.save", 0.85],
    ]);
    expect(
      (await callersOf(gen, "shop/base.py::Repository.validate")).map((e) => [e.srcId, e.confidence]),
    ).toEqual([["shop/base.py::Repository.save", 0.95]]);
    expect((await callersOf(gen, "web/orders.ts::place")).map((e) => [e.srcId, e.confidence])).toEqual([
      ["web/api.ts::handler", 0.9],
    ]);
    // Python and TypeScript both define `place`-like names; nothing crosses languages.
    expect((await callersOf(gen, "shop/orders.py::OrderRepository.place")).length).toBe(0);
    const [validate] = await symbolsByName(gen, "validate");
    expect(validate?.fanIn).toBe(1);
    expect(JSON.parse(validate!.raises)).toEqual(["ValueError"]);
  });
});
