/**
 * GET lists repositories with status and build progress (readers); POST adds one and
 * starts indexing it (202; repository managers, under the allowed folders only).
 */
import { accessConfig } from "@/lib/auth/config";
import { getRepositoryView, listRepositoryViews } from "@/lib/db/ui-queries";
import { addRepository } from "@/lib/indexer/jobs";
import { apiRoute } from "../api-route";
import { parseJsonBody } from "../parse-request";
import { addRepositorySchema } from "./schema";

export const dynamic = "force-dynamic";

export const GET = apiRoute({ access: "reader" }, async () =>
  Response.json({ repositories: await listRepositoryViews() }),
);

export const POST = apiRoute({ access: "manager", limit: "build" }, async (request) => {
  const input = await parseJsonBody(request, addRepositorySchema, "repo_form");
  const repository = await addRepository(input, accessConfig().repoRoots);
  return Response.json({ repository: await getRepositoryView(repository.id) }, { status: 202 });
});
