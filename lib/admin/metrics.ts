/**
 * Dashboard numbers from QuestionMetric rows: questions per mode over time (hourly
 * for spans up to two days, daily up to four months, weekly beyond), the passes
 * histogram, gap resolution, tokens, latency p50/p95 per mode, error and fallback
 * rates. The aggregation is pure (rows in, numbers out) so it is tested on known
 * rows; `loadDashboard` is the thin DB edge. Failed questions count towards volume
 * and the error rate only: their passes, tokens and latency would skew the rest.
 */
import "server-only";
import {
  listQuestionMetrics,
  listRecentQuestions,
  listRepositoryBriefs,
  type RecentQuestionRow,
} from "../db/admin-store.ts";
import type { MetricRow } from "../db/metrics.ts";
import { sessionOwners } from "../db/sessions.ts";
import { EVERYONE, mayRead, type ConversationAccess } from "../qa/conversations.ts";
import { QUERY_MODE_LIST, type QueryMode } from "../qa/types.ts";

export const METRICS_RANGES = ["24h", "7d", "30d", "all"] as const;
export type MetricsRange = (typeof METRICS_RANGES)[number];
export type BucketSize = "hour" | "day" | "week";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RANGE_MS: Record<Exclude<MetricsRange, "all">, number> = { "24h": DAY, "7d": 7 * DAY, "30d": 30 * DAY };

/** What the dashboard aggregates of a stored metric. */
export type MetricInput = Pick<
  MetricRow,
  | "mode"
  | "forcedMode"
  | "passes"
  | "gapsIdentified"
  | "gapsResolved"
  | "gapsUnresolved"
  | "tokens"
  | "latencyMs"
  | "fallback"
  | "error"
  | "createdAt"
>;

export interface TimelineBucket {
  /** ISO start of the bucket (UTC) */
  start: string;
  total: number;
  byMode: Record<QueryMode, number>;
  answered: number;
  errors: number;
  fallbacks: number;
  tokens: number;
  avgTokens: number | null;
  gapsIdentified: number;
  gapsResolved: number;
  gapResolutionRate: number | null;
  errorRate: number | null;
  fallbackRate: number | null;
}

export interface LatencyByMode {
  mode: QueryMode;
  count: number;
  p50: number | null;
  p95: number | null;
}

export interface Dashboard {
  range: MetricsRange;
  bucket: BucketSize;
  from: string;
  to: string;
  totals: {
    questions: number;
    answered: number;
    errors: number;
    fallbacks: number;
    forced: number;
    errorRate: number | null;
    fallbackRate: number | null;
    tokens: number;
    avgTokens: number | null;
    gapsIdentified: number;
    gapsResolved: number;
    gapsUnresolved: number;
    gapResolutionRate: number | null;
    byMode: Record<QueryMode, number>;
  };
  timeline: TimelineBucket[];
  passes: { passes: number; count: number }[];
  latency: LatencyByMode[];
}

// ------------------------------------------------------------- pure helpers

/** Nearest-rank percentile (p in 0–100) of unsorted values; null when there are none. */
export function percentile(values: number[], p: number): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? null;
}

export function ratio(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}

export function chooseBucket(spanMs: number): BucketSize {
  if (spanMs <= 2 * DAY) return "hour";
  if (spanMs <= 120 * DAY) return "day";
  return "week";
}

/** Start of the UTC hour, day or ISO week (Monday) holding `t`. */
export function bucketStart(t: number, size: BucketSize): number {
  if (size === "hour") return Math.floor(t / HOUR) * HOUR;
  const day = Math.floor(t / DAY) * DAY;
  if (size === "day") return day;
  const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday = 0
  return day - weekday * DAY;
}

function stepOf(size: BucketSize): number {
  return size === "hour" ? HOUR : size === "day" ? DAY : 7 * DAY;
}

function zeroModes(): Record<QueryMode, number> {
  return { conceptual: 0, diagnostic: 0, exploratory: 0, analytical: 0 };
}

function isMode(mode: string): mode is QueryMode {
  return (QUERY_MODE_LIST as readonly string[]).includes(mode);
}

/** The window a range covers; "all" starts at the oldest row (or a day ago when there is none). */
export function rangeWindow(
  range: MetricsRange,
  now: number,
  oldest: number | null,
): { from: number; to: number } {
  if (range === "all") return { from: Math.min(oldest ?? now - DAY, now - HOUR), to: now };
  return { from: now - RANGE_MS[range], to: now };
}

function emptyBucket(start: number): TimelineBucket {
  return {
    start: new Date(start).toISOString(),
    total: 0,
    byMode: zeroModes(),
    answered: 0,
    errors: 0,
    fallbacks: 0,
    tokens: 0,
    avgTokens: null,
    gapsIdentified: 0,
    gapsResolved: 0,
    gapResolutionRate: null,
    errorRate: null,
    fallbackRate: null,
  };
}

/** Every dashboard number for the rows inside [from, to]. */
export function aggregateMetrics(
  rows: MetricInput[],
  options: { range: MetricsRange; now: number },
): Dashboard {
  const oldest = rows.reduce<number | null>((m, r) => Math.min(m ?? Infinity, r.createdAt.getTime()), null);
  const { from, to } = rangeWindow(options.range, options.now, oldest);
  const inWindow = rows.filter((r) => r.createdAt.getTime() >= from && r.createdAt.getTime() <= to);
  const answered = inWindow.filter((r) => r.error === null);
  const bucket = chooseBucket(to - from);
  const step = stepOf(bucket);

  const timeline: TimelineBucket[] = [];
  const index = new Map<number, TimelineBucket>();
  for (let t = bucketStart(from, bucket); t <= to; t += step) {
    const b = emptyBucket(t);
    timeline.push(b);
    index.set(t, b);
  }
  for (const r of inWindow) {
    const b = index.get(bucketStart(r.createdAt.getTime(), bucket));
    if (!b) continue;
    b.total++;
    if (isMode(r.mode)) b.byMode[r.mode]++;
    if (r.error !== null) b.errors++;
    else {
      b.answered++;
      b.tokens += r.tokens;
      b.gapsIdentified += r.gapsIdentified;
      b.gapsResolved += r.gapsResolved;
      if (r.fallback) b.fallbacks++;
    }
  }
  for (const b of timeline) {
    b.avgTokens = b.answered ? Math.round(b.tokens / b.answered) : null;
    b.gapResolutionRate = ratio(b.gapsResolved, b.gapsIdentified);
    b.errorRate = ratio(b.errors, b.total);
    b.fallbackRate = ratio(b.fallbacks, b.answered);
  }

  const byMode = zeroModes();
  for (const r of inWindow) if (isMode(r.mode)) byMode[r.mode]++;
  const sum = (f: (r: MetricInput) => number) => answered.reduce((n, r) => n + f(r), 0);
  const tokens = sum((r) => r.tokens);
  const gapsIdentified = sum((r) => r.gapsIdentified);
  const gapsResolved = sum((r) => r.gapsResolved);
  const errors = inWindow.length - answered.length;
  const fallbacks = answered.filter((r) => r.fallback).length;

  return {
    range: options.range,
    bucket,
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    totals: {
      questions: inWindow.length,
      answered: answered.length,
      errors,
      fallbacks,
      forced: inWindow.filter((r) => r.forcedMode).length,
      errorRate: ratio(errors, inWindow.length),
      fallbackRate: ratio(fallbacks, answered.length),
      tokens,
      avgTokens: answered.length ? Math.round(tokens / answered.length) : null,
      gapsIdentified,
      gapsResolved,
      gapsUnresolved: sum((r) => r.gapsUnresolved),
      gapResolutionRate: ratio(gapsResolved, gapsIdentified),
      byMode,
    },
    timeline,
    passes: passesHistogram(answered),
    latency: latencyByMode(answered),
  };
}

/** Counts per number of passes, with every bar from 1 to the largest seen (at least 3) present. */
export function passesHistogram(rows: Pick<MetricInput, "passes">[]): { passes: number; count: number }[] {
  const max = Math.max(3, ...rows.map((r) => r.passes));
  const counts = new Map<number, number>();
  for (const r of rows) counts.set(r.passes, (counts.get(r.passes) ?? 0) + 1);
  const out: { passes: number; count: number }[] = [];
  // Zero passes only happens for failed questions; show it only if such a row slipped in.
  for (let p = counts.has(0) ? 0 : 1; p <= max; p++) out.push({ passes: p, count: counts.get(p) ?? 0 });
  return out;
}

export function latencyByMode(rows: Pick<MetricInput, "mode" | "latencyMs">[]): LatencyByMode[] {
  return QUERY_MODE_LIST.map((mode) => {
    const values = rows.filter((r) => r.mode === mode).map((r) => r.latencyMs);
    return { mode, count: values.length, p50: percentile(values, 50), p95: percentile(values, 95) };
  });
}

// ---------------------------------------------------------------- DB edge

/** A recent question as the dashboard lists it: no phases, the time as ISO text. */
export type RecentQuestion = Omit<RecentQuestionRow, "phases" | "createdAt"> & {
  createdAt: string;
  /** the chat page of the session, when the question has one the viewer may read */
  href: string | null;
  /** asked in someone else's conversation: only its numbers are shown */
  private: boolean;
};

export interface DashboardData {
  dashboard: Dashboard;
  recent: RecentQuestion[];
  repositories: { id: string; name: string }[];
  repositoryId: string | null;
}

export function sessionHref(repositoryId: string, sessionId: string | null): string | null {
  return sessionId
    ? `/repos/${encodeURIComponent(repositoryId)}?session=${encodeURIComponent(sessionId)}`
    : null;
}

export async function loadDashboard(input: {
  range: MetricsRange;
  repositoryId?: string | null;
  now?: number;
  recentLimit?: number;
  /** whose conversations the viewer may read: other people's questions show as metrics only */
  conversations?: ConversationAccess;
}): Promise<DashboardData> {
  const now = input.now ?? Date.now();
  const repositoryId = input.repositoryId ?? undefined;
  const since = input.range === "all" ? null : new Date(now - RANGE_MS[input.range]);
  const [rows, recent, repositories] = await Promise.all([
    listQuestionMetrics({ since, repositoryId }),
    listRecentQuestions({ limit: input.recentLimit ?? 25, repositoryId }),
    listRepositoryBriefs(),
  ]);
  const access = input.conversations ?? EVERYONE;
  const owners = await sessionOwners(recent.flatMap((r) => (r.sessionId ? [r.sessionId] : [])));
  const readable = (sessionId: string | null) =>
    sessionId !== null &&
    owners.has(sessionId) &&
    mayRead({ ownerKey: owners.get(sessionId) ?? null }, access);
  return {
    dashboard: aggregateMetrics(rows, { range: input.range, now }),
    recent: recent.map((r) => ({
      id: r.id,
      createdAt: r.createdAt.toISOString(),
      repositoryId: r.repositoryId,
      repositoryName: r.repositoryName,
      sessionId: readable(r.sessionId) ? r.sessionId : null,
      href: readable(r.sessionId) ? sessionHref(r.repositoryId, r.sessionId) : null,
      question: readable(r.sessionId) ? r.question : null,
      private: r.sessionId !== null && !readable(r.sessionId),
      mode: r.mode,
      forcedMode: r.forcedMode,
      quality: r.quality,
      passes: r.passes,
      gapsIdentified: r.gapsIdentified,
      gapsResolved: r.gapsResolved,
      gapsUnresolved: r.gapsUnresolved,
      tokens: r.tokens,
      latencyMs: r.latencyMs,
      fallback: r.fallback,
      error: r.error,
    })),
    repositories: repositories.map((r) => ({ id: r.id, name: r.name })),
    repositoryId: repositoryId ?? null,
  };
}
