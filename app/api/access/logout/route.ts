/** POST /api/access/logout: clears the team access cookie (always succeeds). */
import { ACCESS_COOKIE } from "@/lib/auth/access-token";
import { sessionCookie } from "@/lib/auth/cookies";
import { apiRoute } from "../../api-route";

export const dynamic = "force-dynamic";

export const POST = apiRoute<unknown, null>(
  { access: "public" },
  async (request) =>
    new Response(null, {
      status: 204,
      headers: { "set-cookie": sessionCookie(request, ACCESS_COOKIE, "", 0) },
    }),
);
