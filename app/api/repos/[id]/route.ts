/**
 * GET one repository: its serving generation's stats and the progress of its latest
 * build (readers). DELETE removes it with its whole index (repository managers; 409
 * while a build is queued or running).
 */
import { seesGitReasons } from "@/lib/auth/guards";
import { getRepositoryView } from "@/lib/db/ui-queries";
import { WayfinderError } from "@/lib/errors";
import { removeRepository } from "@/lib/builds/jobs";
import { repositoryViewFor } from "@/lib/sources/git-errors";
import { apiRoute } from "../../api-route";
import { repositoryParamsSchema } from "./schema";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

async function repositoryOf(context: Context) {
  const params = repositoryParamsSchema.safeParse(await context.params);
  const repository = params.success ? await getRepositoryView(params.data.id) : null;
  if (!repository) throw new WayfinderError("not_found:repository", "No such repository.");
  return repository;
}

export const GET = apiRoute<Context>({ access: "reader" }, async (_request, identity, context) =>
  Response.json({ repository: repositoryViewFor(await repositoryOf(context), seesGitReasons(identity)) }),
);

export const DELETE = apiRoute<Context>({ access: "manager" }, async (_request, _identity, context) => {
  const repository = await repositoryOf(context);
  await removeRepository(repository.id);
  return new Response(null, { status: 204 });
});
