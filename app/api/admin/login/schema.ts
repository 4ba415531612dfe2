/** Request schema of POST /api/admin/login: the token, and an optional name for the change log. */
import { tokenLoginSchema } from "@/lib/auth/login-schema";

export const loginSchema = tokenLoginSchema("admin token");
