/** /admin/sources: how each repository is kept fresh — poll schedules and push webhooks of Git sources. */
import type { Metadata } from "next";
import { headers } from "next/headers";
import { AdminShell } from "@/components/admin/admin-shell";
import { RefreshSettingsList } from "@/components/admin/refresh-settings";
import { requireAdminPage } from "@/lib/auth/admin-page";
import { listRefreshSettings } from "@/lib/sources/settings";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sources" };

export default async function AdminSourcesPage() {
  const session = await requireAdminPage("/admin/sources");
  const h = await headers();
  const origin = `${h.get("x-forwarded-proto")?.split(",")[0]?.trim() ?? "http"}://${h.get("x-forwarded-host") ?? h.get("host") ?? "localhost"}`;
  return (
    <AdminShell
      title="Sources"
      actor={session.actor}
      intro="Repositories added by Git URL follow their branch: poll the remote every few minutes, or point a push webhook at Wayfinder. A moved branch queues one incremental build."
    >
      <RefreshSettingsList initial={await listRefreshSettings()} origin={origin} />
    </AdminShell>
  );
}
