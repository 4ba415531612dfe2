/** /admin: the metrics dashboard (charts and recent questions). */
import type { Metadata } from "next";
import { headers } from "next/headers";
import { AdminShell } from "@/components/admin/admin-shell";
import { MetricsDashboard } from "@/components/admin/metrics-dashboard";
import { loadDashboard, METRICS_RANGES, type MetricsRange } from "@/lib/admin/metrics";
import { requireAdminPage } from "@/lib/auth/admin-page";
import { pageConversations } from "@/lib/auth/conversation-owner";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Admin dashboard" };

export default async function AdminDashboardPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const session = await requireAdminPage("/admin");
  const asked = (await searchParams).range;
  const range: MetricsRange = METRICS_RANGES.includes(asked as MetricsRange) ? (asked as MetricsRange) : "7d";
  const initial = await loadDashboard({
    range,
    conversations: pageConversations(await headers(), session.identity),
  });
  return (
    <AdminShell title="Dashboard" actor={session.actor}>
      <MetricsDashboard initial={initial} initialRange={range} />
    </AdminShell>
  );
}
