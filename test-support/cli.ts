/**
 * The CLI run in the test's own process (lib/cli/run.ts, everything but the process
 * wrapper), with its exit code and output captured.
 */
import { Writable } from "node:stream";
import { runCli } from "../lib/cli/run.ts";

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A stream that keeps what is written to it. */
function collector(): Writable & { text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return Object.assign(stream, { text: () => Buffer.concat(chunks).toString("utf8") });
}

export async function runCliInProcess(args: string[]): Promise<CliResult> {
  const out = collector();
  const err = collector();
  const code = await runCli(args, { out, err });
  return { code, stdout: out.text(), stderr: err.text() };
}
