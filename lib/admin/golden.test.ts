/**
 * Golden questions through the real engine on the shop fixture: pass when every
 * expected file is among the verified citations, fail with the missing files named,
 * history newest first, a quality drop (a settings change) visible as pass → fail,
 * and the re-index hooks of the web jobs and the CLI recording `reindex` runs.
 */
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commands } from "@/lib/cli/commands";
import { reindexRepository } from "@/lib/builds/jobs";
import { indexFixture, setupQaHome, SHOP_FIXTURE, type IndexedFixture } from "@/test-support/qa-env";
import {
  addGoldenQuestion,
  judgeCitations,
  listGolden,
  normalizeRepoPath,
  removeGoldenQuestion,
  runGoldenQuestions,
} from "./golden";
import { InvalidFieldsError } from "./invalid-fields";
import { resetSettings, saveSettings } from "./settings";

const DIAGNOSTIC = "Why do I get PaymentDeclined: card declined by gateway when placing an order?";

describe("judging citations", () => {
  it("normalizes paths the way citations name files", () => {
    expect(normalizeRepoPath("  ./shop//payments.py ")).toBe("shop/payments.py");
    expect(normalizeRepoPath("/shop\\api.py")).toBe("shop/api.py");
  });

  it("passes only when every expected file is cited and verified", () => {
    const citations = [
      { path: "shop/payments.py", verified: true },
      { path: "shop/api.py", verified: true },
      { path: "shop/service.py", verified: false },
    ];
    expect(judgeCitations(["shop/payments.py", "./shop/api.py"], citations)).toEqual({
      passed: true,
      cited: ["shop/api.py", "shop/payments.py"],
      missing: [],
    });
    expect(judgeCitations(["shop/payments.py", "shop/service.py"], citations)).toMatchObject({
      passed: false,
      missing: ["shop/service.py"],
    });
  });
});

describe("runs against the shop fixture", () => {
  let fx: IndexedFixture;
  let cleanup: () => Promise<void>;
  let passing: string;
  let failing: string;

  beforeAll(async () => {
    ({ cleanup } = await setupQaHome("wf-admin-golden-"));
    fx = await indexFixture();
  });
  afterAll(async () => cleanup());

  it("refuses expected files the index does not have, and an empty list", async () => {
    const add = (expectedFiles: string[]) =>
      addGoldenQuestion({
        repositoryId: fx.repositoryId,
        question: DIAGNOSTIC,
        mode: "diagnostic",
        expectedFiles,
      });
    await expect(add(["shop/paymnts.py"])).rejects.toBeInstanceOf(InvalidFieldsError);
    await expect(add(["shop/paymnts.py"])).rejects.toMatchObject({
      fields: [{ key: "expectedFiles", message: "Not in the index of shop: shop/paymnts.py." }],
    });
    await expect(add([" "])).rejects.toMatchObject({ fields: [{ key: "expectedFiles" }] });
  });

  it("records pass and fail with cited and missing files", async () => {
    passing = (
      await addGoldenQuestion({
        repositoryId: fx.repositoryId,
        question: DIAGNOSTIC,
        mode: "diagnostic",
        expectedFiles: ["shop/payments.py", "./shop/api.py"],
      })
    ).id;
    // The package's one-line __init__ has nothing to do with totals, so no answer cites it.
    failing = (
      await addGoldenQuestion({
        repositoryId: fx.repositoryId,
        question: "Where is the order total computed?",
        mode: null,
        expectedFiles: ["shop/pricing.py", "shop/__init__.py"],
      })
    ).id;

    const runs = await runGoldenQuestions({ repositoryId: fx.repositoryId, trigger: "manual" });
    expect(runs).toHaveLength(2);
    const [pass, fail] = runs;
    expect(pass).toMatchObject({
      passed: true,
      missingFiles: [],
      error: null,
      trigger: "manual",
      generationId: fx.generationId,
    });
    expect(pass?.citedFiles).toEqual(expect.arrayContaining(["shop/payments.py", "shop/api.py"]));
    expect(pass?.durationMs).toBeGreaterThan(0);
    expect(fail).toMatchObject({ passed: false, error: null, missingFiles: ["shop/__init__.py"] });
    expect(fail?.citedFiles).toContain("shop/pricing.py");
  });

  it("keeps a history per question, newest first, so a quality drop shows", async () => {
    // Switching off the code index, call graph and mode routing (every question then takes the
    // conceptual path) and leaving that path little room loses part of the error path.
    await saveSettings(
      {
        cgrag: {
          features: { useCodeIndex: false, useCallGraph: false, useModeRouting: false },
          modeBudgets: { conceptual: { docs: 250, source: 0, issues: 0 } },
        },
      },
      "test",
    );
    try {
      const [degraded] = await runGoldenQuestions({
        repositoryId: fx.repositoryId,
        trigger: "manual",
        questionId: passing,
      });
      expect(degraded?.passed).toBe(false);
      expect(degraded?.missingFiles.length).toBeGreaterThan(0);
    } finally {
      await resetSettings("test");
    }

    const view = await listGolden(fx.repositoryId);
    const question = view.questions.find((q) => q.id === passing);
    expect(question?.expectedFiles).toEqual(["shop/payments.py", "shop/api.py"]);
    expect(question?.runs.map((r) => r.passed)).toEqual([false, true]);
    expect(view.running).toBe(false);
  });

  it("runs after a web-triggered re-index", async () => {
    await reindexRepository(fx.repositoryId);
    const deadline = Date.now() + 20_000;
    let runs: { trigger: string; passed: boolean }[] = [];
    while (Date.now() < deadline) {
      const view = await listGolden(fx.repositoryId);
      runs = view.questions.find((q) => q.id === passing)?.runs ?? [];
      if (runs[0]?.trigger === "reindex" && !view.running) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(runs[0]).toMatchObject({ trigger: "reindex", passed: true });
  });

  it("runs after a CLI re-index and prints the result", async () => {
    const out = new PassThrough();
    const text: string[] = [];
    out.on("data", (c: Buffer) => text.push(c.toString()));
    const index = commands.index;
    if (!index) throw new Error("no index command");
    expect(await index({ values: {}, positionals: [SHOP_FIXTURE], out, err: new PassThrough() })).toBe(0);
    expect(text.join("")).toMatch(/golden\s+1\/2 passed/);
    const view = await listGolden(fx.repositoryId);
    expect(view.questions.every((q) => q.runs[0]?.trigger === "reindex")).toBe(true);
  });

  it("deletes a question with its history", async () => {
    await removeGoldenQuestion(failing);
    expect((await listGolden(fx.repositoryId)).questions.map((q) => q.id)).toEqual([passing]);
    await expect(removeGoldenQuestion(failing)).rejects.toMatchObject({ code: "not_found:golden" });
  });
});
