/** /admin/golden: golden questions per repository, their runs and history. */
import type { Metadata } from "next";
import { AdminShell } from "@/components/admin/admin-shell";
import { GoldenQuestions } from "@/components/admin/golden-questions";
import { listGolden } from "@/lib/admin/golden";
import { requireAdminPage } from "@/lib/auth/admin-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Golden questions" };

export default async function AdminGoldenPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const session = await requireAdminPage("/admin/golden");
  const repository = (await searchParams).repository;
  return (
    <AdminShell
      title="Golden questions"
      actor={session.actor}
      intro="Questions whose answers must cite certain files. A run passes when every expected file is among the verified citations."
    >
      <GoldenQuestions initial={await listGolden(typeof repository === "string" ? repository : null)} />
    </AdminShell>
  );
}
