/** Repositories: add a local folder, watch it index, re-index, and open its chat. */
import { RepositoryDashboard } from "@/components/repos/repository-dashboard";
import { satisfies, seesGitReasons } from "@/lib/auth/guards";
import { requirePageAccess } from "@/lib/auth/page";
import { listRepositoryViews } from "@/lib/db/ui-queries";
import { repositoryViewFor } from "@/lib/sources/git-errors";

export const dynamic = "force-dynamic";

export default async function RepositoriesPage() {
  const identity = await requirePageAccess("reader", "/");
  const full = seesGitReasons(identity);
  const repositories = (await listRepositoryViews()).map((r) => repositoryViewFor(r, full));
  return (
    <section>
      <h1>Repositories</h1>
      <RepositoryDashboard initial={repositories} canManage={satisfies(identity, "manager")} />
    </section>
  );
}
