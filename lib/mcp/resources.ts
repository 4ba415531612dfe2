/** The wiki as MCP resources: wayfinder://<repository id>/wiki/<slug> (the overview: …/wiki/). */
import "server-only";
import { ResourceTemplate, type McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { getGeneration } from "../db/generations.ts";
import { listRepositories, requireRepository } from "../db/repositories.ts";
import { getWikiPage, listWikiPages } from "../db/wiki-store.ts";
import { WayfinderError } from "../errors.ts";

/** At most this many pages are listed, across repositories. */
const MAX_LISTED = 2000;

export function registerWikiResources(server: McpServer): void {
  server.registerResource(
    "wiki",
    new ResourceTemplate("wayfinder://{repository}/wiki/{+slug}", {
      list: async () => {
        const resources = [];
        for (const repo of await listRepositories()) {
          if (!repo.activeGenerationId) continue;
          for (const page of await listWikiPages(repo.activeGenerationId)) {
            resources.push({
              uri: `wayfinder://${repo.id}/wiki/${page.slug}`,
              name: `${repo.name}: ${page.title}`,
              description: page.summary.slice(0, 200),
              mimeType: "text/markdown",
            });
            if (resources.length >= MAX_LISTED) return { resources };
          }
        }
        return { resources };
      },
    }),
    {
      title: "Wiki pages",
      description: "Generated wiki pages of each repository's serving generation.",
      mimeType: "text/markdown",
    },
    async (uri, variables) => {
      const repo = await requireRepository(String(variables.repository));
      const slug = decodeURIComponent(String(variables.slug ?? ""));
      const generation = repo.activeGenerationId ? await getGeneration(repo.activeGenerationId) : null;
      const page = generation ? await getWikiPage(generation.id, slug) : null;
      if (!page) throw new WayfinderError("not_found:wiki_page", `No wiki page at ${uri.href}.`);
      return {
        contents: [{ uri: uri.href, mimeType: "text/markdown", text: `# ${page.title}\n\n${page.content}` }],
      };
    },
  );
}
