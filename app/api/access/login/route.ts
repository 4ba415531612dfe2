/**
 * POST /api/access/login (token mode): checks the team access token and sets the
 * signed reader cookie. 401 on a wrong token (counted), 429 after too many, 404 in
 * other modes.
 */
import { assertNotThrottled, recordTokenFailure, recordTokenSuccess } from "@/lib/auth/token-throttle";
import {
  ACCESS_COOKIE,
  ACCESS_SESSION_SECONDS,
  signAccessSession,
  verifyAccessToken,
} from "@/lib/auth/access-token";
import { accessConfig } from "@/lib/auth/config";
import { sessionCookie } from "@/lib/auth/cookies";
import { unauthorized } from "@/lib/auth/guards";
import { WayfinderError } from "@/lib/errors";
import { apiRoute } from "../../api-route";
import { parseJsonBody } from "../../parse-request";
import { accessLoginSchema } from "./schema";

export const dynamic = "force-dynamic";

export const POST = apiRoute<unknown, null>({ access: "public" }, async (request) => {
  if (accessConfig().mode !== "token") throw new WayfinderError("not_found:access", "Not found.");
  await assertNotThrottled(request);
  const input = await parseJsonBody(request, accessLoginSchema, "login");
  if (!verifyAccessToken(input.token)) {
    await recordTokenFailure(request);
    throw unauthorized("reader");
  }
  await recordTokenSuccess(request);
  const actor = input.name || "team";
  const value = signAccessSession({ actor, expiresAt: Date.now() + ACCESS_SESSION_SECONDS * 1000 });
  const response = Response.json({ actor });
  response.headers.set("set-cookie", sessionCookie(request, ACCESS_COOKIE, value, ACCESS_SESSION_SECONDS));
  return response;
});
