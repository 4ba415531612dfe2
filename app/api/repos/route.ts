/**
 * GET lists repositories with status and build progress; POST adds one — a local folder
 * ({ path }) or a Git remote ({ url, branch? }) — and starts indexing it (202).
 */
import { getRepositoryView, listRepositoryViews } from "@/lib/db/ui-queries";
import { errorResponse } from "@/lib/errors";
import { addRepository } from "@/lib/indexer/jobs";
import { readJsonBody, validateBody } from "../parse-request";
import { addRepositorySchemaFor } from "./schema";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  try {
    return Response.json({ repositories: await listRepositoryViews() });
  } catch (error) {
    return errorResponse(error);
  }
}

export async function POST(request: Request): Promise<Response> {
  try {
    const body = await readJsonBody(request, { surface: "repo_form" });
    const input = validateBody(body, addRepositorySchemaFor(body), "repo_form");
    const repository = await addRepository(input);
    return Response.json({ repository: await getRepositoryView(repository.id) }, { status: 202 });
  } catch (error) {
    return errorResponse(error);
  }
}
