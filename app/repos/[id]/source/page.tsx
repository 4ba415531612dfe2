/**
 * The source view: `?path=…&lines=10-20[&generation=<id>]`. Shows a file exactly as
 * it was indexed (from the database, never from disk), so only paths present in the
 * index exist here; anything else, traversal attempts included, is a 404.
 */
import { BreakableName } from "@/components/ui/breakable-name";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageAccess } from "@/lib/auth/page";
import { SourceView } from "@/components/source/source-view";
import { parseLineRange } from "@/components/source/source-href";
import { generationNumber, getGeneration } from "@/lib/db/generations";
import { getFile, getFileContent } from "@/lib/db/index-reads";
import { generationBelongsTo, getRepositoryView } from "@/lib/db/ui-queries";
import { isSafeRelativePath } from "@/lib/paths";

export const dynamic = "force-dynamic";

interface PageProps {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

function single(value: string | string[] | undefined): string | null {
  return typeof value === "string" ? value : null;
}

export async function generateMetadata({ searchParams }: PageProps): Promise<Metadata> {
  const path = single((await searchParams).path);
  return { title: path ?? "Source" };
}

export default async function SourcePage({ params, searchParams }: PageProps) {
  const [{ id }, query] = await Promise.all([params, searchParams]);
  await requirePageAccess("reader", `/repos/${encodeURIComponent(id)}`);
  const path = single(query.path);
  const requestedGeneration = single(query.generation);
  const repository = await getRepositoryView(id);
  // The index is the allow-list: a path that is not a clean relative path cannot be in it.
  if (!repository || !path || !isSafeRelativePath(path)) notFound();
  const generationId = requestedGeneration ?? repository.active?.generationId ?? null;
  if (!generationId) notFound();
  if (requestedGeneration && !(await generationBelongsTo(requestedGeneration, repository.id))) notFound();
  const [file, content, generation] = await Promise.all([
    getFile(generationId, path),
    getFileContent(generationId, path),
    getGeneration(generationId),
  ]);
  if (!file || content === null || !generation) notFound();

  const range = parseLineRange(single(query.lines));
  const mark =
    range && range.start <= file.lines ? { start: range.start, end: Math.min(range.end, file.lines) } : null;
  const pinnedOld = requestedGeneration !== null && requestedGeneration !== repository.active?.generationId;
  const segments = path.split("/");

  return (
    <article className="source-page" data-testid="source-page">
      <header className="source-header">
        <nav aria-label="Breadcrumb" className="small">
          <Link href={`/repos/${encodeURIComponent(repository.id)}`}>{repository.name}</Link>
          {segments.map((segment, i) => (
            <span key={i}>
              {" / "}
              {i === segments.length - 1 ? <strong>{segment}</strong> : segment}
            </span>
          ))}
        </nav>
        <h1 className="source-title name-wrap" data-testid="source-path">
          <BreakableName text={path} />
        </h1>
        <div className="stat-row">
          <span className="badge ok">generation {generationNumber(generation)}</span>
          <span>{file.language}</span>
          <span>{file.lines.toLocaleString("en-US")} lines</span>
          {mark ? (
            <span data-testid="source-range">
              lines {mark.start}–{mark.end} highlighted
            </span>
          ) : null}
        </div>
        {pinnedOld ? (
          <p className="notice notice-info small" role="status">
            This is the file as indexed in generation {generationNumber(generation)}, which the answer cited.{" "}
            {repository.active ? (
              <Link
                href={`/repos/${encodeURIComponent(repository.id)}/source?${new URLSearchParams({
                  path,
                  ...(mark ? { lines: `${mark.start}-${mark.end}` } : {}),
                }).toString()}`}
              >
                Open the current version
              </Link>
            ) : null}
          </p>
        ) : null}
        {range && !mark ? (
          <p className="notice notice-warning small" role="status">
            Lines {range.start}–{range.end} are past the end of this file ({file.lines} lines).
          </p>
        ) : null}
      </header>
      <SourceView content={content} language={file.language} mark={mark} />
    </article>
  );
}
