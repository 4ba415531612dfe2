/** GET /api/admin/secrets: secret files skipped and secrets redacted per repository (admins). */
import { loadSecretReports } from "@/lib/admin/secrets";
import { apiRoute } from "../../api-route";

export const dynamic = "force-dynamic";

export const GET = apiRoute({ access: "admin" }, async () =>
  Response.json({ repositories: await loadSecretReports() }),
);
