/**
 * GET the settings view (effective values, defaults, presets, provider, change log);
 * PUT a change (400 with field errors when invalid); DELETE resets to the defaults.
 */
import { getSettingsView, resetSettings, saveSettings } from "@/lib/admin/settings";
import { parseJsonBody } from "../../parse-request";
import { adminRoute } from "../admin-route";
import { saveSettingsSchema } from "./schema";

export const dynamic = "force-dynamic";

export const GET = adminRoute(async () => Response.json(await getSettingsView()));

export const PUT = adminRoute(async (request, admin) => {
  const input = await parseJsonBody(request, saveSettingsSchema, "settings");
  return Response.json(await saveSettings(input, admin.actor));
});

export const DELETE = adminRoute(async (_request, admin) => Response.json(await resetSettings(admin.actor)));
