/**
 * The mermaid bundle route serves the installed package's prebuilt ES module files,
 * the entry and every chunk it imports (statically or on demand, however deep), and
 * nothing else.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MERMAID_BUNDLE_URL, MERMAID_VERSION } from "@/components/diagrams/mermaid-bundle";
import { GET } from "./route";

const DIST = path.resolve(import.meta.dirname, "../../../../../node_modules/mermaid/dist");
const ENTRY = "mermaid.esm.min.mjs";

function get(version: string, file: string[]): Promise<Response> {
  const url = `http://127.0.0.1/vendor/mermaid/${version}/${file.join("/")}`;
  return GET(new Request(url), { params: Promise.resolve({ version, file }) });
}

/** Relative module specifiers in a file: `from"./x.mjs"`, `import"./x.mjs"`, `import("./x.mjs")`. */
function relativeImports(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["'](\.\.?\/[^"']+)["']/g)].map(
    (m) => m[1] as string,
  );
}

describe("GET /vendor/mermaid/[version]/[...file]", () => {
  it("points the browser at the installed version's entry", () => {
    const installed = JSON.parse(fs.readFileSync(path.join(DIST, "..", "package.json"), "utf8")).version;
    expect(MERMAID_VERSION).toBe(installed);
    expect(MERMAID_BUNDLE_URL).toBe(`/vendor/mermaid/${installed}/${ENTRY}`);
  });

  it("serves the entry and every chunk it reaches, byte for byte, as cacheable JavaScript", async () => {
    const seen = new Set<string>();
    const queue = [ENTRY];
    while (queue.length) {
      const file = queue.shift() as string;
      if (seen.has(file)) continue;
      seen.add(file);
      const response = await get(MERMAID_VERSION, file.split("/"));
      expect(response.status, file).toBe(200);
      expect(response.headers.get("content-type"), file).toBe("text/javascript; charset=utf-8");
      expect(response.headers.get("cache-control"), file).toBe("public, max-age=31536000, immutable");
      const text = await response.text();
      expect(text, file).toBe(fs.readFileSync(path.join(DIST, file), "utf8"));
      for (const spec of relativeImports(text)) queue.push(path.posix.join(path.posix.dirname(file), spec));
    }
    // The entry's static imports, the diagrams it loads on demand and their own chunks.
    expect(seen.size).toBeGreaterThan(50);
    expect([...seen].some((f) => /sequenceDiagram-[A-Z0-9]+\.mjs$/.test(f))).toBe(true);
  });

  it("answers 404 for another version, another file or a path out of the folder", async () => {
    const chunk = fs
      .readdirSync(path.join(DIST, "chunks", "mermaid.esm.min"))
      .find((f) => f.endsWith(".mjs"));
    expect(chunk).toBeDefined();
    const refused: [string, string[]][] = [
      ["0.0.1", [ENTRY]],
      [`${MERMAID_VERSION}.0`, [ENTRY]],
      [MERMAID_VERSION, [`${ENTRY}.map`]],
      [MERMAID_VERSION, ["mermaid.core.mjs"]],
      [MERMAID_VERSION, ["mermaid.js"]],
      [MERMAID_VERSION, ["chunks", "mermaid.esm.min", `${chunk}.map`]],
      [MERMAID_VERSION, ["chunks", "mermaid.core", chunk as string]],
      [MERMAID_VERSION, ["chunks", "mermaid.esm.min", "no-such-chunk.mjs"]],
      [MERMAID_VERSION, ["..", "package.json"]],
      [MERMAID_VERSION, ["chunks", "mermaid.esm.min", "..", "..", "mermaid.core.mjs"]],
      [MERMAID_VERSION, ["chunks", "..", "..", "..", "..", "package.json"]],
      [MERMAID_VERSION, ["chunks", "mermaid.esm.min", "..%2F..%2Fmermaid.core.mjs"]],
    ];
    for (const [version, file] of refused) {
      const response = await get(version, file);
      expect(response.status, `${version}/${file.join("/")}`).toBe(404);
      expect((await response.json()).error.code).toBe("not_found:asset");
    }
  });
});
