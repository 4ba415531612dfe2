/**
 * `npm run wayfinder -- <command>`: the command-line entry point. Parses arguments,
 * runs one command, maps errors to a clear message and a non-zero exit code.
 */
import { parseArgs } from "node:util";
import { isWayfinderError } from "../errors.ts";
import { closeDb } from "../db/client.ts";
import { ensureMigrated } from "../db/migrate.ts";
import { closeSearchServices } from "../search/runtime.ts";
import { commands, type CommandContext } from "./commands.ts";

const USAGE = `Usage: npm run wayfinder -- <command> [options]

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

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help" || name === "-h") {
    console.log(USAGE);
    return name ? 0 : 1;
  }
  const command = commands[name];
  if (!command) {
    console.error(`Unknown command "${name}".\n\n${USAGE}`);
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
  const ctx: CommandContext = { values, positionals, out: process.stdout, err: process.stderr };
  return command(ctx);
}

main(process.argv.slice(2))
  .then(async (code) => {
    await closeSearchServices().catch(() => undefined);
    await closeDb().catch(() => undefined);
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    if (isWayfinderError(error)) {
      console.error(`error: ${error.message}`);
    } else if (
      error instanceof TypeError &&
      "code" in error &&
      String(error.code).startsWith("ERR_PARSE_ARGS")
    ) {
      console.error(`error: ${error.message}\n\n${USAGE}`);
    } else {
      // One line, never a stack trace: bad input must not look like a crash.
      const message = error instanceof Error ? error.message : String(error);
      console.error(`error: unexpected failure: ${message.split("\n")[0]}`);
    }
    await closeSearchServices().catch(() => undefined);
    await closeDb().catch(() => undefined);
    process.exit(1);
  });
