/** The wiki's overview page of a repository: `/repos/[id]/wiki`. */
import type { Metadata } from "next";
import { requirePageAccess } from "@/lib/auth/page";
import { WikiRoute } from "@/components/wiki/wiki-route";

export const dynamic = "force-dynamic";

interface PageProps {
  params: Promise<{ id: string }>;
}

export const metadata: Metadata = { title: "Wiki" };

export default async function WikiOverviewPage({ params }: PageProps) {
  const { id } = await params;
  await requirePageAccess("reader", `/repos/${encodeURIComponent(id)}/wiki`);
  return <WikiRoute repositoryId={id} slug="" />;
}
