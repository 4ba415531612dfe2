/** wiki_page: a generated wiki page of the serving generation, by slug or by the path it documents. */
import "server-only";
import { z } from "zod";
import { getWikiPage, listWikiPages } from "../../db/wiki-store.ts";
import { WayfinderError } from "../../errors.ts";
import { dirSlug, fileSlug } from "../../wiki/slugs.ts";
import { pin } from "../pin.ts";
import { indexRef, repository } from "../schemas.ts";
import { defineTool } from "../tool.ts";

export const wikiPageTool = defineTool({
  name: "wiki_page",
  title: "Wiki page",
  description: "A generated wiki page (Markdown with citations): the overview, a folder's or a file's.",
  input: {
    repository,
    page: z
      .string()
      .max(1000)
      .optional()
      .describe('A file or folder path, or a slug ("file/<path>", "dir/<path>"); omit for the overview.'),
  },
  output: {
    index: indexRef,
    slug: z.string(),
    kind: z.string(),
    title: z.string(),
    sourcePath: z.string().nullable(),
    summary: z.string(),
    markdown: z.string(),
    diagram: z.string().nullable().describe("mermaid source built from the call graph"),
    modelWritten: z.boolean(),
    pages: z.array(z.object({ slug: z.string(), title: z.string() })).describe("all pages (overview only)"),
  },
  async handle(input) {
    const { generationId, index } = await pin(input.repository);
    const ref = (input.page ?? "")
      .trim()
      .replace(/^(\.\/)+/, "")
      .replace(/\/+$/, "");
    // A slug ("file/a.py", "dir/src", "" for the overview) or simply the path a page documents.
    const candidates = ref === "" || /^(file|dir)\//.test(ref) ? [ref] : [fileSlug(ref), dirSlug(ref)];
    for (const slug of candidates) {
      const page = await getWikiPage(generationId, slug);
      if (!page) continue;
      const pages =
        slug === "" ? (await listWikiPages(generationId)).map((p) => ({ slug: p.slug, title: p.title })) : [];
      return {
        index,
        slug: page.slug,
        kind: page.kind,
        title: page.title,
        sourcePath: page.sourcePath,
        summary: page.summary,
        markdown: page.content,
        diagram: page.diagram?.mermaid ?? null,
        modelWritten: page.modelWritten,
        pages: pages.slice(0, 500),
      };
    }
    throw new WayfinderError(
      "not_found:wiki_page",
      `No wiki page for "${input.page}" in ${index.repository}.`,
    );
  },
});
