/**
 * Per-question metrics: one row per answered (or failed) question, read by the
 * admin dashboards.
 */
import "server-only";
import { db } from "./client.ts";
import type { QuestionMetric } from "./generated/client.ts";

/** A stored question metric, as Prisma reads it: phases still as JSON. */
export type MetricRow = QuestionMetric;

/** A metric as a question's run records it: the row without what the database assigns. */
export type QuestionMetricInput = Omit<MetricRow, "id" | "createdAt" | "phases"> & {
  phases: Record<string, number | number[]>;
};

export async function recordQuestionMetric(input: QuestionMetricInput): Promise<void> {
  const client = await db();
  await client.questionMetric.create({ data: { ...input, phases: JSON.stringify(input.phases) } });
}
