/** Route parameter schema of POST /api/sessions/[id]/share. */
import { z } from "zod";
import { SESSION_ID_PATTERN } from "@/lib/db/sessions";

export const sessionParamsSchema = z.object({ id: z.string().regex(SESSION_ID_PATTERN, "No such session.") });
