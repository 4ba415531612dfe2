/** POST /api/admin/logout: clears the admin session cookie (always succeeds). */
import { logoutCookie } from "@/lib/auth/admin-login";
import { apiRoute } from "../../api-route";

export const dynamic = "force-dynamic";

export const POST = apiRoute<unknown, null>(
  { access: "public" },
  async (request) => new Response(null, { status: 204, headers: { "set-cookie": logoutCookie(request) } }),
);
