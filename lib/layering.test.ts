/**
 * Dependencies point one way. The rooms of lib/ (its folders, and its top-level files
 * taken together) stand on floors: a module may import from its own room and from rooms
 * on lower floors, never from another room of its floor or from one above, and never
 * from app/, components/ or test-support/ (test-only code). Type-only, re-exported and
 * dynamic imports count too, since each names the thing it depends on. And no module of
 * lib/ imports itself back through others: a cycle makes its files one module in all
 * but name.
 *
 * Tests and fixtures are left out: a test may reach anywhere to set its scene.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const LIB = path.resolve(import.meta.dirname);
const PROJECT = path.dirname(LIB);

/** The top-level files of lib/ (env.ts, errors.ts, paths.ts …): one room, below every folder. */
const TOP = "(top)";

/**
 * Every room of lib/, floor by floor from the bottom. A room may import only rooms on the
 * floors before its own; every room a folder of lib/ makes must be listed.
 */
const FLOORS: string[][] = [
  [TOP],
  ["diagrams"],
  ["db"],
  ["search"],
  ["answerers"],
  ["indexer", "settings"],
  ["wiki"],
  ["qa"],
  ["auth"],
  ["admin"],
  ["sources"],
  ["builds"],
  ["mcp"],
  ["cli"],
];

/** The folders beside lib/ that no module of lib/ may import: the web layer and test-only code. */
const OUTSIDE = ["app", "components", "test-support"];

/** For each room, the rooms it may not import: those on its own floor and every floor above. */
const FORBIDDEN: Record<string, string[]> = Object.fromEntries(
  FLOORS.flatMap((floor, level) =>
    floor.map((room) => [
      room,
      [...floor.filter((other) => other !== room), ...FLOORS.slice(level + 1).flat(), ...OUTSIDE],
    ]),
  ),
);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name.startsWith("generated") || entry.name === "__fixtures__" ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The file an import names, as a project path (null: a package, or nothing in the project). */
function resolveImport(from: string, spec: string): string | null {
  let target: string;
  if (spec.startsWith("@/")) target = path.join(PROJECT, spec.slice(2));
  else if (spec.startsWith(".")) target = path.resolve(path.dirname(from), spec);
  else return null;
  const candidates = [target, `${target}.ts`, `${target}.tsx`, path.join(target, "index.ts")];
  if (target.endsWith(".js")) candidates.push(`${target.slice(0, -3)}.ts`);
  const found = candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
  return path.relative(PROJECT, found ?? target);
}

/** Every module a file imports (static, type-only, re-exported or dynamic), as project paths. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1] as string);
  return [...new Set(specs.flatMap((spec) => resolveImport(file, spec) ?? []))];
}

/** The room a project path belongs to: a folder beside lib/ (OUTSIDE), a folder of lib/, or lib's top-level files. */
function roomOf(projectPath: string): string | null {
  const parts = projectPath.split(path.sep);
  if (OUTSIDE.includes(parts[0] as string)) return parts[0] as string;
  if (parts[0] !== "lib" || parts.length < 2) return null;
  return parts.length === 2 ? TOP : (parts[1] as string);
}

/** The import graph of lib/'s modules, keyed and valued by project path. */
function importGraph(files: string[]): Map<string, string[]> {
  return new Map(files.map((file) => [path.relative(PROJECT, file), importsOf(file)]));
}

/** The strongly connected components with more than one file (Tarjan), each sorted. */
function importCycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/** Every import against the floors, as "importer imports imported". */
function upwardImports(graph: Map<string, string[]>): string[] {
  const violations: string[] = [];
  for (const [file, targets] of graph) {
    const from = roomOf(file);
    if (!from) continue;
    for (const target of targets) {
      const to = roomOf(target);
      if (to && to !== from && FORBIDDEN[from]?.includes(to)) violations.push(`${file} imports ${target}`);
    }
  }
  return violations.sort();
}

describe("layering", () => {
  const graph = importGraph(sourceFiles(LIB));

  it("finds the project's modules and their imports", () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get(path.join("lib", "qa", "loop.ts"))).toContain(
      path.join("lib", "answerers", "contract.ts"),
    );
    // type-only and dynamic imports count
    expect(graph.get(path.join("lib", "cli", "commands.ts"))).toContain(
      path.join("lib", "cli", "ask-commands.ts"),
    );
    expect(graph.get(path.join("lib", "db", "snapshot.ts"))).toContain(path.join("lib", "db", "dialect.ts"));
  });

  it("places every room of lib on a floor", () => {
    const rooms = new Set([...graph.keys()].map((file) => roomOf(file)));
    expect([...rooms].filter((room) => room && !FORBIDDEN[room])).toEqual([]);
    expect(Object.keys(FORBIDDEN).filter((room) => !rooms.has(room))).toEqual([]);
  });

  it("finds a cycle and an upward import where there is one", () => {
    const made = new Map([
      ["lib/db/a.ts", ["lib/db/b.ts"]],
      ["lib/db/b.ts", ["lib/db/c.ts"]],
      ["lib/db/c.ts", ["lib/db/a.ts", "lib/qa/d.ts"]],
      ["lib/qa/d.ts", ["lib/db/a.ts"]],
      ["lib/env.ts", ["lib/errors.ts"]],
      ["lib/paths.ts", ["test-support/temp-env.ts"]],
    ]);
    expect(importCycles(made)).toEqual([["lib/db/a.ts", "lib/db/b.ts", "lib/db/c.ts", "lib/qa/d.ts"]]);
    expect(upwardImports(made)).toEqual([
      "lib/db/c.ts imports lib/qa/d.ts",
      "lib/paths.ts imports test-support/temp-env.ts",
    ]);
  });

  it("has no import cycles between the modules of lib", () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it("no module imports a room above its own", () => {
    expect(upwardImports(graph)).toEqual([]);
  });
});
