/**
 * The issues store on fixture repositories, indexed for real (SQLite, tree-sitter):
 * lib/wiki/__fixtures__/planted holds one of each problem at a known place and every
 * one must be reported there; lib/wiki/__fixtures__/clean holds the look-alikes that
 * are not problems (type-only and function-local imports, self-recursion, handled
 * errors, state written once) and must report nothing.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findingCounts, listFindings, type FindingRecord } from "../db/wiki-store.ts";
import { indexRepository } from "../builds/build.ts";
import { code } from "../answerers/markdown.ts";
import { cycleMembers } from "./findings.ts";
import { cyclePath, findCycles } from "./graph.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";

const PLANTED = fileURLToPath(new URL("./__fixtures__/planted", import.meta.url));
const CLEAN = fileURLToPath(new URL("./__fixtures__/clean", import.meta.url));

let t: TempEnv;
let planted: FindingRecord[];
let clean: FindingRecord[];
let plantedGeneration: string;

beforeAll(async () => {
  t = await setupTempEnv();
  const a = await indexRepository(PLANTED, { name: "planted", wikiModel: null });
  const b = await indexRepository(CLEAN, { name: "clean", wikiModel: null });
  plantedGeneration = a.stats.generationId;
  planted = await listFindings(a.stats.generationId);
  clean = await listFindings(b.stats.generationId);
});
afterAll(async () => {
  await t?.cleanup();
});

function only(category: string): FindingRecord[] {
  return planted.filter((f) => f.category === category);
}

function located(f: FindingRecord) {
  return {
    path: f.path,
    startLine: f.startLine,
    endLine: f.endLine,
    symbolId: f.symbolId,
    severity: f.severity,
  };
}

describe("planted problems", () => {
  it("finds the god function where it is defined", () => {
    expect(only("god-function").map(located)).toEqual([
      {
        path: "app/god.py",
        startLine: 5,
        endLine: 21,
        symbolId: "app/god.py::orchestrate",
        severity: "medium",
      },
    ]);
    expect(only("god-function")[0]?.title).toBe("orchestrate calls 14 different functions");
  });

  it("finds the hotspot called from eleven handlers", () => {
    expect(only("hotspot").map(located)).toEqual([
      {
        path: "app/hub.py",
        startLine: 6,
        endLine: 9,
        symbolId: "app/hub.py::record_event",
        severity: "medium",
      },
    ]);
  });

  it("finds the call cycle and the import cycle between a.py and b.py", () => {
    const [calls] = only("call-cycle");
    expect(only("call-cycle")).toHaveLength(1);
    // Two files in one folder: medium (across folders would be high).
    expect(located(calls!)).toEqual({
      path: "app/a.py",
      startLine: 5,
      endLine: 9,
      symbolId: "app/a.py::ping",
      severity: "medium",
    });
    expect(calls!.detail).toContain("`ping` (app/a.py:5-9) → `pong` (app/b.py:5-9) → `ping`");
    const [imports] = only("import-cycle");
    expect(only("import-cycle")).toHaveLength(1);
    expect(located(imports!)).toEqual({
      path: "app/a.py",
      startLine: 2,
      endLine: 2,
      symbolId: null,
      severity: "medium",
    });
    expect(imports!.detail).toContain("`app/a.py` → `app/b.py` → `app/a.py`");
  });

  it("finds the very long function", () => {
    expect(only("long-function").map(located)).toEqual([
      {
        path: "app/report.py",
        startLine: 4,
        endLine: 117,
        symbolId: "app/report.py::build_report",
        severity: "low",
      },
    ]);
  });

  it("finds swallowed exceptions in Python, Java, Go and TypeScript at the handler", () => {
    const swallowed = only("swallowed-exception").map((f) => ({ ...located(f), title: f.title }));
    expect(swallowed).toEqual([
      {
        path: "app/silent.py",
        startLine: 11,
        endLine: 12,
        symbolId: "app/silent.py::load_settings",
        severity: "high",
        title: "except: pass in load_settings",
      },
      {
        path: "store/Store.java",
        startLine: 10,
        endLine: 11,
        symbolId: "store/Store.java::Store.save",
        severity: "medium",
        title: "empty catch (IOException) in Store.save",
      },
      {
        path: "svc/main.go",
        startLine: 14,
        endLine: 15,
        symbolId: "svc/main.go::closeConfig",
        severity: "medium",
        title: "empty if err != nil {} in closeConfig",
      },
      {
        path: "web/client.ts",
        startLine: 6,
        endLine: 6,
        symbolId: "web/client.ts::readSettings",
        severity: "medium",
        title: "empty catch in readSettings",
      },
      {
        path: "svc/main.go",
        startLine: 8,
        endLine: 8,
        symbolId: "svc/main.go::openConfig",
        severity: "low",
        title: "error discarded with _ = err in openConfig",
      },
    ]);
  });

  it("finds the module state written from four functions, at its definition", () => {
    const [state] = only("module-state");
    expect(only("module-state")).toHaveLength(1);
    expect(located(state!)).toEqual({
      path: "app/registry.py",
      startLine: 3,
      endLine: 3,
      symbolId: null,
      severity: "medium",
    });
    expect(state!.title).toBe("Module state _registry in app/registry.py is written from 4 functions");
    for (const writer of ["register_alpha", "register_beta", "register_gamma", "reset_registry"])
      expect(state!.detail).toContain(writer);
    expect(state!.detail).not.toContain("lookup");
  });

  it("finds the file dense with TODO and FIXME markers", () => {
    const [todo] = only("todo-density");
    expect(only("todo-density")).toHaveLength(1);
    expect(located(todo!)).toEqual({
      path: "app/notes.py",
      startLine: 5,
      endLine: 11,
      symbolId: null,
      severity: "low",
    });
    expect(todo!.title).toMatch(/^4 TODO\/FIXME markers in app\/notes\.py/);
  });

  it("reports nothing else, lists high severity first and filters by category, severity and scope", async () => {
    expect(planted).toHaveLength(12);
    expect(planted[0]?.severity).toBe("high");
    expect((await listFindings(plantedGeneration, { category: "hotspot" })).map((f) => f.path)).toEqual([
      "app/hub.py",
    ]);
    expect((await listFindings(plantedGeneration, { severity: "high" })).map((f) => f.category)).toEqual([
      "swallowed-exception",
    ]);
    expect(new Set((await listFindings(plantedGeneration, { scope: "svc" })).map((f) => f.path))).toEqual(
      new Set(["svc/main.go"]),
    );
    const counts = await findingCounts(plantedGeneration);
    expect(counts.find((c) => c.category === "swallowed-exception" && c.severity === "medium")?.count).toBe(
      3,
    );
  });
});

describe("a clean repository", () => {
  it("reports no findings: type-only and lazy imports, recursion and handled errors are not problems", () => {
    expect(clean).toEqual([]);
  });
});

describe("an incremental build", () => {
  it("carries call-graph findings over when the call graph is unchanged, at their new lines", async () => {
    const root = path.join(t.base, "planted-copy");
    fs.cpSync(PLANTED, root, { recursive: true });
    await indexRepository(root, { name: "planted-copy", wikiModel: null });
    const a = path.join(root, "app/a.py");
    fs.writeFileSync(
      a,
      fs.readFileSync(a, "utf8").replace("\n\n\ndef ping", "\n\n\n# Moved down a line.\ndef ping"),
    );
    const { stats } = await indexRepository(root, { wikiModel: null });
    const findings = await listFindings(stats.generationId);
    const [cycle] = findings.filter((f) => f.category === "call-cycle");
    expect(located(cycle!)).toEqual({
      path: "app/a.py",
      startLine: 6,
      endLine: 10,
      symbolId: "app/a.py::ping",
      severity: "medium",
    });
    expect(cycle!.detail).toContain(
      "`ping` (app/a.py:6-10) → `pong` (app/b.py:5-9) → `ping` (app/a.py:6-10)",
    );
    expect(findings.map((f) => f.category).sort()).toEqual(planted.map((f) => f.category).sort());
  });
});

describe("cycle details", () => {
  it("list every file the title counts when the loop shown passes through only some", () => {
    // a ⇄ b ⇄ c: one cycle of three files whose shortest loop from a is a → b → a.
    const edges = [
      { from: "a.py", to: "b.py" },
      { from: "b.py", to: "a.py" },
      { from: "b.py", to: "c.py" },
      { from: "c.py", to: "b.py" },
    ];
    const [component] = findCycles([], edges);
    expect(component).toHaveLength(3);
    const loop = cyclePath(component!, edges);
    expect(loop).toHaveLength(2);
    expect(cycleMembers(component!, loop, code, "files")).toBe(
      "All 3 files of the cycle: `a.py`, `b.py` and `c.py`. One loop through them: ",
    );
    // A loop through every member says nothing more.
    expect(cycleMembers(["a.py", "b.py"], ["a.py", "b.py"], code, "files")).toBe("");
  });
});
