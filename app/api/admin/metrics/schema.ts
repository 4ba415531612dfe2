/** Query schema of GET /api/admin/metrics: the time range and an optional repository filter. */
import { z } from "zod";
import { METRICS_RANGES } from "@/lib/admin/metrics";

export const metricsQuerySchema = z.object({
  range: z
    .enum(METRICS_RANGES, { error: `range must be one of ${METRICS_RANGES.join(", ")}.` })
    .default("7d"),
  repositoryId: z.string().min(1).max(200).optional(),
});
