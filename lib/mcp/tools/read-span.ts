/** read_span: lines of a file as the serving generation indexed them (the stored blob, never the disk). */
import "server-only";
import { z } from "zod";
import { getFile, getFileContent } from "../../db/index-reads.ts";
import { WayfinderError } from "../../errors.ts";
import { isSafeRelativePath } from "../../paths.ts";
import { pin } from "../pin.ts";
import { indexRef, repository } from "../schemas.ts";
import { defineTool } from "../tool.ts";

export const MAX_SPAN_LINES = 400;

export const readSpanTool = defineTool({
  name: "read_span",
  title: "Read span",
  description: `Lines of a file as indexed (never the live disk), at most ${MAX_SPAN_LINES} per call.`,
  input: {
    repository,
    path: z.string().min(1).max(1000).describe("Repository-relative file path."),
    startLine: z.number().int().min(1).optional(),
    endLine: z.number().int().min(1).optional(),
  },
  output: {
    index: indexRef,
    path: z.string(),
    language: z.string(),
    startLine: z.number().int(),
    endLine: z.number().int(),
    totalLines: z.number().int(),
    text: z.string(),
  },
  async handle(input) {
    const { generationId, index } = await pin(input.repository);
    const filePath = input.path.trim().replace(/^(\.\/)+/, "");
    if (!isSafeRelativePath(filePath)) {
      throw new WayfinderError("bad_request:path", `Not a path inside the repository: ${input.path}`);
    }
    const [file, text] = await Promise.all([
      getFile(generationId, filePath),
      getFileContent(generationId, filePath),
    ]);
    if (!file || text === null) {
      throw new WayfinderError(
        "not_found:file",
        `${filePath} is not in the index of ${index.repository} (generation ${index.generation}).`,
      );
    }
    const lines = text.split("\n");
    if (text.endsWith("\n")) lines.pop();
    const start = input.startLine ?? 1;
    const end = Math.min(input.endLine ?? start + MAX_SPAN_LINES - 1, lines.length);
    if (start > Math.max(lines.length, 1)) {
      throw new WayfinderError(
        "bad_request:lines",
        `${filePath} has ${lines.length} lines; line ${start} does not exist.`,
      );
    }
    if (end < start) throw new WayfinderError("bad_request:lines", "endLine must not be before startLine.");
    if (end - start + 1 > MAX_SPAN_LINES) {
      throw new WayfinderError(
        "bad_request:lines",
        `At most ${MAX_SPAN_LINES} lines per call; ask for a smaller span.`,
      );
    }
    return {
      index,
      path: filePath,
      language: file.language,
      startLine: start,
      endLine: end,
      totalLines: lines.length,
      text: lines.slice(start - 1, end).join("\n"),
    };
  },
});
