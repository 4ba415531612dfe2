/** Request schema of POST /api/access/login: the team access token, and an optional name for the logs. */
import { tokenLoginSchema } from "@/lib/auth/login-schema";

export const accessLoginSchema = tokenLoginSchema("access token");
