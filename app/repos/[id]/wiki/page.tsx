/** The wiki's overview page of a repository: `/repos/[id]/wiki`. */
import type { Metadata } from "next";
import { WikiRoute } from "@/components/wiki/wiki-route";

export const dynamic = "force-dynamic";

interface PageProps {
  params: Promise<{ id: string }>;
}

export const metadata: Metadata = { title: "Wiki" };

export default async function WikiOverviewPage({ params }: PageProps) {
  const { id } = await params;
  return <WikiRoute repositoryId={id} slug="" />;
}
