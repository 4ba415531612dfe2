import { satisfies } from "@/lib/auth/guards";
import type { Identity } from "@/lib/auth/identity";
import { listRepositories } from "@/lib/db/repositories";
import { apiRoute } from "../api-route";

export const dynamic = "force-dynamic";

/**
 * Liveness and database reachability, used by Playwright's webServer and load
 * balancers; open to all, with the repository count for readers only.
 */
export const GET = apiRoute<unknown, Identity | null>({ access: "public" }, async (_request, identity) => {
  const repositories = await listRepositories();
  return Response.json(
    satisfies(identity, "reader") ? { ok: true, repositories: repositories.length } : { ok: true },
  );
});
