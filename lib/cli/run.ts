/**
 * One CLI invocation: parses arguments, runs one command, and turns every failure into
 * one `error:` line and an exit code. Writes only to the streams it is given, so the
 * entry point (main.ts) and tests run exactly the same code.
 */
import { parseArgs } from "node:util";
import { isWayfinderError } from "../errors.ts";
import { ensureMigrated } from "../db/migrate.ts";
import { commands } from "./commands.ts";
import type { CommandContext } from "./context.ts";

export const USAGE = `Usage: npm run wayfinder -- <command> [options]

Commands:
  index <path|git-url> [--branch B] [--name N] [--json]
                                            Index (or re-index) a folder, or a Git remote's branch
  repos [--json]                            List indexed repositories
  search <repo> "<query>" [--json] [--limit N] [--mode lexical|vector|hybrid]
  symbol <repo> <name> [--json]             A symbol with callers, callees, raises, mutates, error strings
  ask <repo> "<question>" [--quality quick|balanced|thorough] [--mode M] [--max-passes N] [--session ID] [--json]
  retrieve <repo> ("<question>" | --question-file F) --json
  migrate                                   Apply database migrations
  worker [--once]                           Run queued index builds (WAYFINDER_INDEX_WORKER=external)
  admin-token [--json]                      Print the admin token (generated on first use)
  mcp                                       Serve the MCP tools over stdio (for coding agents and editors)

<repo> is a repository name, id, or an indexed path.`;

export interface CliStreams {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
}

async function dispatch(argv: string[], io: CliStreams): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help" || name === "-h") {
    io.out.write(`${USAGE}\n`);
    return name ? 0 : 1;
  }
  const command = commands[name];
  if (!command) {
    io.err.write(`Unknown command "${name}".\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: true,
    options: {
      name: { type: "string" },
      branch: { type: "string" },
      json: { type: "boolean", default: false },
      limit: { type: "string" },
      mode: { type: "string" },
      quality: { type: "string" },
      "max-passes": { type: "string" },
      session: { type: "string" },
      "question-file": { type: "string" },
      once: { type: "boolean", default: false },
    },
  });
  await ensureMigrated();
  const ctx: CommandContext = { values, positionals, out: io.out, err: io.err };
  return command(ctx);
}

/** The exit code of `wayfinder <argv>`; a failure is one `error:` line on `io.err`, never a stack trace. */
export async function runCli(argv: string[], io: CliStreams): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    if (isWayfinderError(error)) {
      io.err.write(`error: ${error.message}\n`);
    } else if (
      error instanceof TypeError &&
      "code" in error &&
      String(error.code).startsWith("ERR_PARSE_ARGS")
    ) {
      io.err.write(`error: ${error.message}\n\n${USAGE}\n`);
    } else {
      // One line, never a stack trace: bad input must not look like a crash.
      const message = error instanceof Error ? error.message : String(error);
      io.err.write(`error: unexpected failure: ${message.split("\n")[0]}\n`);
    }
    return 1;
  }
}
