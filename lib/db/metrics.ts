/**
 * Per-question metrics: one row per answered (or failed) question, read by the
 * admin dashboards.
 */
import "server-only";
import { db } from "./client.ts";

export interface QuestionMetricInput {
  repositoryId: string;
  sessionId: string | null;
  mode: string;
  forcedMode: boolean;
  quality: string;
  passes: number;
  gapsIdentified: number;
  gapsResolved: number;
  gapsUnresolved: number;
  tokens: number;
  latencyMs: number;
  phases: Record<string, number | number[]>;
  fallback: boolean;
  error: string | null;
}

export async function recordQuestionMetric(input: QuestionMetricInput): Promise<void> {
  const client = await db();
  await client.questionMetric.create({ data: { ...input, phases: JSON.stringify(input.phases) } });
}
