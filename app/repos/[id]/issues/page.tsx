/** The issues store of a repository: `/repos/[id]/issues?category=&severity=`. */
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageAccess } from "@/lib/auth/page";
import { IssuesView } from "@/components/issues/issues-view";
import { RepositoryTabs } from "@/components/wiki/repository-tabs";
import { loadIssuesView, parseIssuesFilter } from "@/lib/wiki/browse";

export const dynamic = "force-dynamic";

interface PageProps {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export const metadata: Metadata = { title: "Issues" };

export default async function IssuesPage({ params, searchParams }: PageProps) {
  const [{ id }, query] = await Promise.all([params, searchParams]);
  await requirePageAccess("reader", `/repos/${encodeURIComponent(id)}/issues`);
  const data = await loadIssuesView(id, parseIssuesFilter(query));
  if (!data) notFound();
  return (
    <section>
      <RepositoryTabs
        repositoryId={data.repository.id}
        name={data.repository.name}
        generation={data.repository.active?.number ?? null}
        current="issues"
      />
      <IssuesView data={data} />
    </section>
  );
}
