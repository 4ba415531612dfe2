/** /admin/settings: engine budgets and switches, provider and model, presets, change log. */
import type { Metadata } from "next";
import { AdminShell } from "@/components/admin/admin-shell";
import { SettingsForm } from "@/components/admin/settings-form";
import { requireAdminPage } from "@/lib/auth/admin-page";
import { getSettingsView } from "@/lib/admin/settings";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Admin settings" };

export default async function AdminSettingsPage() {
  const session = await requireAdminPage("/admin/settings");
  return (
    <AdminShell title="Settings" actor={session.actor}>
      <SettingsForm initial={await getSettingsView()} />
    </AdminShell>
  );
}
