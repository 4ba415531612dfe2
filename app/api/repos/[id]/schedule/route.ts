/**
 * A Git source's refresh settings (admins only: the answer holds the webhook secret):
 * GET the poll schedule, its last outcome and the push webhook (path and secret);
 * PUT { pollMinutes } sets or clears the schedule.
 */
import { getRepositoryView } from "@/lib/db/ui-queries";
import { WayfinderError } from "@/lib/errors";
import { describeRefresh, setRefreshSchedule } from "@/lib/sources/settings";
import { apiRoute } from "../../../api-route";
import { parseJsonBody } from "../../../parse-request";
import { repositoryParamsSchema } from "../schema";
import { scheduleSchema } from "./schema";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

async function repositoryId(context: Context): Promise<string> {
  const params = repositoryParamsSchema.safeParse(await context.params);
  const repository = params.success ? await getRepositoryView(params.data.id) : null;
  if (!repository) throw new WayfinderError("not_found:repository", "No such repository.");
  return repository.id;
}

export const GET = apiRoute<Context>({ access: "admin" }, async (_request, _admin, context) =>
  Response.json(await describeRefresh(await repositoryId(context))),
);

export const PUT = apiRoute<Context>({ access: "admin" }, async (request, _admin, context) => {
  const id = await repositoryId(context);
  const input = await parseJsonBody(request, scheduleSchema, "schedule");
  return Response.json(await setRefreshSchedule(id, input.pollMinutes));
});
