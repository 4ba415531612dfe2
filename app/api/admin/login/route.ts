/** POST /api/admin/login: checks the token and sets the admin session cookie (401 on a wrong token). */
import { DEFAULT_ACTOR, loginCookie, unauthorized } from "@/lib/admin/auth";
import { verifyAdminToken } from "@/lib/admin/token";
import { errorResponse } from "@/lib/errors";
import { parseJsonBody } from "../../parse-request";
import { loginSchema } from "./schema";

export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  try {
    const input = await parseJsonBody(request, loginSchema, "login");
    if (!verifyAdminToken(input.token)) throw unauthorized();
    const actor = input.name || DEFAULT_ACTOR;
    const response = Response.json({ actor });
    response.headers.set("set-cookie", loginCookie(request, actor));
    response.headers.set("cache-control", "no-store");
    return response;
  } catch (error) {
    return errorResponse(error);
  }
}
