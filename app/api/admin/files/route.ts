/** GET /api/admin/files: files per class, and files skipped or indexed as text, per repository (admins). */
import { loadFileReports } from "@/lib/admin/file-reports";
import { apiRoute } from "../../api-route";

export const dynamic = "force-dynamic";

export const GET = apiRoute({ access: "admin" }, async () =>
  Response.json({ repositories: await loadFileReports() }),
);
