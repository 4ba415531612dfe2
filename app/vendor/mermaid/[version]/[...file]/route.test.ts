/**
 * The mermaid bundle route serves the installed package's prebuilt ES module files,
 * the entry and the chunks it imports, and nothing else.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MERMAID_BUNDLE_URL, MERMAID_VERSION } from "@/components/diagrams/mermaid-bundle";
import { GET } from "./route";

const DIST = path.resolve(import.meta.dirname, "../../../../../node_modules/mermaid/dist");

function get(version: string, file: string[]): Promise<Response> {
  const url = `http://127.0.0.1/vendor/mermaid/${version}/${file.join("/")}`;
  return GET(new Request(url), { params: Promise.resolve({ version, file }) });
}

describe("GET /vendor/mermaid/[version]/[...file]", () => {
  it("points the diagrams at the installed version's entry", () => {
    const installed = JSON.parse(fs.readFileSync(path.join(DIST, "..", "package.json"), "utf8")).version;
    expect(MERMAID_VERSION).toBe(installed);
    expect(MERMAID_BUNDLE_URL).toBe(`/vendor/mermaid/${installed}/mermaid.esm.min.mjs`);
  });

  it("serves the entry and every chunk it imports, as cacheable JavaScript", async () => {
    const entry = await get(MERMAID_VERSION, ["mermaid.esm.min.mjs"]);
    expect(entry.status).toBe(200);
    expect(entry.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(entry.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const text = await entry.text();
    expect(text).toBe(fs.readFileSync(path.join(DIST, "mermaid.esm.min.mjs"), "utf8"));

    const chunks = [...text.matchAll(/"\.\/(chunks\/[^"]+\.mjs)"/g)].map((m) => m[1] as string);
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of new Set(chunks)) {
      const response = await get(MERMAID_VERSION, chunk.split("/"));
      expect(response.status, chunk).toBe(200);
      expect((await response.arrayBuffer()).byteLength, chunk).toBe(fs.statSync(path.join(DIST, chunk)).size);
    }
  });

  it("answers 404 for another version, another file or a path out of the folder", async () => {
    const chunk = fs
      .readdirSync(path.join(DIST, "chunks", "mermaid.esm.min"))
      .find((f) => f.endsWith(".mjs"));
    expect(chunk).toBeDefined();
    const refused: [string, string[]][] = [
      ["0.0.1", ["mermaid.esm.min.mjs"]],
      [MERMAID_VERSION, ["mermaid.esm.min.mjs.map"]],
      [MERMAID_VERSION, ["mermaid.core.mjs"]],
      [MERMAID_VERSION, ["chunks", "mermaid.esm.min", `${chunk}.map`]],
      [MERMAID_VERSION, ["chunks", "mermaid.esm.min", "no-such-chunk.mjs"]],
      [MERMAID_VERSION, ["..", "package.json"]],
      [MERMAID_VERSION, ["chunks", "mermaid.esm.min", "..", "..", "mermaid.core.mjs"]],
      [MERMAID_VERSION, ["chunks", "..", "..", "..", "..", "package.json"]],
    ];
    for (const [version, file] of refused) {
      const response = await get(version, file);
      expect(response.status, `${version}/${file.join("/")}`).toBe(404);
      expect((await response.json()).error.code).toBe("not_found:asset");
    }
  });
});
