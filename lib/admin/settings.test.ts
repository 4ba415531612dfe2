/**
 * Admin settings against a real SQLite file: every bad value comes back as a clear
 * error on its own field and stores nothing; saved values persist, layer over the
 * environment and reach the engine; lowering max passes to 1 makes the next answer
 * (through askQuestion and through POST /api/qa) single-pass.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { POST as askRoute } from "@/app/api/qa/route";
import { resetEnvForTests } from "@/lib/env";
import { DEFAULT_CONFIG, effectiveConfig } from "@/lib/settings/config";
import { askQuestion } from "@/lib/qa/ask";
import type { AnswerMetadata } from "@/lib/qa/types";
import { indexFixture, setupQaHome, type IndexedFixture } from "@/test-support/qa-env";
import { readSse } from "@/test-support/qa-http";
import { InvalidFieldsError, type FieldError } from "./invalid-fields";
import { SETTING_FIELDS, flatten } from "../settings/fields";
import { loadEngineSettings } from "../settings/load";
import { getSettingsView, resetSettings, saveSettings, validateConfigPatch } from "./settings";

// fraud_screen is nowhere in the shop: the engine names it as a gap, so a second pass looks for it.
const DIAGNOSTIC =
  "Why do I get PaymentDeclined: card declined by gateway when placing an order? Is it retried by fraud_screen?";
const silent = { write: () => undefined };

let fx: IndexedFixture;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-admin-settings-"));
  fx = await indexFixture();
});
afterAll(async () => cleanup());
afterEach(async () => {
  for (const key of ["CGRAG_MAX_PASSES", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "LLM_API_KEY"])
    delete process.env[key];
  resetEnvForTests();
  await resetSettings("test");
});

function errorsOf(patch: unknown): FieldError[] {
  const result = validateConfigPatch(DEFAULT_CONFIG, patch);
  if (result.ok) throw new Error(`expected ${JSON.stringify(patch)} to be refused`);
  return result.errors;
}

async function rejected(update: Parameters<typeof saveSettings>[0]): Promise<FieldError[]> {
  try {
    await saveSettings(update, "test");
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidFieldsError);
    const invalid = error as InvalidFieldsError;
    expect(invalid.status).toBe(400);
    expect(invalid.toJSON().error.fields).toEqual(invalid.fields);
    return invalid.fields;
  }
  throw new Error("expected the save to be refused");
}

describe("the form covers the whole configuration", () => {
  it("has one field per leaf of the CGRAG config, with the schema's limits", () => {
    expect(SETTING_FIELDS.map((f) => f.key).sort()).toEqual(Object.keys(flatten(DEFAULT_CONFIG)).sort());
    const maxPasses = SETTING_FIELDS.find((f) => f.key === "maxPasses");
    expect(maxPasses).toMatchObject({ kind: "int", min: 1, max: 8 });
    expect(SETTING_FIELDS.find((f) => f.key === "highConfidenceThreshold")).toMatchObject({
      kind: "number",
      min: 0,
      max: 1,
    });
  });

  it("states the per-pass list's length limits as the schema enforces them", () => {
    const field = SETTING_FIELDS.find((f) => f.key === "perPassGapBudget");
    expect(field).toMatchObject({ kind: "int-list", minItems: 1, maxItems: 8, min: 50 });
    expect(validateConfigPatch(DEFAULT_CONFIG, { perPassGapBudget: Array(8).fill(100) }).ok).toBe(true);
    expect(validateConfigPatch(DEFAULT_CONFIG, { perPassGapBudget: Array(9).fill(100) }).ok).toBe(false);
    expect(validateConfigPatch(DEFAULT_CONFIG, { perPassGapBudget: [] }).ok).toBe(false);
  });
});

describe("validation", () => {
  it("refuses negative budgets, naming the field and its range", () => {
    expect(errorsOf({ totalContextBudget: -5 })).toContainEqual({
      key: "totalContextBudget",
      message: "Must be a whole number from 500 to 200000.",
    });
    expect(errorsOf({ modeBudgets: { diagnostic: { source: -1 } } })).toEqual([
      { key: "modeBudgets.diagnostic.source", message: "Must be a whole number from 0 to 64000." },
    ]);
    expect(errorsOf({ perGapBudget: -100 })[0]?.key).toBe("perGapBudget");
  });

  it("refuses max passes 0 and 99 (and fractions)", () => {
    const expected = [{ key: "maxPasses", message: "Must be a whole number from 1 to 8." }];
    expect(errorsOf({ maxPasses: 0 })).toEqual(expected);
    expect(errorsOf({ maxPasses: 99 })).toEqual(expected);
    expect(errorsOf({ maxPasses: 1.5 })).toEqual(expected);
  });

  it("refuses an initial retrieval budget above the total", () => {
    expect(errorsOf({ totalContextBudget: 4000, initialRetrievalBudget: 5000 })).toEqual([
      {
        key: "initialRetrievalBudget",
        message: "Initial retrieval budget cannot exceed total context budget.",
      },
    ]);
    expect(errorsOf({ gapResolutionBudget: 400, perGapBudget: 500 })[0]?.key).toBe("perGapBudget");
  });

  it("refuses unknown keys, at the top and inside groups", () => {
    expect(errorsOf({ maxPass: 2, features: { useTurbo: true }, modeBudgets: { chatty: {} } })).toEqual([
      { key: "maxPass", message: "Is not a setting." },
      { key: "features.useTurbo", message: "Is not a setting." },
      { key: "modeBudgets.chatty", message: "Is not a setting." },
    ]);
  });

  it("refuses wrong types with a message for the field's kind", () => {
    expect(errorsOf({ maxPasses: "3" })).toEqual([
      { key: "maxPasses", message: "Must be a whole number from 1 to 8." },
    ]);
    expect(errorsOf({ truncateLongFunctions: "yes" })).toEqual([
      { key: "truncateLongFunctions", message: "Must be on or off (true or false)." },
    ]);
    expect(errorsOf({ features: true })).toEqual([
      { key: "features", message: "Must be a group of settings (an object)." },
    ]);
    expect(errorsOf({ perPassGapBudget: 500 })).toEqual([
      { key: "perPassGapBudget", message: "Must be a list of whole numbers." },
    ]);
    expect(errorsOf({ perPassGapBudget: [1000, 10] })).toEqual([
      { key: "perPassGapBudget", message: "Value 2 must be a whole number from 50 to 50000." },
    ]);
    expect(errorsOf({ highConfidenceThreshold: 2 })).toEqual([
      { key: "highConfidenceThreshold", message: "Must be a number from 0 to 1." },
    ]);
    expect(errorsOf([1, 2])).toEqual([
      { key: "settings", message: "Must be a group of settings (an object)." },
    ]);
  });

  it("reports every bad field of one save at once and stores none of it", async () => {
    const fields = await rejected({
      cgrag: { maxPasses: 0, sessionTtlMinutes: -1, semanticTopK: 3 },
      llm: { provider: "gemini", baseURL: "ftp://models.example" },
    });
    expect(fields.map((f) => f.key).sort()).toEqual([
      "llm.baseURL",
      "llm.provider",
      "maxPasses",
      "sessionTtlMinutes",
    ]);
    const view = await getSettingsView();
    expect(view.config).toEqual(DEFAULT_CONFIG);
    expect(view.changes).toEqual([]);
  });
});

describe("persistence", () => {
  it("saves, loads back, logs who changed what, and feeds the effective config", async () => {
    const view = await saveSettings(
      { cgrag: { maxPasses: 2, modeBudgets: { diagnostic: { source: 2500 } } } },
      "alice",
    );
    expect(view.config.maxPasses).toBe(2);
    expect(view.config.modeBudgets.diagnostic).toEqual({ docs: 1000, source: 2500, issues: 0 });
    expect(view.overridden.sort()).toEqual(["maxPasses", "modeBudgets.diagnostic.source"]);
    expect(view.changes.map((c) => [c.key, c.oldValue, c.newValue, c.actor])).toEqual(
      expect.arrayContaining([
        ["cgrag.maxPasses", 3, 2, "alice"],
        ["cgrag.modeBudgets.diagnostic.source", 2000, 2500, "alice"],
      ]),
    );
    expect(view.changes[0]?.label).toMatch(/Max passes|diagnostic · source/);

    // A fresh load (what the next question does) sees the same values.
    const engine = await loadEngineSettings();
    expect(engine.settings).toEqual({ maxPasses: 2, modeBudgets: { diagnostic: { source: 2500 } } });
    expect(engine.model).toBeNull();
    const config = effectiveConfig({ settings: engine.settings });
    expect(config.maxPasses).toBe(2);
    expect(config.modeBudgets.diagnostic.source).toBe(2500);
    // Quality presets still apply on top of the admin's values.
    expect(effectiveConfig({ settings: engine.settings, overrides: { quality: "quick" } }).maxPasses).toBe(1);
    expect(view.presets.thorough.maxPasses).toBe(4);
  });

  it("stops storing a value set back to what it inherits, and logs the move", async () => {
    await saveSettings({ cgrag: { maxPasses: 5 } }, "alice");
    const view = await saveSettings({ cgrag: { maxPasses: 3 } }, "bob");
    expect(view.overridden).toEqual([]);
    expect(view.changes[0]).toMatchObject({ key: "cgrag.maxPasses", oldValue: 5, newValue: 3, actor: "bob" });
    // Saving the same values again changes nothing and logs nothing.
    const again = await saveSettings({ cgrag: { maxPasses: 3 } }, "bob");
    expect(again.changes.length).toBe(view.changes.length);
  });

  it("layers over CGRAG_* environment overrides", async () => {
    process.env.CGRAG_MAX_PASSES = "4";
    resetEnvForTests();
    let view = await getSettingsView();
    expect(view.inherited.maxPasses).toBe(4);
    expect(view.fromEnv).toEqual(["maxPasses"]);
    view = await saveSettings({ cgrag: { maxPasses: 2 } }, "alice");
    expect(view.config.maxPasses).toBe(2);
    expect(view.changes[0]).toMatchObject({ oldValue: 4, newValue: 2 });
  });

  it("resets everything to the defaults, logging each value that moves", async () => {
    await saveSettings({ cgrag: { maxPasses: 1, features: { useCallGraph: false } } }, "alice");
    const view = await resetSettings("carol");
    expect(view.config).toEqual(DEFAULT_CONFIG);
    expect(view.overridden).toEqual([]);
    expect(
      view.changes
        .slice(0, 2)
        .map((c) => [c.key, c.oldValue, c.newValue, c.actor])
        .sort(),
    ).toEqual([
      ["cgrag.features.useCallGraph", false, true, "carol"],
      ["cgrag.maxPasses", 1, 3, "carol"],
    ]);
    expect((await loadEngineSettings()).settings).toBeUndefined();
  });
});

describe("provider and model", () => {
  it("stores provider, model id and base URL, never an API key", async () => {
    process.env.OPENAI_API_KEY = "sk-test-secret-value-0123456789";
    resetEnvForTests();
    const view = await saveSettings(
      { llm: { provider: "openai-compatible", model: "llama3.1:8b", baseURL: "http://127.0.0.1:9/v1" } },
      "alice",
    );
    expect(view.provider.stored).toEqual({
      provider: "openai-compatible",
      model: "llama3.1:8b",
      baseURL: "http://127.0.0.1:9/v1",
    });
    expect(view.provider.keys.OPENAI_API_KEY).toBe(true);
    expect(JSON.stringify(view)).not.toContain("sk-test-secret");
    const engine = await loadEngineSettings();
    expect(engine.label).toBe("openai-compatible:llama3.1:8b");
    expect(view.changes.find((c) => c.key === "llm.provider")).toMatchObject({
      oldValue: null,
      newValue: "openai-compatible",
    });
  });

  it("refuses a provider whose API key the environment lacks, and bad model ids or URLs", async () => {
    expect(await rejected({ llm: { provider: "anthropic" } })).toEqual([
      {
        key: "llm.provider",
        message:
          "No API key for anthropic in the environment: set ANTHROPIC_API_KEY or LLM_API_KEY and restart.",
      },
    ]);
    const fields = await rejected({
      llm: { model: "gpt 4; rm -rf", baseURL: "http://user:pw@host/v1", apiKey: "x" },
    });
    expect(fields.map((f) => f.key).sort()).toEqual(["llm.apiKey", "llm.baseURL", "llm.model"]);
  });

  it("goes back to the environment's provider when the choice is cleared", async () => {
    await saveSettings({ llm: { provider: "openai-compatible" } }, "alice");
    expect((await loadEngineSettings()).model).not.toBeNull();
    const view = await saveSettings({ llm: { provider: null, model: "", baseURL: "" } }, "alice");
    expect(view.provider.stored).toEqual({ provider: null, model: null, baseURL: null });
    expect((await loadEngineSettings()).model).toBeNull();
  });
});

describe("effect on the next question", () => {
  it("max passes 1 makes the next answer single-pass (askQuestion with the loaded settings)", async () => {
    const before = await askQuestion(
      { repository: fx.repositoryId, question: DIAGNOSTIC, overrides: { mode: "diagnostic" } },
      silent,
      await loadEngineSettings(),
    );
    // A second pass ran (and found nothing new for the gap).
    expect(before.loop.passes.length).toBeGreaterThanOrEqual(2);
    expect(before.metadata.stopReason).toBe("no-new-context");

    await saveSettings({ cgrag: { maxPasses: 1 } }, "alice");
    const after = await askQuestion(
      { repository: fx.repositoryId, question: DIAGNOSTIC, overrides: { mode: "diagnostic" } },
      silent,
      await loadEngineSettings(),
    );
    expect(after.loop.passes).toHaveLength(1);
    expect(after.metadata.passesUsed).toBe(1);
    expect(after.metadata.maxPasses).toBe(1);
    expect(after.metadata.stopReason).toBe("max-passes");
  });

  it("reaches questions asked through POST /api/qa without a restart", async () => {
    const ask = async () => {
      const response = await askRoute(
        new Request("http://localhost/api/qa", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            repositoryId: fx.repositoryId,
            question: DIAGNOSTIC,
            options: { mode: "diagnostic" },
          }),
        }),
      );
      expect(response.status).toBe(200);
      const finish = (await readSse(response)).find((e) => e.json?.type === "finish");
      return finish?.json?.messageMetadata as AnswerMetadata;
    };
    // Three passes allowed: the gap is looked for in a second pass.
    expect(await ask()).toMatchObject({ maxPasses: 3, stopReason: "no-new-context" });
    await saveSettings({ cgrag: { maxPasses: 1 } }, "alice");
    const single = await ask();
    expect(single).toMatchObject({ passesUsed: 1, maxPasses: 1, stopReason: "max-passes" });
  });
});
