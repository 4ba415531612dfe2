/**
 * POST /api/admin/golden/run starts a run of a repository's golden questions in the
 * background and answers 202 at once; the page polls GET /api/admin/golden, whose
 * `running` flag turns false when every run is recorded.
 */
import { isGoldenRunInProgress, runGoldenQuestions } from "@/lib/admin/golden";
import { getGoldenQuestion, getRepositoryBrief } from "@/lib/db/admin-store";
import { WayfinderError } from "@/lib/errors";
import { parseJsonBody } from "../../../parse-request";
import { apiRoute } from "../../../api-route";
import { runGoldenSchema } from "./schema";

export const dynamic = "force-dynamic";

export const POST = apiRoute({ access: "admin" }, async (request) => {
  const input = await parseJsonBody(request, runGoldenSchema, "golden_run");
  if (!(await getRepositoryBrief(input.repositoryId))) {
    throw new WayfinderError("not_found:repository", "No such repository.");
  }
  if (input.questionId) {
    const question = await getGoldenQuestion(input.questionId);
    if (question?.repositoryId !== input.repositoryId) {
      throw new WayfinderError("not_found:golden", "No such golden question in this repository.");
    }
  }
  const run = runGoldenQuestions({ ...input, trigger: "manual" });
  run.catch((error: unknown) => console.error("[wayfinder] golden run failed:", error));
  return Response.json({ running: isGoldenRunInProgress(input.repositoryId) }, { status: 202 });
});
