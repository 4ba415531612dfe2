/**
 * `npm run wayfinder -- <command>`: the command-line entry point. Runs one command
 * (run.ts), closes the database and search services, and exits with its code.
 */
import { closeDb } from "../db/client.ts";
import { closeSearchServices } from "../search/runtime.ts";
import { runCli } from "./run.ts";

void runCli(process.argv.slice(2), { out: process.stdout, err: process.stderr }).then(async (code) => {
  await closeSearchServices().catch(() => undefined);
  await closeDb().catch(() => undefined);
  process.exit(code);
});
