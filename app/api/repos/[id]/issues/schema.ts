/** Query schema of GET /api/repos/[id]/issues: optional category and severity filters. */
import { z } from "zod";
import { FINDING_CATEGORIES, SEVERITIES } from "@/lib/db/wiki-shapes";

export const issuesQuerySchema = z.object({
  category: z.enum(FINDING_CATEGORIES).optional(),
  severity: z.enum(SEVERITIES).optional(),
});
