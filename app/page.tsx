/** Repositories: add a local folder, watch it index, re-index, and open its chat. */
import { RepositoryDashboard } from "@/components/repos/repository-dashboard";
import { listRepositoryViews } from "@/lib/db/ui-queries";

export const dynamic = "force-dynamic";

export default async function RepositoriesPage() {
  const repositories = await listRepositoryViews();
  return (
    <section>
      <h1>Repositories</h1>
      <RepositoryDashboard initial={repositories} />
    </section>
  );
}
