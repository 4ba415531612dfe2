/**
 * GET lists repositories with status and build progress (readers); POST adds one — a
 * local folder ({ path }) or a Git remote ({ url, branch? }) — and starts indexing it
 * (202; repository managers, local folders under the allowed roots only).
 */
import { accessConfig } from "@/lib/auth/config";
import { seesGitReasons } from "@/lib/auth/guards";
import { repositoryViewFor } from "@/lib/sources/git-errors";
import { getRepositoryView, listRepositoryViews } from "@/lib/db/ui-queries";
import { addRepository } from "@/lib/builds/jobs";
import { apiRoute } from "../api-route";
import { readJsonBody, validateBody } from "../parse-request";
import { addRepositorySchemaFor } from "./schema";

export const dynamic = "force-dynamic";

export const GET = apiRoute({ access: "reader" }, async (_request, identity) => {
  const full = seesGitReasons(identity);
  return Response.json({
    repositories: (await listRepositoryViews()).map((r) => repositoryViewFor(r, full)),
  });
});

export const POST = apiRoute({ access: "manager", limit: "build" }, async (request) => {
  const body = await readJsonBody(request, { surface: "repo_form" });
  const input = validateBody(body, addRepositorySchemaFor(body), "repo_form");
  const repository = await addRepository(input, accessConfig().repoRoots);
  return Response.json({ repository: await getRepositoryView(repository.id) }, { status: 202 });
});
