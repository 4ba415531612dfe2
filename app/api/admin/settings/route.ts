/**
 * GET the settings view (effective values, defaults, presets, provider, change log);
 * PUT a change (400 with field errors when invalid); DELETE resets to the defaults.
 */
import { getSettingsView, resetSettings, saveSettings } from "@/lib/admin/settings";
import { parseJsonBody } from "../../parse-request";
import { apiRoute } from "../../api-route";
import { saveSettingsSchema } from "./schema";

export const dynamic = "force-dynamic";

export const GET = apiRoute({ access: "admin" }, async () => Response.json(await getSettingsView()));

export const PUT = apiRoute({ access: "admin" }, async (request, admin) => {
  const input = await parseJsonBody(request, saveSettingsSchema, "settings");
  return Response.json(await saveSettings(input, admin.actor));
});

export const DELETE = apiRoute({ access: "admin" }, async (_request, admin) =>
  Response.json(await resetSettings(admin.actor)),
);
