/** POST /api/admin/logout: clears the admin session cookie (always succeeds). */
import { logoutCookie } from "@/lib/admin/auth";

export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  return new Response(null, {
    status: 204,
    headers: { "set-cookie": logoutCookie(request), "cache-control": "no-store" },
  });
}
