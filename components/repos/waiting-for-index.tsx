"use client";
/**
 * Shown on a repository's chat page while it has no finished index: polls the build
 * and reloads the page once the first generation is ready, or shows why it failed.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { fetchJson } from "@/components/api/fetch-json";
import type { RepositoryView } from "@/lib/db/ui-queries";
import { IndexProgress } from "./index-progress";

export function WaitingForIndex({ initial }: { initial: RepositoryView }) {
  const router = useRouter();
  const { data: repository = initial } = useQuery({
    queryKey: ["repository", initial.id],
    queryFn: async () =>
      (await fetchJson<{ repository: RepositoryView }>(`/api/repos/${encodeURIComponent(initial.id)}`))
        .repository,
    initialData: initial,
    refetchInterval: (query) => (query.state.data?.status === "indexing" ? 700 : false),
  });
  const ready = !!repository.active;
  useEffect(() => {
    if (ready) router.refresh();
  }, [ready, router]);

  return (
    <div className="card empty" data-testid="not-indexed">
      <h2>
        {repository.status === "indexing"
          ? `Indexing ${repository.name}…`
          : `${repository.name} is not indexed yet`}
      </h2>
      <p className="muted">
        {repository.status === "indexing"
          ? "Questions can be asked as soon as the first index is complete."
          : repository.status === "failed"
            ? "The last index build failed. Fix the problem and index again from the repositories page."
            : "Index it from the repositories page to ask questions."}
      </p>
      {repository.build ? (
        <div className="narrow-block">
          <IndexProgress build={repository.build} />
        </div>
      ) : null}
      {repository.build?.error ? (
        <p className="field-error small" role="alert">
          {repository.build.error}
        </p>
      ) : null}
      <p>
        <Link href="/">Back to repositories</Link>
      </p>
    </div>
  );
}
