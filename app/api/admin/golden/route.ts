/** GET a repository's golden questions with their run history; POST adds one (201). */
import { addGoldenQuestion, listGolden } from "@/lib/admin/golden";
import { WayfinderError } from "@/lib/errors";
import { parseJsonBody } from "../../parse-request";
import { apiRoute, searchParamsOf } from "../../api-route";
import { createGoldenSchema, goldenListQuerySchema } from "./schema";

export const dynamic = "force-dynamic";

export const GET = apiRoute({ access: "admin" }, async (request) => {
  const query = goldenListQuerySchema.safeParse(searchParamsOf(request));
  if (!query.success) throw new WayfinderError("bad_request:golden", "Invalid repository id.");
  return Response.json(await listGolden(query.data.repositoryId ?? null));
});

export const POST = apiRoute({ access: "admin" }, async (request) => {
  const input = await parseJsonBody(request, createGoldenSchema, "golden");
  return Response.json({ question: await addGoldenQuestion(input) }, { status: 201 });
});
