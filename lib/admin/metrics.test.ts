/**
 * Dashboard aggregation on known rows (counts per mode, passes histogram, p50/p95,
 * error / fallback / gap-resolution rates, hourly vs daily buckets), then the same
 * numbers from rows stored in a real SQLite file, and the recent-questions table
 * built from questions really asked (text, session link).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { askQuestion } from "@/lib/qa/ask";
import { indexFixture, setupQaHome, type IndexedFixture } from "@/test-support/qa-env";
import {
  aggregateMetrics,
  bucketStart,
  chooseBucket,
  latencyByMode,
  loadDashboard,
  passesHistogram,
  percentile,
  type MetricInput,
} from "./metrics";

const NOW = Date.parse("2026-03-10T12:30:00Z");
const HOUR = 3_600_000;

function row(partial: Partial<MetricInput> & { hoursAgo: number }): MetricInput {
  const { hoursAgo, ...rest } = partial;
  return {
    mode: "diagnostic",
    forcedMode: false,
    passes: 2,
    gapsIdentified: 0,
    gapsResolved: 0,
    gapsUnresolved: 0,
    tokens: 1000,
    latencyMs: 100,
    fallback: false,
    error: null,
    createdAt: new Date(NOW - hoursAgo * HOUR),
    ...rest,
  };
}

/** Ten questions in the last day, one a week ago (outside 24h). */
const ROWS: MetricInput[] = [
  row({
    hoursAgo: 1,
    mode: "diagnostic",
    passes: 3,
    latencyMs: 100,
    gapsIdentified: 4,
    gapsResolved: 3,
    gapsUnresolved: 1,
  }),
  row({
    hoursAgo: 1,
    mode: "diagnostic",
    passes: 2,
    latencyMs: 200,
    gapsIdentified: 2,
    gapsResolved: 1,
    gapsUnresolved: 1,
  }),
  row({ hoursAgo: 2, mode: "diagnostic", passes: 1, latencyMs: 300, forcedMode: true }),
  row({ hoursAgo: 2, mode: "diagnostic", passes: 2, latencyMs: 400, fallback: true }),
  row({ hoursAgo: 3, mode: "conceptual", passes: 1, latencyMs: 50, tokens: 500 }),
  row({ hoursAgo: 3, mode: "conceptual", passes: 1, latencyMs: 70, tokens: 700 }),
  row({
    hoursAgo: 5,
    mode: "exploratory",
    passes: 2,
    latencyMs: 900,
    tokens: 3000,
    gapsIdentified: 2,
    gapsResolved: 2,
  }),
  row({ hoursAgo: 6, mode: "analytical", passes: 4, latencyMs: 1200, tokens: 2000 }),
  // Failed questions: counted in volume and the error rate, not in passes, tokens or latency.
  row({ hoursAgo: 7, mode: "diagnostic", passes: 0, tokens: 0, latencyMs: 9000, error: "boom" }),
  row({ hoursAgo: 23, mode: "conceptual", passes: 0, tokens: 0, latencyMs: 5, error: "boom" }),
  row({ hoursAgo: 24 * 7 - 1, mode: "analytical", passes: 1 }),
];

describe("pure aggregation", () => {
  it("uses nearest-rank percentiles", () => {
    expect(percentile([], 50)).toBeNull();
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([400, 100, 300, 200], 50)).toBe(200);
    expect(percentile([400, 100, 300, 200], 95)).toBe(400);
    expect(
      percentile(
        Array.from({ length: 100 }, (_, i) => i + 1),
        95,
      ),
    ).toBe(95);
  });

  it("buckets by hour up to two days, by day up to four months, by week beyond", () => {
    expect(chooseBucket(24 * HOUR)).toBe("hour");
    expect(chooseBucket(7 * 24 * HOUR)).toBe("day");
    expect(chooseBucket(365 * 24 * HOUR)).toBe("week");
    expect(new Date(bucketStart(NOW, "hour")).toISOString()).toBe("2026-03-10T12:00:00.000Z");
    expect(new Date(bucketStart(NOW, "day")).toISOString()).toBe("2026-03-10T00:00:00.000Z");
    expect(new Date(bucketStart(NOW, "week")).toISOString()).toBe("2026-03-09T00:00:00.000Z"); // a Monday
  });

  it("counts questions per mode, errors, fallbacks and forced modes in the window", () => {
    const d = aggregateMetrics(ROWS, { range: "24h", now: NOW });
    expect(d.totals).toMatchObject({
      questions: 10,
      answered: 8,
      errors: 2,
      fallbacks: 1,
      forced: 1,
      errorRate: 0.2,
      fallbackRate: 1 / 8,
      byMode: { diagnostic: 5, conceptual: 3, exploratory: 1, analytical: 1 },
    });
    expect(d.totals.tokens).toBe(1000 * 4 + 500 + 700 + 3000 + 2000);
    expect(d.totals.avgTokens).toBe(Math.round(10200 / 8));
  });

  it("computes the gap resolution rate over answered questions", () => {
    const d = aggregateMetrics(ROWS, { range: "24h", now: NOW });
    expect(d.totals).toMatchObject({
      gapsIdentified: 8,
      gapsResolved: 6,
      gapsUnresolved: 2,
      gapResolutionRate: 0.75,
    });
  });

  it("builds the passes histogram from answered questions, every bar present", () => {
    expect(aggregateMetrics(ROWS, { range: "24h", now: NOW }).passes).toEqual([
      { passes: 1, count: 3 },
      { passes: 2, count: 3 },
      { passes: 3, count: 1 },
      { passes: 4, count: 1 },
    ]);
    expect(passesHistogram([])).toEqual([
      { passes: 1, count: 0 },
      { passes: 2, count: 0 },
      { passes: 3, count: 0 },
    ]);
  });

  it("reports latency p50/p95 per mode", () => {
    const latency = aggregateMetrics(ROWS, { range: "24h", now: NOW }).latency;
    expect(latency).toEqual([
      { mode: "conceptual", count: 2, p50: 50, p95: 70 },
      { mode: "diagnostic", count: 4, p50: 200, p95: 400 },
      { mode: "exploratory", count: 1, p50: 900, p95: 900 },
      { mode: "analytical", count: 1, p50: 1200, p95: 1200 },
    ]);
    expect(latencyByMode([])[0]).toEqual({ mode: "conceptual", count: 0, p50: null, p95: null });
  });

  it("places questions in hourly buckets for a day and daily buckets for a week", () => {
    const day = aggregateMetrics(ROWS, { range: "24h", now: NOW });
    expect(day.bucket).toBe("hour");
    expect(day.timeline).toHaveLength(25);
    expect(day.timeline.reduce((n, b) => n + b.total, 0)).toBe(10);
    const lastHour = day.timeline.find((b) => b.start === "2026-03-10T11:00:00.000Z");
    expect(lastHour).toMatchObject({ total: 2, byMode: { diagnostic: 2 }, tokens: 2000, avgTokens: 1000 });
    expect(lastHour?.gapResolutionRate).toBeCloseTo(4 / 6);

    const week = aggregateMetrics(ROWS, { range: "7d", now: NOW });
    expect(week.bucket).toBe("day");
    expect(week.timeline).toHaveLength(8);
    expect(week.totals.questions).toBe(11);
    const today = week.timeline.at(-1);
    expect(today).toMatchObject({ start: "2026-03-10T00:00:00.000Z", total: 9, errors: 1, errorRate: 1 / 9 });
  });

  it("starts the 'all' range at the oldest question", () => {
    const all = aggregateMetrics(ROWS, { range: "all", now: NOW });
    expect(all.totals.questions).toBe(11);
    expect(all.bucket).toBe("day");
    expect(Date.parse(all.from)).toBe(NOW - (24 * 7 - 1) * HOUR);
  });
});

describe("from the database", () => {
  let fx: IndexedFixture;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ cleanup } = await setupQaHome("wf-admin-metrics-"));
    fx = await indexFixture();
  });
  afterAll(async () => cleanup());

  it("aggregates stored rows like the pure function does", async () => {
    const client = await db();
    await client.questionMetric.createMany({
      data: ROWS.map((r) => ({
        ...r,
        repositoryId: fx.repositoryId,
        sessionId: null,
        quality: "balanced",
        phases: "{}",
      })),
    });
    const data = await loadDashboard({ range: "24h", now: NOW });
    expect(data.dashboard).toEqual(aggregateMetrics(ROWS, { range: "24h", now: NOW }));
    expect(data.repositories).toEqual([{ id: fx.repositoryId, name: "shop" }]);
    const other = await loadDashboard({ range: "24h", now: NOW, repositoryId: "no-such-repository" });
    expect(other.dashboard.totals.questions).toBe(0);
    await client.questionMetric.deleteMany({});
  });

  it("lists recent questions with their text and a link to their session", async () => {
    const silent = { write: () => undefined };
    const first = await askQuestion(
      { repository: fx.repositoryId, question: "Where is the order total computed?" },
      silent,
      {
        model: null,
      },
    );
    const second = await askQuestion(
      {
        repository: fx.repositoryId,
        question: "Why does create_order raise PaymentDeclined?",
        overrides: { mode: "diagnostic" },
      },
      silent,
      { model: null },
    );
    const data = await loadDashboard({ range: "24h" });
    expect(data.dashboard.totals.questions).toBe(2);
    expect(data.dashboard.totals.byMode.diagnostic).toBeGreaterThanOrEqual(1);
    expect(data.recent.map((r) => r.question)).toEqual([
      "Why does create_order raise PaymentDeclined?",
      "Where is the order total computed?",
    ]);
    expect(data.recent[0]).toMatchObject({
      mode: "diagnostic",
      forcedMode: true,
      passes: second.metadata.passesUsed,
      repositoryName: "shop",
      href: `/repos/${fx.repositoryId}?session=${second.sessionId}`,
    });
    expect(data.recent[1]?.href).toBe(`/repos/${fx.repositoryId}?session=${first.sessionId}`);
  });
});
