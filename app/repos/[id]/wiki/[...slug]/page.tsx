/** A folder or file page of the wiki: `/repos/[id]/wiki/dir/<path>` or `/repos/[id]/wiki/file/<path>`. */
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageAccess } from "@/lib/auth/page";
import { parseSlug } from "@/lib/wiki/slugs";
import { WikiRoute } from "@/components/wiki/wiki-route";

export const dynamic = "force-dynamic";

interface PageProps {
  params: Promise<{ id: string; slug: string[] }>;
}

function slugOf(parts: string[]): string {
  return parts.map((p) => decodeURIComponent(p)).join("/");
}

export async function generateMetadata({ params }: PageProps): Promise<Metadata> {
  const parsed = parseSlug(slugOf((await params).slug));
  return { title: parsed?.path ? `${parsed.path} · Wiki` : "Wiki" };
}

export default async function WikiPage({ params }: PageProps) {
  const { id, slug } = await params;
  await requirePageAccess("reader", `/repos/${encodeURIComponent(id)}/wiki`);
  const full = slugOf(slug);
  if (!parseSlug(full)) notFound();
  return <WikiRoute repositoryId={id} slug={full} />;
}
