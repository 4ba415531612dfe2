import { describe, expect, it } from "vitest";
import type { FileRelation } from "../../db/file-relations.ts";
import {
  historyPartners,
  moduleFiles,
  modulePartners,
  pairAtEdge,
  pathPartners,
  relationPartners,
  withPartners,
  type Partner,
} from "./partners.ts";
import { filesForModule, modulePath, pathIndexOf, testedFiles } from "./file-index.ts";
import { isTestPath } from "./shared.ts";

// File layouts as real projects have them: a C library, a header-only C++ library with
// an amalgamated copy, a JavaScript package with type declarations, a Rust crate, a
// parser generated from its grammar.
const FILES = [
  "src/jv.c",
  "src/jv.h",
  "src/jv_print.c",
  "src/parser.y",
  "src/parser.c",
  "src/parser.h",
  "include/fmt/format.h",
  "include/fmt/format-inl.h",
  "src/format.cc",
  "include/nlohmann/json.hpp",
  "single_include/nlohmann/json.hpp",
  "src/index.js",
  "src/plugin/utc/index.js",
  "types/index.d.ts",
  "types/plugin/utc.d.ts",
  "types/plugin/timezone.d.ts",
  "tracing-core/src/span.rs",
  "tracing-core/src/lib.rs",
  "tracing-subscriber/src/registry/sharded.rs",
  "tracing-subscriber/src/registry/mod.rs",
];
const index = pathIndexOf(FILES);
const partnersOf = (path: string) =>
  Object.fromEntries(pathPartners(path, index).map((p) => [p.path, p.weight]));

describe("pathPartners", () => {
  it("pairs a C source with its header, in both directions", () => {
    expect(Object.keys(partnersOf("src/jv.c"))).toEqual(["src/jv.h"]);
    expect(Object.keys(partnersOf("src/jv.h"))).toEqual(["src/jv.c"]);
  });

  it("pairs a header with its inline implementation, surer than a header with a source", () => {
    const partners = partnersOf("include/fmt/format.h");
    expect(partners["include/fmt/format-inl.h"]).toBe(0.9);
    expect(partners["src/format.cc"]).toBeLessThan(0.9);
    expect(Object.keys(partnersOf("include/fmt/format-inl.h"))).toContain("include/fmt/format.h");
  });

  it("pairs a JavaScript module with its type declarations wherever the package keeps them", () => {
    expect(modulePath("src/plugin/utc/index.js")).toBe("plugin/utc");
    expect(modulePath("types/plugin/utc.d.ts")).toBe("plugin/utc");
    expect(Object.keys(partnersOf("src/plugin/utc/index.js"))).toEqual(["types/plugin/utc.d.ts"]);
    expect(Object.keys(partnersOf("types/plugin/utc.d.ts"))).toEqual(["src/plugin/utc/index.js"]);
    expect(Object.keys(partnersOf("src/index.js"))).toEqual(["types/index.d.ts"]);
  });

  it("pairs a file with its copy in a mirrored folder (an amalgamated single include)", () => {
    expect(Object.keys(partnersOf("include/nlohmann/json.hpp"))).toEqual([
      "single_include/nlohmann/json.hpp",
    ]);
  });

  it("pairs a source with its built copy, but not two packages that share a file name", () => {
    const layout = pathIndexOf(["src/index.js", "build/index.js", "rest/server.go", "zrpc/server.go"]);
    const of = (path: string) => pathPartners(path, layout).map((p) => p.path);
    expect(of("src/index.js")).toEqual(["build/index.js"]);
    expect(of("rest/server.go")).toEqual([]);
  });

  it("takes no two crates of a workspace laid out alike for copies", () => {
    const layout = pathIndexOf([
      "tracing-core/src/lib.rs",
      "tracing-error/src/lib.rs",
      "tracing-error/src/layer.rs",
      "tracing-opentelemetry/src/layer.rs",
    ]);
    const of = (path: string) => pathPartners(path, layout).map((p) => p.path);
    expect(of("tracing-error/src/lib.rs")).toEqual([]);
    expect(of("tracing-error/src/layer.rs")).toEqual(["tracing-error/src/lib.rs"]);
  });

  it("pairs a Rust module with the module that declares it", () => {
    expect(Object.keys(partnersOf("tracing-subscriber/src/registry/sharded.rs"))).toEqual([
      "tracing-subscriber/src/registry/mod.rs",
    ]);
    expect(Object.keys(partnersOf("tracing-core/src/span.rs"))).toEqual(["tracing-core/src/lib.rs"]);
  });

  it("pairs a generated parser with its grammar, and the grammar with its outputs", () => {
    expect(partnersOf("src/parser.c")["src/parser.y"]).toBe(0.8);
    expect(Object.keys(partnersOf("src/parser.y"))).toEqual(
      expect.arrayContaining(["src/parser.c", "src/parser.h"]),
    );
  });

  it("finds nothing for a file without relatives", () => {
    expect(pathPartners("src/jv_print.c", index)).toEqual([]);
  });
});

describe("relationPartners", () => {
  const degrees = new Map([
    ["rest/server.go", { callsOut: 10, importers: 0 }],
    ["rest/engine.go", { callsOut: 4, importers: 0 }],
    ["src/index.js", { callsOut: 2, importers: 0 }],
    ["src/private.h", { callsOut: 0, importers: 1 }],
    ["src/shared.h", { callsOut: 0, importers: 9 }],
  ]);
  const calls = (path: string, other: string, direction: "in" | "out", count: number): FileRelation => ({
    path,
    other,
    kind: "calls",
    direction,
    count,
  });

  it("pairs a wrapper with the file it delegates most of its calls to", () => {
    const relations = [calls("rest/engine.go", "rest/server.go", "in", 8)];
    const partners = relationPartners("rest/engine.go", relations, degrees, pathIndexOf([]));
    expect(partners.map((p) => [p.path, p.why])).toEqual([["rest/server.go", "wraps it"]]);
  });

  it("pairs no plugin with the core every plugin calls", () => {
    const plugins = ["a", "b", "c", "d"].map((n) => `src/plugin/${n}/index.js`);
    const hubDegrees = new Map([
      ...degrees,
      ...plugins.map((p) => [p, { callsOut: 6, importers: 0 }] as const),
    ]);
    const relations = plugins.map((p) => calls("src/index.js", p, "in", 6));
    expect(relationPartners("src/index.js", relations, hubDegrees, pathIndexOf([]))).toEqual([]);
  });

  it("pairs a source with a header only it includes, not with a header everyone includes", () => {
    const includes = (other: string): FileRelation => ({
      path: "src/jv.c",
      other,
      kind: "imports",
      direction: "out",
      count: 1,
    });
    const partners = relationPartners(
      "src/jv.c",
      [includes("src/private.h"), includes("src/shared.h")],
      degrees,
      pathIndexOf([]),
    );
    expect(partners.map((p) => p.path)).toEqual(["src/private.h"]);
  });

  it("pairs a class with the interface it implements", () => {
    const relation: FileRelation = {
      path: "src/util/JsonParserDelegate.java",
      other: "src/JsonParser.java",
      kind: "inherits",
      direction: "out",
      count: 1,
    };
    const partners = relationPartners(relation.path, [relation], degrees, pathIndexOf([]));
    expect(partners).toEqual([
      { path: "src/JsonParser.java", weight: 0.45, why: "extends or implements it" },
    ]);
  });
});

describe("historyPartners", () => {
  it("keeps files changed in a good share of a file's commits, surer the larger the share", () => {
    const partners = historyPartners([
      { path: "rest/engine.go", partner: "rest/server.go", count: 8, changes: 10 },
      { path: "rest/engine.go", partner: "rest/types.go", count: 4, changes: 10 },
      { path: "rest/engine.go", partner: "go.mod", count: 2, changes: 10 },
    ]);
    expect(partners.map((p) => p.path)).toEqual(["rest/server.go", "rest/types.go"]);
    expect(partners[0]?.weight).toBeGreaterThan(partners[1]?.weight ?? 1);
  });

  it("trusts a share of a short history less: two of two commits is not eight of ten", () => {
    const [few, many] = [
      historyPartners([{ path: "src/jv.c", partner: "src/jv_print.c", count: 2, changes: 2 }]),
      historyPartners([{ path: "rest/engine.go", partner: "rest/server.go", count: 8, changes: 10 }]),
    ];
    expect(few[0]?.weight).toBeLessThan(many[0]?.weight ?? 0);
    expect(few[0]?.weight).toBeLessThan(0.6);
  });
});

describe("modulePartners", () => {
  const weights = (partners: Partner[]) => Object.fromEntries(partners.map((p) => [p.path, p.weight]));

  it("takes a Go package's files that declare the types and functions a file uses, surest first", () => {
    const engine = [
      "func (ng *engine) bindRoutes(router httpx.Router) error {",
      "\tfor _, fr := range ng.routes {",
      "\t\tvar r featuredRoutes = fr; var s signatureSetting; var j jwtSetting",
      "\t\tng.bindRoute(fr, router, Route{}, newEngine, MustNewServer)",
    ];
    const partners = weights(
      modulePartners("rest/engine.go", {
        lines: engine,
        declared: new Map([
          ["rest/engine.go", ["engine", "newEngine"]],
          ["rest/types.go", ["featuredRoutes", "signatureSetting", "jwtSetting", "Route", "Middleware"]],
          ["rest/server.go", ["Server", "MustNewServer", "newEngine"]],
          ["rest/config.go", ["RestConf", "router"]],
        ]),
        imports: new Map(),
        headers: new Map(),
      }),
    );
    // types.go declares four names engine.go uses; server.go and config.go one each (one
    // shared name is no dependency), and what engine.go declares itself counts for no other.
    expect(Object.keys(partners)).toEqual(["rest/types.go"]);
    expect(partners["rest/types.go"]).toBeCloseTo(0.8);
  });

  it("takes a JavaScript module's imported constants file, shared with its other imports", () => {
    const partners = weights(
      modulePartners("src/index.js", {
        lines: ["import * as C from './constant'", "import U from './utils'", "const x = C.MS"],
        declared: new Map([
          ["src/index.js", ["Dayjs", "dayjs"]],
          ["src/constant.js", []],
          ["src/utils.js", []],
        ]),
        imports: new Map([
          ["src/constant.js", 1],
          ["src/utils.js", 1],
        ]),
        headers: new Map(),
      }),
    );
    expect(Object.keys(partners)).toEqual(["src/constant.js", "src/utils.js"]);
    expect(partners["src/constant.js"]).toBeCloseTo(0.6);
    expect(partners["src/utils.js"]).toBeCloseTo(0.6);
  });

  it("takes a private header named for a C source that declares its functions, not one of others' or another name", () => {
    const partners = weights(
      modulePartners("src/jv.c", {
        lines: ["int jvp_number_cmp(jv a, jv b) {", "int jvp_number_is_nan(jv n) {"],
        declared: new Map([["src/jv.c", ["jvp_number_cmp", "jvp_number_is_nan", "jv_copy"]]]),
        imports: new Map(),
        headers: new Map([
          ["src/jv_type_private.h", ["int jvp_number_cmp(jv, jv);", "int jvp_number_is_nan(jv);"]],
          ["src/jv_alloc.h", ["void *jv_mem_alloc(size_t);", "void jv_mem_free(void *);", "jv jv_copy(jv);"]],
          ["src/libm.h", ["LIBM_DD(jvp_number_cmp)", "LIBM_DD(jvp_number_is_nan)"]],
        ]),
      }),
    );
    expect(partners).toEqual({ "src/jv_type_private.h": 0.9 });
  });

  it("reads a module as the folder's files of one language family, and a large folder as none", () => {
    const layout = pathIndexOf([
      "src/jv.c",
      "src/jv.h",
      "src/main.c",
      "src/builtin.jq",
      "src/lib/helper.c",
      "types/index.d.ts",
    ]);
    expect(moduleFiles("src/jv.c", layout).sort()).toEqual(["src/jv.h", "src/main.c"]);
    const crowded = pathIndexOf(Array.from({ length: 90 }, (_, i) => `locale/l${i}.js`));
    expect(moduleFiles("locale/l1.js", crowded)).toEqual([]);
  });
});

describe("withPartners", () => {
  const partners = new Map<string, Partner[]>([
    ["src/jv.c", [{ path: "src/jv.h", weight: 0.9, why: "header and implementation" }]],
    ["src/main.c", [{ path: "tests/main_test.c", weight: 0.9, why: "changed together" }]],
  ]);

  it("brings a sure partner of the leading file right below it", () => {
    const ranked = withPartners(
      [
        ["src/jv.c", 1],
        ["src/main.c", 0.8],
        ["src/util.c", 0.5],
      ],
      partners,
      { leading: 2, keep: (p) => !p.startsWith("tests/") },
    );
    expect(ranked.map(([p]) => p)).toEqual(["src/jv.c", "src/main.c", "src/jv.h", "src/util.c"]);
  });

  it("leaves tests, and partners of files outside the lead, where they were", () => {
    const ranked = withPartners(
      [
        ["src/util.c", 1],
        ["src/main.c", 0.8],
        ["src/jv.c", 0.2],
      ],
      partners,
      { leading: 2, keep: (p) => !p.startsWith("tests/") },
    );
    expect(ranked.map(([p]) => p)).toEqual(["src/util.c", "src/main.c", "src/jv.c"]);
  });

  it("keeps the last of the first places for a sure partner a flat ranking would push below them", () => {
    const flat: [string, number][] = [
      ["src/jv.c", 1],
      ["src/main.c", 0.95],
      ["src/util.c", 0.9],
      ["src/execute.c", 0.85],
      ["src/compile.c", 0.8],
      ["src/lexer.c", 0.75],
    ];
    const keep = (p: string) => !p.startsWith("tests/");
    const plain = withPartners(flat, partners, { leading: 2, keep }).map(([p]) => p);
    expect(plain.indexOf("src/jv.h")).toBe(6);
    const reserved = withPartners(flat, partners, { leading: 2, keep, reserve: 5 }).map(([p]) => p);
    expect(reserved.slice(0, 5)).toEqual([
      "src/jv.c",
      "src/main.c",
      "src/util.c",
      "src/execute.c",
      "src/jv.h",
    ]);
    expect(reserved.slice(5)).toEqual(["src/compile.c", "src/lexer.c"]);
    // A weak partner, or one that is a test, takes no place.
    const weak = new Map([["src/jv.c", [{ path: "src/jv.h", weight: 0.5, why: "implements it" }]]]);
    expect(
      withPartners(flat, weak, { leading: 2, keep, reserve: 5 })
        .map(([p]) => p)
        .indexOf("src/jv.h"),
    ).toBe(6);
    const tested = withPartners(flat.slice(1), partners, { leading: 2, keep, reserve: 3 }).map(([p]) => p);
    expect(tested).not.toContain("tests/main_test.c");
  });

  it("never gives the reserved place to a partner less sure than the partner already holding it", () => {
    // The plugin's declarations rank fifth on their own; the core's constants module is a
    // less sure partner of the first file and must not push them out.
    const ranked: [string, number][] = [
      ["src/index.js", 0.41],
      ["src/plugin/tz/index.js", 0.34],
      ["src/plugin/parse/index.js", 0.24],
      ["src/plugin/utc/index.js", 0.19],
      ["types/plugin/tz.d.ts", 0.13],
      ["src/locale/uk.js", 0.09],
    ];
    const declared = (path: string) => ({ path, weight: 0.8, why: "type declarations" });
    const lead = new Map([
      [
        "src/index.js",
        [
          declared("types/index.d.ts"),
          { path: "src/constant.js", weight: 0.6, why: "declares what it uses" },
        ],
      ],
      ["src/plugin/tz/index.js", [declared("types/plugin/tz.d.ts")]],
      ["src/plugin/parse/index.js", [declared("types/plugin/parse.d.ts")]],
    ]);
    const keep = () => true;
    const top = withPartners(ranked, lead, { leading: 3, keep, reserve: 5 }).map(([p]) => p);
    expect(top.slice(0, 5)).toEqual([
      "src/index.js",
      "src/plugin/tz/index.js",
      "types/index.d.ts",
      "src/plugin/parse/index.js",
      "types/plugin/tz.d.ts",
    ]);
    // A surer partner still takes the place from a weaker one.
    lead.set("src/plugin/parse/index.js", [
      { path: "src/plugin/parse/tokens.js", weight: 0.85, why: "delegates to it" },
    ]);
    const surer = withPartners(ranked, lead, { leading: 3, keep, reserve: 5 }).map(([p]) => p);
    expect(surer.slice(4, 6)).toEqual(["src/plugin/parse/tokens.js", "types/plugin/tz.d.ts"]);
  });
});

describe("pairAtEdge", () => {
  // A Go feature request: the handler leads, the server that installs it ranks fifth and
  // the engine it delegates to seventh; the fix spans all three.
  const ranked: [string, number][] = [
    ["rest/handler/recoverhandler.go", 0.5],
    ["rest/httpx/responses.go", 0.48],
    ["rest/handler/loghandler.go", 0.27],
    ["rest/handler/timeouthandler.go", 0.24],
    ["rest/server.go", 0.22],
    ["rest/handler/breakerhandler.go", 0.22],
    ["rest/engine.go", 0.17],
    ["rest/internal/cors/handlers.go", 0.16],
    ["rest/router/patrouter.go", 0.08],
    ["rest/handler/gunziphandler.go", 0.07],
    ["rest/types.go", 0.01],
  ];
  const leading = ranked.slice(0, 3).map(([p]) => p);
  const keep = (p: string) => !p.endsWith("_test.go");
  const partner = (path: string, weight: number): Partner => ({ path, weight, why: "delegates to it" });

  it("brings in the sure partner of a file at the edge, in place of a file pairing with none", () => {
    const partners = new Map([
      ["rest/server.go", [partner("rest/server_test.go", 0.9), partner("rest/engine.go", 0.78)]],
    ]);
    const out = pairAtEdge(ranked, leading, partners, keep, 5).map(([p]) => p);
    expect(out.slice(0, 6)).toEqual([
      "rest/handler/recoverhandler.go",
      "rest/httpx/responses.go",
      "rest/handler/loghandler.go",
      "rest/server.go",
      "rest/engine.go",
      "rest/handler/timeouthandler.go",
    ]);
    expect(out).toHaveLength(ranked.length);
  });

  it("leaves the ranking alone when the partner has no evidence of its own, is weak, or every file there pairs", () => {
    const far = new Map([["rest/server.go", [partner("rest/types.go", 0.9)]]]);
    expect(pairAtEdge(ranked, leading, far, keep, 5)).toEqual(ranked);
    const weak = new Map([["rest/server.go", [partner("rest/engine.go", 0.5)]]]);
    expect(pairAtEdge(ranked, leading, weak, keep, 5)).toEqual(ranked);
    // The fourth file is itself a partner of a leading file: the pair found stays whole.
    const held = new Map([
      ["rest/server.go", [partner("rest/engine.go", 0.78)]],
      ["rest/handler/loghandler.go", [partner("rest/handler/timeouthandler.go", 0.45)]],
    ]);
    expect(pairAtEdge(ranked, leading, held, keep, 5)).toEqual(ranked);
    // The file it would push out has far more evidence than the partner.
    const strong = ranked.map(([p, s]): [string, number] => [
      p,
      p === "rest/handler/timeouthandler.go" ? 0.4 : s,
    ]);
    const sure = new Map([["rest/server.go", [partner("rest/engine.go", 0.78)]]]);
    expect(pairAtEdge(strong, leading, sure, keep, 5)).toEqual(strong);
    // A leading file's partners are the reserved place's business, not the edge's.
    const lead = new Map([["rest/httpx/responses.go", [partner("rest/engine.go", 0.9)]]]);
    expect(pairAtEdge(ranked, leading, lead, keep, 5)).toEqual(ranked);
  });
});

describe("filesForModule", () => {
  it("finds the source of a package's module path or built file, without the package name", () => {
    expect(filesForModule(index, "dayjs/plugin/utc")).toEqual(["src/plugin/utc/index.js"]);
    expect(filesForModule(index, "dayjs/plugin/utc.js")).toEqual(["src/plugin/utc/index.js"]);
    expect(filesForModule(index, "dayjs/esm/plugin/utc/index.js")).toEqual(["src/plugin/utc/index.js"]);
    expect(filesForModule(index, "dayjs/plugin/isoWeek")).toEqual([]);
  });
});

describe("testedFiles", () => {
  const tested = pathIndexOf([
    "core/mapping/unmarshaler.go",
    "core/mapping/unmarshaler_test.go",
    "core/conf/unmarshaler.go",
    "src/_pytest/tmpdir.py",
    "testing/test_tmpdir.py",
    "src/plugin/utc/index.js",
    "src/plugin/utc.test.js",
    "src/main/java/com/acme/json/JsonPointer.java",
    "src/test/java/com/acme/json/JsonPointerTest.java",
    "include/fmt/format.h",
    "src/format.cc",
    "test/format-test.cc",
    "lib/parser.rb",
    "spec/parser_spec.rb",
    "types/plugin/timezone.d.ts",
    "src/plugin/timezone/index.js",
    "test/plugin/timezone.test.js",
    "test/parse.test.js",
    "tracing-attributes/src/lib.rs",
    "tracing-attributes/tests/async_fn.rs",
    "tracing-subscriber/src/lib.rs",
    "tracing-subscriber/src/reload.rs",
    "tracing-subscriber/src/fmt/mod.rs",
    "tracing-subscriber/src/fmt/writer.rs",
    "tracing-subscriber/src/layer/mod.rs",
    "tracing-subscriber/src/layer/tests.rs",
    "tracing-subscriber/src/registry.rs",
    "tracing-subscriber/src/registry/tests.rs",
    "tracing-subscriber/src/tests.rs",
    "tracing-subscriber/tests/reload.rs",
    "tracing-subscriber/tests/fmt/main.rs",
    "tracing-subscriber/tests/same_len_filters.rs",
  ]);
  it.each([
    ["core/mapping/unmarshaler_test.go", ["core/mapping/unmarshaler.go"]],
    ["testing/test_tmpdir.py", ["src/_pytest/tmpdir.py"]],
    ["src/test/java/com/acme/json/JsonPointerTest.java", ["src/main/java/com/acme/json/JsonPointer.java"]],
    ["test/format-test.cc", ["include/fmt/format.h", "src/format.cc"]],
    ["spec/parser_spec.rb", ["lib/parser.rb"]],
    // A JavaScript test names a module, and exercises its source, not its declarations.
    ["src/plugin/utc.test.js", ["src/plugin/utc/index.js"]],
    ["test/plugin/timezone.test.js", ["src/plugin/timezone/index.js"]],
    // A Rust crate's integration tests: the crate's file of that name, or a small crate's root.
    ["tracing-attributes/tests/async_fn.rs", ["tracing-attributes/src/lib.rs"]],
    ["tracing-subscriber/tests/reload.rs", ["tracing-subscriber/src/reload.rs"]],
    ["tracing-subscriber/tests/fmt/main.rs", ["tracing-subscriber/src/fmt/mod.rs"]],
    // A Rust module's unit tests kept beside it: the module, or the crate root.
    ["tracing-subscriber/src/layer/tests.rs", ["tracing-subscriber/src/layer/mod.rs"]],
    ["tracing-subscriber/src/registry/tests.rs", ["tracing-subscriber/src/registry.rs"]],
    ["tracing-subscriber/src/tests.rs", ["tracing-subscriber/src/lib.rs"]],
  ])("%s tests %j", (test, subjects) => {
    expect(testedFiles(tested, test, isTestPath).sort()).toEqual([...subjects].sort());
  });

  it("finds nothing for a test named for no file", () => {
    expect(testedFiles(tested, "test/parse.test.js", isTestPath)).toEqual([]);
    // A large crate's root is no subject of a test named for nothing in it.
    expect(testedFiles(tested, "tracing-subscriber/tests/same_len_filters.rs", isTestPath)).toEqual([]);
  });
});
