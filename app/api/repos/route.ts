/** GET lists repositories with status and build progress; POST adds one and starts indexing it (202). */
import { getRepositoryView, listRepositoryViews } from "@/lib/db/ui-queries";
import { errorResponse } from "@/lib/errors";
import { addRepository } from "@/lib/indexer/jobs";
import { parseJsonBody } from "../parse-request";
import { addRepositorySchema } from "./schema";

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
    const input = await parseJsonBody(request, addRepositorySchema, "repo_form");
    const repository = await addRepository(input);
    return Response.json({ repository: await getRepositoryView(repository.id) }, { status: 202 });
  } catch (error) {
    return errorResponse(error);
  }
}
