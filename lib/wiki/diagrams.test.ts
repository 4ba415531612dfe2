import { describe, expect, it } from "vitest";
import { directoryImportDiagram } from "./diagrams.ts";

describe("directoryImportDiagram", () => {
  const files = Array.from({ length: 27 }, (_, i) => `pkg/core/m${String(i).padStart(2, "0")}.py`);
  // Every file imports the next three and a shared helper module: far too many links to read.
  const imports = files.flatMap((f, i) => [
    ...[1, 2, 3].map((d) => ({ srcPath: f, dstPath: files[(i + d) % files.length]! })),
    { srcPath: f, dstPath: "pkg/util/helpers.py" },
  ]);

  it("caps files and links in a big folder and says what it left out", () => {
    const diagram = directoryImportDiagram("pkg/core", files, imports, 12, 6, 20);
    expect(diagram).not.toBeNull();
    const edgeLines = diagram!.mermaid.split("\n").filter((l) => l.includes("-->"));
    expect(edgeLines.length).toBe(20);
    const [, links] =
      diagram!.title.match(/^Imports of pkg\/core \(12 of 27 files, 20 of (\d+) links\)$/) ?? [];
    expect(Number(links)).toBeGreaterThan(20);
    const fileNodes = diagram!.nodes.filter((n) => n.id.startsWith("f"));
    expect(fileNodes).toHaveLength(12);
  });

  it("keeps the heaviest links", () => {
    // m05 imports three names from the helper module: one link of weight 3.
    const weighted = [
      ...imports,
      ...[1, 2].map(() => ({ srcPath: files[5]!, dstPath: "pkg/util/helpers.py" })),
    ];
    const diagram = directoryImportDiagram("pkg/core", files, weighted, 12, 6, 1);
    const edges = diagram!.mermaid.split("\n").filter((l) => l.includes("-->"));
    expect(edges).toHaveLength(1);
    const m05 = diagram!.nodes.find((n) => n.id !== "here" && n.path === files[5]);
    expect(edges[0]).toBe(`  ${m05!.id} -->|3| m0`);
  });

  it("titles a small folder plainly", () => {
    const diagram = directoryImportDiagram("pkg/core", files.slice(0, 3), imports.slice(0, 8));
    expect(diagram!.title).toBe("Imports of pkg/core");
  });
});
