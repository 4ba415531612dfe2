/**
 * The exploratory walk on a real index of a small TypeScript project: an e2e page object
 * named like the question neither starts nor joins the flow, and a chain named like the
 * question is followed past the walk's depth.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexFixture, setupQaHome, type IndexedFixture } from "../../../test-support/qa-env.ts";
import { PartLog } from "../../../test-support/qa-model.ts";
import { askQuestion } from "../ask.ts";

const BUILD = `import { discover, parseAll, store } from "./steps";

export type BuildPhase = "discover" | "parse" | "store";

export async function runBuild(root: string): Promise<number> {
  const phases: BuildPhase[] = [];
  const buildPhaseDone = (phase: BuildPhase) => {
    phases.push(phase);
  };
  const files = discover(root);
  buildPhaseDone("discover");
  const parsed = parseAll(files);
  buildPhaseDone("parse");
  store(parsed);
  buildPhaseDone("store");
  return phases.length;
}
`;

const STEPS = `export function discover(root: string): string[] {
  return [root + "/a.ts", root + "/b.ts"].filter((f) => f.length > 0);
}

export function parseAll(files: string[]): string[] {
  return files.map((f) => parseOne(f));
}

function parseOne(file: string): string {
  return file.trim();
}

export function store(rows: string[]): void {
  rows.forEach((r) => console.log(r));
}
`;

const SAVE = `export function saveAll(rows: string[]): number {
  return rows.map((r) => saveRow(r)).length;
}

function saveRow(row: string): number {
  tally(row);
  return saveCell(row.split(","));
}

function saveCell(cells: string[]): number {
  tally(cells.join(""));
  return saveBytes(cells.join("|"));
}

function saveBytes(text: string): number {
  tally(text);
  return writeSaved(text);
}

function writeSaved(text: string): number {
  return text.length + ping(text);
}

function ping(text: string): number {
  return text.indexOf("x");
}

function tally(text: string): number {
  return ping(text) + 1;
}
`;

const PAGE = `import { runBuild } from "../../src/build";

export class BuildPage {
  async runBuildPhases(root: string): Promise<void> {
    await runBuild(root);
    await this.waitForBuildPhases();
  }

  async waitForBuildPhases(): Promise<void> {
    await new Promise((r) => setTimeout(r, 10));
  }
}
`;

let repo: IndexedFixture;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-entry-"));
  dir = mkdtempSync(path.join(os.tmpdir(), "wf-entry-repo-"));
  mkdirSync(path.join(dir, "src"));
  mkdirSync(path.join(dir, "e2e", "pages"), { recursive: true });
  writeFileSync(path.join(dir, "src", "build.ts"), BUILD);
  writeFileSync(path.join(dir, "src", "steps.ts"), STEPS);
  writeFileSync(path.join(dir, "src", "save.ts"), SAVE);
  writeFileSync(path.join(dir, "e2e", "pages", "build-page.ts"), PAGE);
  repo = await indexFixture(dir, "entry");
});
afterAll(async () => {
  await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe("the exploratory walk", () => {
  it("leaves e2e page objects out of the flow", async () => {
    const result = await askQuestion(
      {
        repository: repo.repositoryId,
        question: "Walk me through what happens when a build runs its phases",
        overrides: { mode: "exploratory" },
      },
      new PartLog(),
      { model: null, ephemeral: true },
    );
    const retrieval = result.loop.retrieval;
    const flow = retrieval.items.find((i) => i.kind === "flow")?.text ?? "";
    expect(flow).toMatch(/^runBuild/);
    expect(flow).not.toContain("e2e/");
    expect(retrieval.rankedSymbols.slice(0, 5).some((s) => s.startsWith("e2e/"))).toBe(false);
  });

  it("follows a chain named like the question past the walk's depth, and nothing else there", async () => {
    const result = await askQuestion(
      {
        repository: repo.repositoryId,
        question: "Walk me through saveAll down to where the saved text is written",
        overrides: { mode: "exploratory" },
      },
      new PartLog(),
      { model: null, ephemeral: true },
    );
    const flow = result.loop.retrieval.items.find((i) => i.kind === "flow")?.text ?? "";
    // saveAll → saveRow → saveCell → saveBytes is as deep as a walk goes; writeSaved is named
    // like the question, so the chain goes on to it, but not to ping, which is not.
    expect(flow).toMatch(/→ saveBytes\(\)[^\n]*\n\s+→ writeSaved\(\)/);
    expect(flow).not.toMatch(/→ writeSaved\(\)[^\n]*\n\s+→ ping\(\)/);
  });
});
