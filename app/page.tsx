/** Repositories: add a local folder, watch it index, re-index, and open its chat. */
import { RepositoryDashboard } from "@/components/repos/repository-dashboard";
import { satisfies } from "@/lib/auth/guards";
import { requirePageAccess } from "@/lib/auth/page";
import { listRepositoryViews } from "@/lib/db/ui-queries";

export const dynamic = "force-dynamic";

export default async function RepositoriesPage() {
  const identity = await requirePageAccess("reader", "/");
  const repositories = await listRepositoryViews();
  return (
    <section>
      <h1>Repositories</h1>
      <RepositoryDashboard initial={repositories} canManage={satisfies(identity, "manager")} />
    </section>
  );
}
