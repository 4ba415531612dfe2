/** /admin/secrets: what indexing kept out of each repository's index. */
import type { Metadata } from "next";
import { AdminShell } from "@/components/admin/admin-shell";
import { SecretsReport } from "@/components/admin/secrets-report";
import { requireAdminPage } from "@/lib/auth/admin-page";
import { loadSecretReports } from "@/lib/admin/secrets";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Secrets" };

export default async function AdminSecretsPage() {
  const session = await requireAdminPage("/admin/secrets");
  return (
    <AdminShell
      title="Secrets"
      actor={session.actor}
      intro="Secret files (.env, private keys, credentials) are never read into the index, and secrets found inside other files are replaced by a marker. Their values are never stored or shown."
    >
      <SecretsReport repositories={await loadSecretReports()} />
    </AdminShell>
  );
}
