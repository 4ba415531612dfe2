/** /admin/files: per repository, files by class and the files skipped or indexed as text. */
import type { Metadata } from "next";
import { AdminShell } from "@/components/admin/admin-shell";
import { FileReports } from "@/components/admin/file-reports";
import { loadFileReports } from "@/lib/admin/file-reports";
import { requireAdminPage } from "@/lib/auth/admin-page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Files" };

export default async function AdminFilesPage() {
  const session = await requireAdminPage("/admin/files");
  return (
    <AdminShell
      title="Files"
      actor={session.actor}
      intro="What each repository's serving index holds by file class, and the files its build skipped or could only index as text, with why and what to do."
    >
      <FileReports repositories={await loadFileReports()} />
    </AdminShell>
  );
}
