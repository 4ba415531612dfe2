/**
 * What every CLI command is handed and reads first: its parsed arguments and output
 * streams, and the repository argument most commands take. Commands import this, never
 * the command table (commands.ts), which loads them lazily.
 */
import fs from "node:fs";
import path from "node:path";
import { findRepository, type RepositoryRow } from "../db/repositories.ts";
import { WayfinderError } from "../errors.ts";

export interface CommandContext {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
}

export type Command = (ctx: CommandContext) => Promise<number>;

/** A repository by name, id or path (paths are resolved, so `.` works). */
export async function resolveRepoArgument(
  ref: string,
): Promise<RepositoryRow & { activeGenerationId: string }> {
  let repo = await findRepository(ref);
  if (!repo && fs.existsSync(ref)) repo = await findRepository(fs.realpathSync(path.resolve(ref)));
  if (!repo)
    throw new WayfinderError("not_found:repository", `No indexed repository "${ref}". Index it first.`);
  if (!repo.activeGenerationId) {
    throw new WayfinderError("conflict:not_indexed", `Repository "${repo.name}" has no finished index yet.`);
  }
  return repo as RepositoryRow & { activeGenerationId: string };
}
