/** DELETE /api/admin/golden/:id removes a golden question and its run history. */
import { removeGoldenQuestion } from "@/lib/admin/golden";
import { apiRoute } from "../../../api-route";

export const dynamic = "force-dynamic";

export const DELETE = apiRoute<{ params: Promise<{ id: string }> }>(
  { access: "admin" },
  async (_request, _admin, context) => {
    await removeGoldenQuestion((await context.params).id);
    return new Response(null, { status: 204 });
  },
);
