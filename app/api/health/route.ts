import { listRepositories } from "@/lib/db/index-store";
import { errorResponse } from "@/lib/errors";

export const dynamic = "force-dynamic";

/** Liveness and database reachability, used by Playwright's webServer and load balancers. */
export async function GET(): Promise<Response> {
  try {
    const repositories = await listRepositories();
    return Response.json({ ok: true, repositories: repositories.length });
  } catch (error) {
    return errorResponse(error);
  }
}
