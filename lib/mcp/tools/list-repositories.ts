/** list_repositories: every repository with its source, status, serving generation and commit. */
import "server-only";
import { z } from "zod";
import { getGeneration } from "../../db/generations.ts";
import { listRepositories } from "../../db/repositories.ts";
import { getRepositoryView } from "../../db/ui-queries.ts";
import { sourceOf } from "../pin.ts";
import { source } from "../schemas.ts";
import { defineTool } from "../tool.ts";

export const listRepositoriesTool = defineTool({
  name: "list_repositories",
  title: "List repositories",
  description: "Indexed repositories with their source, status, generation and commit.",
  input: {},
  output: {
    repositories: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        source: z.object(source),
        status: z.string(),
        generation: z.number().int().nullable(),
        commit: z.string().nullable(),
        indexedAt: z.string().nullable(),
        files: z.number().int(),
        symbols: z.number().int(),
      }),
    ),
  },
  async handle() {
    const rows = await listRepositories();
    const repositories = await Promise.all(
      rows.map(async (r) => {
        const view = await getRepositoryView(r.id);
        const active = r.activeGenerationId ? await getGeneration(r.activeGenerationId) : null;
        return {
          id: r.id,
          name: r.name,
          source: sourceOf(r),
          status: view?.status ?? "not-indexed",
          generation: active?.number ?? null,
          commit: active?.commitSha ?? null,
          indexedAt: active?.finishedAt?.toISOString() ?? null,
          files: view?.active?.stats.files ?? 0,
          symbols: view?.active?.stats.symbols ?? 0,
        };
      }),
    );
    return { repositories };
  },
});
