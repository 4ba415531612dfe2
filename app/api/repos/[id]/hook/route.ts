/**
 * POST /api/repos/<id>/hook: a push webhook from GitHub, Gitea/Forgejo or GitLab.
 * Authenticated by the repository's webhook secret (HMAC of the raw body, or GitLab's
 * token), not by a person: 401 when it does not match, 202 with what was done
 * (a build queued, already queued or running, or the push ignored and why).
 */
import { handlePushWebhook } from "@/lib/builds/push-webhook";
import { WayfinderError } from "@/lib/errors";
import { apiRoute } from "../../../api-route";
import { readBoundedBody } from "../../../parse-request";
import { repositoryParamsSchema } from "../schema";

export const dynamic = "force-dynamic";

/** Push payloads list at most a few dozen commits; GitHub's own cap is 25 MB. */
const MAX_BODY_BYTES = 25 * 1024 * 1024;

// Public to people: the handler checks the repository's webhook signature.
export const POST = apiRoute<{ params: Promise<{ id: string }> }, null>(
  { access: "public" },
  async (request, _identity, context) => {
    const params = repositoryParamsSchema.safeParse(await context.params);
    if (!params.success) throw new WayfinderError("not_found:repository", "No such repository.");
    const body = await readBoundedBody(request, MAX_BODY_BYTES);
    const result = await handlePushWebhook({ repositoryId: params.data.id, headers: request.headers, body });
    return Response.json(result, { status: 202 });
  },
);
