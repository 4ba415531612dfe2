import { describe, expect, it } from "vitest";
import { MAX_DIAGRAM_NODES } from "../diagrams/graph.ts";
import { parseMermaid } from "../diagrams/mermaid.ts";
import { directoryImportDiagram, fileCallDiagram, moduleDiagram } from "./diagrams.ts";

describe("directoryImportDiagram", () => {
  const files = Array.from({ length: 27 }, (_, i) => `pkg/core/m${String(i).padStart(2, "0")}.py`);
  // Every file imports the next three and a shared helper module: far too many links to read.
  const imports = files.flatMap((f, i) => [
    ...[1, 2, 3].map((d) => ({ srcPath: f, dstPath: files[(i + d) % files.length]! })),
    { srcPath: f, dstPath: "pkg/util/helpers.py" },
  ]);

  it("draws at most a dozen nodes in a big folder, the rest grouped inside it", () => {
    const diagram = directoryImportDiagram("pkg/core", files, imports)!;
    const parsed = parseMermaid(diagram.mermaid);
    expect(parsed.nodes.length).toBeLessThanOrEqual(MAX_DIAGRAM_NODES);
    const more = parsed.nodes.find((n) => n.shape === "more");
    expect(more?.label).toMatch(/^\+ \d+ more files in pkg\/core\/$/);
    expect(more?.group).toBe("here");
    // Shown files plus grouped files account for the whole folder.
    const shownFiles = parsed.nodes.filter((n) => n.group === "here" && n.shape === "box").length;
    expect(shownFiles + Number(/\d+/.exec(more!.label)![0])).toBe(27);
    // The helper module stays: it is what every file imports.
    expect(parsed.nodes.some((n) => n.label === "pkg/util" && n.shape === "module")).toBe(true);
  });

  it("weights an arrow by the imports it stands for", () => {
    const weighted = [
      ...imports,
      ...[1, 2].map(() => ({ srcPath: files[0]!, dstPath: "pkg/util/helpers.py" })),
    ];
    const diagram = directoryImportDiagram("pkg/core", files, weighted)!;
    const first = diagram.nodes.find((n) => n.path === files[0]);
    const util = diagram.nodes.find((n) => n.label === "pkg/util");
    expect(diagram.mermaid).toContain(`  ${first!.id} -->|3| ${util!.id}`);
  });

  it("titles a small folder plainly", () => {
    const diagram = directoryImportDiagram("pkg/core", files.slice(0, 3), imports.slice(0, 8));
    expect(diagram!.title).toBe("Imports of pkg/core");
  });
});

describe("moduleDiagram", () => {
  it("groups the least connected folders under their top-level folder", () => {
    const modules = [
      ...Array.from({ length: 6 }, (_, i) => ({ name: `lib/part${i}`, fanIn: 20 - i, fanOut: 5 })),
      ...Array.from({ length: 9 }, (_, i) => ({ name: `test/case${i}`, fanIn: 0, fanOut: 2 })),
    ];
    const edges = modules.slice(6).map((m) => ({ from: m.name, to: "lib/part0", count: 2 }));
    const files = modules.map((m) => `${m.name}/a.py`);
    const diagram = moduleDiagram(modules, edges, files, [["lib/part1", "lib/part2"]])!;
    const parsed = parseMermaid(diagram.mermaid);
    expect(parsed.nodes.length).toBeLessThanOrEqual(MAX_DIAGRAM_NODES);
    // Eleven folders fit beside one group node: the four least connected test folders.
    expect(parsed.nodes.map((n) => n.label)).toContain("+ 4 more folders in test/");
    const tests = parsed.nodes.find((n) => n.label === "+ 4 more folders in test/")!;
    expect(parsed.edges).toContainEqual({ from: tests.id, to: "m0", label: "8" });
    expect(parsed.nodes.filter((n) => n.classes.includes("cycle")).map((n) => n.label)).toEqual([
      "lib/part1",
      "lib/part2",
    ]);
  });
});

describe("fileCallDiagram", () => {
  it("keeps the busiest symbols and files and groups the rest", () => {
    const symbols = Array.from({ length: 15 }, (_, i) => ({
      qualifiedId: `app.py::f${i}`,
      qualifiedName: `f${i}`,
      startLine: i * 10 + 1,
      endLine: i * 10 + 9,
    }));
    const callsOut = symbols.flatMap((s, i) =>
      Array.from({ length: 15 - i }, (_, k) => ({
        srcId: s.qualifiedId,
        srcPath: "app.py",
        dstId: `lib/m${k}.py::g`,
        dstPath: `lib/m${k}.py`,
      })),
    );
    const diagram = fileCallDiagram("app.py", symbols, callsOut, [])!;
    const parsed = parseMermaid(diagram.mermaid);
    expect(parsed.nodes.length).toBeLessThanOrEqual(MAX_DIAGRAM_NODES);
    expect(parsed.nodes.some((n) => n.group === "here" && n.shape === "more")).toBe(true);
    expect(parsed.nodes.some((n) => /^\+ \d+ more files in lib\/$/.test(n.label))).toBe(true);
    expect(parsed.nodes.some((n) => /^\+ \d+ more symbols$/.test(n.label))).toBe(true);
    // The busiest symbol and the file it calls most are drawn.
    expect(parsed.nodes.map((n) => n.label)).toEqual(expect.arrayContaining(["f0", "lib/m0.py"]));
  });
});
