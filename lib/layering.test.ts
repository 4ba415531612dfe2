/**
 * Dependencies point one way: app → qa → answerers → search → db. A module may import
 * from its own room and from rooms below it, never from one above; type-only imports
 * count too, since a type names the thing it depends on.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const LIB = path.resolve(import.meta.dirname);

/** For each room, the rooms above it in the chain (it must import none of them). */
const FORBIDDEN: Record<string, string[]> = {
  answerers: ["qa", "wiki", "indexer", "mcp", "cli", "admin", "auth", "sources"],
  search: ["qa", "answerers", "wiki", "indexer", "mcp", "cli", "admin", "auth", "sources"],
  db: ["qa", "answerers", "search", "mcp", "cli", "admin", "auth", "sources"],
  qa: ["mcp", "cli"],
  diagrams: ["qa", "answerers", "search", "db", "wiki", "indexer", "mcp", "cli", "admin", "auth", "sources"],
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith("generated") ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

/** Every module a file imports (static, type-only, re-exported or dynamic), as a path from the project root. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1] as string);
  return specs.flatMap((spec) => {
    if (spec.startsWith("@/")) return [spec.slice(2)];
    if (spec.startsWith("."))
      return [path.relative(path.dirname(LIB), path.resolve(path.dirname(file), spec))];
    return [];
  });
}

/** The room (first folder under lib/, or the top-level file) a project path belongs to. */
function roomOf(projectPath: string): string | null {
  const parts = projectPath.split(path.sep);
  if (parts[0] === "app" || parts[0] === "components") return parts[0];
  if (parts[0] !== "lib" || parts.length < 2) return null;
  return (parts[1] as string).replace(/\.tsx?$/, "");
}

describe("layering", () => {
  const files = sourceFiles(LIB);

  it("finds the project's modules and their imports", () => {
    expect(files.length).toBeGreaterThan(100);
    const contract = path.join(LIB, "answerers", "contract.ts");
    expect(importsOf(path.join(LIB, "qa", "loop.ts"))).toContain(
      path.join("lib", "answerers", "contract.ts"),
    );
    expect(files).toContain(contract);
  });

  it("no module imports a room above its own", () => {
    const violations: string[] = [];
    for (const file of files) {
      const from = roomOf(path.relative(path.dirname(LIB), file));
      if (!from) continue;
      for (const target of importsOf(file)) {
        const to = roomOf(target);
        if (!to || to === from) continue;
        if (to === "app" || to === "components" || FORBIDDEN[from]?.includes(to)) {
          violations.push(`${path.relative(path.dirname(LIB), file)} imports ${target}`);
        }
      }
    }
    expect(violations).toEqual([]);
  });
});
