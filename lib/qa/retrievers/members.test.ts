/**
 * The packages of a multi-package repository (Cargo workspace, npm monorepo, nested Go
 * modules, Maven modules), the one a report names, and retrieval ranking that package's
 * files ahead of a same-named file in another package.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexSources, type IndexedFixture } from "../../../test-support/qa-env.ts";
import { retrieveReport } from "../retrieve.ts";
import { manifestName, membersOf, namedMember, withMemberFirst } from "./members.ts";

const CARGO = (name: string) =>
  `[package]\nname = "${name}"\nversion = "0.1.0"\n\n[dependencies]\nserde = "1"\n`;

describe("manifestName", () => {
  it("reads the package name of Cargo, npm, Go and Python manifests", () => {
    expect(manifestName("Cargo.toml", CARGO("tracing_flame"))).toBe("tracing_flame");
    expect(
      manifestName("Cargo.toml", `[workspace]\nmembers = ["a"]\n[dependencies]\nname = "x"\n`),
    ).toBeNull();
    expect(manifestName("package.json", `{"name": "@acme/forms", "version": "1.0.0"}`)).toBe("@acme/forms");
    expect(manifestName("package.json", "{ not json")).toBeNull();
    expect(manifestName("go.mod", "module github.com/acme/kit/tools/gen\n\ngo 1.21\n")).toBe(
      "github.com/acme/kit/tools/gen",
    );
    expect(manifestName("pyproject.toml", `[project]\nname = "acme-cli"\n`)).toBe("acme-cli");
  });
});

describe("membersOf and namedMember", () => {
  const paths = [
    "Cargo.toml",
    "tracing/Cargo.toml",
    "tracing/src/lib.rs",
    "tracing-core/Cargo.toml",
    "tracing-core/src/lib.rs",
    "tracing-flame/Cargo.toml",
    "tracing-flame/src/lib.rs",
    "tracing-subscriber/Cargo.toml",
    "tracing-subscriber/src/lib.rs",
    "examples/Cargo.toml",
  ];
  const manifests = new Map([
    ["tracing/Cargo.toml", CARGO("tracing")],
    ["tracing-core/Cargo.toml", CARGO("tracing-core")],
    ["tracing-flame/Cargo.toml", CARGO("tracing-flame")],
    ["tracing-subscriber/Cargo.toml", CARGO("tracing-subscriber")],
  ]);
  const members = membersOf(paths, manifests);

  it("finds the workspace's crates, leaving examples and the root out", () => {
    expect(members.map((m) => m.dir).sort()).toEqual([
      "tracing",
      "tracing-core",
      "tracing-flame",
      "tracing-subscriber",
    ]);
  });

  it("names the crate a report is about, written with - or _", () => {
    expect(namedMember("tracing-flame 0.2 writes folded stacks out of order", members)?.dir).toBe(
      "tracing-flame",
    );
    expect(namedMember("`tracing_subscriber::fmt` drops the span's fields", members)?.dir).toBe(
      "tracing-subscriber",
    );
  });

  it("does not count the umbrella crate every report names, nor a report naming two crates", () => {
    expect(namedMember("tracing drops events when the level is off", members)).toBeNull();
    expect(namedMember("tracing-core and tracing-subscriber disagree on the max level", members)).toBeNull();
    expect(
      namedMember(
        "tracing-flame 0.2 panics on exit\nVersions: tracing-core 0.1.2, tracing-subscriber 0.3",
        members,
      )?.dir,
    ).toBe("tracing-flame");
  });

  it("counts a plain folder name only as code, with a version or beside the word package", () => {
    const npm = membersOf(
      [
        "packages/core/package.json",
        "packages/core/src/index.ts",
        "packages/cli/package.json",
        "packages/cli/src/main.ts",
      ],
      new Map([
        ["packages/core/package.json", `{"name": "@acme/core"}`],
        ["packages/cli/package.json", `{"name": "@acme/cli"}`],
      ]),
    );
    expect(namedMember("The core of the problem is the parser", npm)).toBeNull();
    expect(namedMember("After upgrading cli 2.1 the flag is ignored", npm)?.dir).toBe("packages/cli");
    expect(namedMember("The `core` package throws on empty input", npm)?.dir).toBe("packages/core");
    expect(namedMember("@acme/cli crashes on start", npm)?.dir).toBe("packages/cli");
  });

  it("finds nested Go modules and Maven modules by their layout", () => {
    const go = membersOf(
      ["go.mod", "core/conf/config.go", "tools/gen/go.mod", "tools/gen/main.go", "tools/lint/go.mod"],
      new Map([
        ["tools/gen/go.mod", "module github.com/acme/kit/tools/gen\n"],
        ["tools/lint/go.mod", "module github.com/acme/kit/tools/lint\n"],
      ]),
    );
    expect(go.map((m) => m.dir)).toEqual(["tools/gen", "tools/lint"]);
    const oneBelow = membersOf(["go.mod", "rest/server.go", "tools/gen/go.mod"], new Map());
    expect(namedMember("`gen` writes the wrong import path", oneBelow)?.dir).toBe("tools/gen");
    expect(membersOf(["go.mod", "rest/server.go", "internal/x.go"], new Map())).toEqual([]);
    const maven = membersOf(
      ["pom.xml", "acme-json/src/main/java/acme/Parser.java", "acme-xml/src/main/java/acme/Reader.java"],
      new Map(),
    );
    expect(namedMember("acme-xml fails to read CDATA", maven)?.dir).toBe("acme-xml");
  });

  it("ranks the named member's files up without dropping any", () => {
    const member = { dir: "tracing-flame", names: ["tracing-flame"] };
    const ranked = [
      "tracing-core/src/a.rs",
      "tracing/src/b.rs",
      "tracing/src/c.rs",
      "tracing-flame/src/lib.rs",
    ];
    const out = withMemberFirst(ranked, member);
    expect(out[0]).toBe("tracing-flame/src/lib.rs");
    expect(new Set(out)).toEqual(new Set(ranked));
    expect(withMemberFirst(ranked, null)).toEqual(ranked);
  });
});

const LIB = (what: string) => `/// Writes ${what} records for each span.
pub struct Writer {
    out: Vec<String>,
}

impl Writer {
    pub fn record_span(&mut self, name: &str, fields: &str) {
        self.out.push(format!("{} {}", name, fields));
    }
}
`;

describe("retrieval for a report naming one crate of a workspace", () => {
  let fx: IndexedFixture & { close: () => Promise<void> };
  beforeAll(async () => {
    fx = await indexSources("members", {
      "Cargo.toml": `[workspace]\nmembers = ["trace-core", "trace-json", "trace-flame"]\n`,
      "trace-core/Cargo.toml": CARGO("trace-core"),
      "trace-core/src/lib.rs": LIB("span field"),
      "trace-json/Cargo.toml": CARGO("trace-json"),
      "trace-json/src/lib.rs": LIB("JSON span field"),
      "trace-flame/Cargo.toml": CARGO("trace-flame"),
      "trace-flame/src/lib.rs": LIB("folded stack"),
    });
  });
  afterAll(async () => {
    await fx.close();
  });

  it("ranks the named crate's file first", async () => {
    for (const crate of ["trace-core", "trace-flame"]) {
      const report = `${crate} 0.2: record_span writes the span field twice`;
      const { files } = await retrieveReport(fx.repositoryId, report, { mode: "diagnostic" });
      expect(files[0]).toBe(`${crate}/src/lib.rs`);
    }
  });
});
