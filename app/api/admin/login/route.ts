/** POST /api/admin/login: checks the token and sets the admin session cookie (401 on a wrong token, 429 after too many). */
import { checkToken, loginCookie } from "@/lib/auth/admin-login";
import { DEFAULT_ACTOR } from "@/lib/auth/identity";
import { assertNotThrottled } from "@/lib/auth/token-throttle";
import { apiRoute } from "../../api-route";
import { parseJsonBody } from "../../parse-request";
import { loginSchema } from "./schema";

export const dynamic = "force-dynamic";

export const POST = apiRoute<unknown, null>({ access: "public" }, async (request) => {
  await assertNotThrottled(request);
  const input = await parseJsonBody(request, loginSchema, "login");
  const { actor } = await checkToken(request, input.token, input.name || DEFAULT_ACTOR, "cookie");
  const response = Response.json({ actor });
  response.headers.set("set-cookie", loginCookie(request, actor));
  return response;
});
