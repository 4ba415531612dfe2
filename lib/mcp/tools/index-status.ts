/** index_status: a repository's serving generation and commit, its latest build, and its Git source and polling. */
import "server-only";
import { z } from "zod";
import { getGeneration } from "../../db/generations.ts";
import { requireRepository } from "../../db/repositories.ts";
import { getSource } from "../../db/source-store.ts";
import { getRepositoryView } from "../../db/ui-queries.ts";
import { WayfinderError } from "../../errors.ts";
import { readerGitMessage } from "../../sources/git-errors.ts";
import { sourceOf } from "../pin.ts";
import { repository, source } from "../schemas.ts";
import { defineTool } from "../tool.ts";

export const indexStatusTool = defineTool({
  name: "index_status",
  title: "Index status",
  description:
    "A repository's serving generation and commit, its latest build, and its Git source and polling.",
  input: { repository },
  output: {
    repositoryId: z.string(),
    repository: z.string(),
    status: z.string(),
    source: z.object({
      ...source,
      pollMinutes: z.number().int().nullable(),
      lastPolledAt: z.string().nullable(),
      pollError: z.string().nullable(),
      remoteHead: z.string().nullable(),
    }),
    active: z
      .object({
        generation: z.number().int(),
        commit: z.string().nullable(),
        finishedAt: z.string().nullable(),
        files: z.number().int(),
        symbols: z.number().int(),
        edges: z.number().int(),
      })
      .nullable(),
    build: z
      .object({
        generation: z.number().int(),
        status: z.string(),
        phase: z.string(),
        filesDone: z.number().int(),
        filesTotal: z.number().int(),
        error: z.string().nullable(),
        commit: z.string().nullable(),
      })
      .nullable(),
  },
  async handle(input, { options }) {
    // git's own reason for an unreachable remote only for those who may see it (git-errors.ts).
    const reason = (message: string | null) =>
      options.gitReasons === false ? readerGitMessage(message) : message;
    const repo = await requireRepository(input.repository);
    const [view, src] = await Promise.all([getRepositoryView(repo.id), getSource(repo.id)]);
    if (!view || !src)
      throw new WayfinderError("not_found:repository", `No indexed repository "${input.repository}".`);
    const active = repo.activeGenerationId ? await getGeneration(repo.activeGenerationId) : null;
    const latest = view.build ? await getGeneration(view.build.generationId) : null;
    return {
      repositoryId: repo.id,
      repository: repo.name,
      status: view.status,
      source: {
        ...sourceOf(repo),
        pollMinutes: src.pollMinutes,
        lastPolledAt: src.lastPolledAt?.toISOString() ?? null,
        pollError: reason(src.pollError),
        remoteHead: src.remoteHeadSha,
      },
      active: active
        ? {
            generation: active.number,
            commit: active.commitSha ?? null,
            finishedAt: active.finishedAt?.toISOString() ?? null,
            files: view.active?.stats.files ?? 0,
            symbols: view.active?.stats.symbols ?? 0,
            edges: view.active?.stats.edges ?? 0,
          }
        : null,
      build: view.build
        ? {
            generation: view.build.number,
            status: view.build.status,
            phase: view.build.phase,
            filesDone: view.build.filesDone,
            filesTotal: view.build.filesTotal,
            error: reason(view.build.error),
            commit: latest?.commitSha ?? null,
          }
        : null,
    };
  },
});
