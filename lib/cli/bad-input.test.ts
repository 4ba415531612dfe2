/**
 * The CLI's bad-input matrix, against a temporary WAYFINDER_HOME with one indexed
 * repository that sits beside a folder holding a secret (and links into it). Every bad
 * path, id or file argument must end with a non-zero exit, exactly one `error:` line that
 * says what is wrong, nothing on stdout, no stack trace, and never the secret.
 *
 * The matrix runs `runCli` (run.ts, the whole CLI but the process) in this process; a few
 * rows also run the entry point as a user starts it, in a child process, to show that
 * the process exits with the same code and prints the same single line.
 *
 * | Command                       | Argument taking a path or id | Bad inputs                                |
 * | ----------------------------- | ---------------------------- | ----------------------------------------- |
 * | index <path>                  | path                         | missing, ../, files, links, loop, NUL     |
 * | search/symbol <repo> …        | repo (name, id or path)      | ../, absolute outside, link outside       |
 * | ask <repo> <q> --session ID   | repo, session id, question   | traversal id, oversized question          |
 * | ask/retrieve --question-file F| file                         | /dev/zero, folder, missing, oversized     |
 * | any command                   | unknown options              | --path ../x                               |
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WayfinderError } from "../errors.ts";
import { indexRepository } from "../builds/build.ts";
import { cliProcessArgs } from "../builds/jobs.ts";
import { runCliInProcess as runInProcess, type CliResult } from "../../test-support/cli.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";
import { commands } from "./commands.ts";
import { resolveRepoArgument } from "./context.ts";

const SECRET = "WF-SECRET-c0ffee51";
const PASSWD_MARK = "root:x:0:0";

let t: TempEnv;
let root: string;
let outside: string;

beforeAll(async () => {
  t = await setupTempEnv();
  outside = t.makeDir("outside");
  t.write(outside, "secret.py", `def read_secret():\n    return "${SECRET}"\n`);
  t.write(outside, "big-question.txt", `Why ${"does it fail ".repeat(100_000)}?`);
  root = t.makeRepo(
    { "app/main.py": 'def load_config(path):\n    """Loads the settings file."""\n    return {}\n' },
    "config-demo",
  );
  fs.symlinkSync(path.join(outside, "secret.py"), path.join(root, "leak.py"));
  fs.symlinkSync(outside, path.join(root, "linked"));
  fs.symlinkSync("loop", path.join(t.base, "loop"));
  await indexRepository(root, { name: "config-demo" });
}, 60_000);
afterAll(async () => {
  await t?.cleanup();
});

/** The CLI entry point as `npm run wayfinder` runs it (in one process), killed if it hangs. */
function runEntryPoint(args: string[], timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliProcessArgs(args), {
      cwd: process.cwd(),
      env: t.childEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function expectCleanFailure(result: CliResult, message: RegExp): void {
  const context = `exit ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`;
  expect(result.code, context).toBe(1);
  expect(result.stdout, context).toBe("");
  const errors = result.stderr.split("\n").filter((l) => l.startsWith("error:"));
  expect(errors, context).toHaveLength(1);
  expect(errors[0], context).toMatch(message);
  expect(errors[0]?.length ?? 0, context).toBeLessThan(300);
  expect(result.stderr, context).not.toMatch(/\n\s+at [\w.<>]+ \(|\n\s+at file:/);
  expect(result.stderr + result.stdout).not.toContain(SECRET);
  expect(result.stderr + result.stdout).not.toContain(PASSWD_MARK);
}

// Folders are made in beforeAll: @ROOT, @OUTSIDE and @BASE stand for them in the rows.
const fill = (arg: string) =>
  arg.replaceAll("@ROOT", root).replaceAll("@OUTSIDE", outside).replaceAll("@BASE", t.base);

const ROWS: { name: string; args: string[]; error: RegExp }[] = [
  { name: "index with no path", args: ["index"], error: /Missing repository path/ },
  {
    name: "index ../ into nowhere",
    args: ["index", "../../../../../../../no-such-wf-dir"],
    error: /No such folder/,
  },
  { name: "index /etc/passwd", args: ["index", "/etc/passwd"], error: /is a file, not a folder/ },
  { name: "index a file outside", args: ["index", "@OUTSIDE/secret.py"], error: /is a file, not a folder/ },
  {
    name: "index a link to a file outside",
    args: ["index", "@ROOT/leak.py"],
    error: /is a file, not a folder/,
  },
  { name: "index a symlink loop", args: ["index", "@BASE/loop"], error: /No such folder/ },
  { name: "index encoded dots", args: ["index", "@ROOT/%2e%2e/outside"], error: /No such folder/ },
  {
    name: "search ../../etc/passwd",
    args: ["search", "../../etc/passwd", "secret"],
    error: /No indexed repository/,
  },
  { name: "search /etc", args: ["search", "/etc", "passwd"], error: /No indexed repository/ },
  {
    name: "search the folder outside",
    args: ["search", "@OUTSIDE", "secret"],
    error: /No indexed repository/,
  },
  {
    name: "search through ../ out of the root",
    args: ["search", "@ROOT/../outside", "x"],
    error: /No indexed repository/,
  },
  {
    name: "symbol via a link leaving the root",
    args: ["symbol", "@ROOT/linked", "read_secret"],
    error: /No indexed repository/,
  },
  { name: "symbol via backslashes", args: ["symbol", "..\\..\\etc", "x"], error: /No indexed repository/ },
  {
    name: "search with a path as --limit",
    args: ["search", "config-demo", "x", "--limit", "../1"],
    error: /--limit/,
  },
  {
    name: "ask an unknown repository",
    args: ["ask", "nope", "What is this?"],
    error: /No indexed repository "nope"/,
  },
  {
    name: "ask with a traversal session id",
    args: ["ask", "config-demo", "What does load_config do?", "--session", "../../etc/passwd"],
    error: /--session must be/,
  },
  {
    name: "ask with /dev/zero as the question file",
    args: ["ask", "config-demo", "--question-file", "/dev/zero"],
    error: /not a regular file/,
  },
  {
    name: "ask with a folder as the question file",
    args: ["ask", "config-demo", "--question-file", "@OUTSIDE"],
    error: /not a regular file/,
  },
  {
    name: "ask with a missing question file",
    args: ["ask", "config-demo", "--question-file", "@OUTSIDE/../no-such-file.txt"],
    error: /Cannot read the question file/,
  },
  {
    name: "retrieve with an oversized question file",
    args: ["retrieve", "config-demo", "--question-file", "@OUTSIDE/big-question.txt", "--json"],
    error: /too large/,
  },
  {
    name: "ask an oversized question",
    args: ["ask", "config-demo", `Why ${"does it fail ".repeat(6000)}?`],
    error: /question is too long/,
  },
  {
    name: "retrieve ../ as the repository",
    args: ["retrieve", "../..", "x", "--json"],
    error: /No indexed repository/,
  },
  { name: "an unknown --path option", args: ["search", "--path", "../x"], error: /Unknown option/ },
];

describe("bad CLI arguments end with one clear error line", () => {
  for (const row of ROWS) {
    it(row.name, async () => {
      expectCleanFailure(await runInProcess(row.args.map(fill)), row.error);
    });
  }

  it(
    "a question naming the secret's path is answered from the index alone",
    { timeout: 120_000 },
    async () => {
      const result = await runInProcess([
        "ask",
        "config-demo",
        `What does ../outside/secret.py or ${path.join(outside, "secret.py")} return? And linked/secret.py?`,
        "--json",
      ]);
      expect(result.code, result.stderr).toBe(0);
      const out = JSON.parse(result.stdout) as { citations: { path: string; verified: boolean }[] };
      for (const c of out.citations) if (c.verified) expect(c.path).toBe("app/main.py");
      expect(result.stdout + result.stderr).not.toContain(SECRET);
    },
  );
});

describe("the entry point as a user starts it", () => {
  // One row of each kind of failure: a refused path, a repository reference leaving the
  // root, and an argument the parser rejects.
  const rows = ROWS.filter((r) =>
    [
      "index a link to a file outside",
      "symbol via a link leaving the root",
      "an unknown --path option",
    ].includes(r.name),
  );
  it("exits 1 with the same single error line", { timeout: 120_000 }, async () => {
    expect(rows).toHaveLength(3);
    const results = await Promise.all(rows.map((row) => runEntryPoint(row.args.map(fill))));
    rows.forEach((row, i) => expectCleanFailure(results[i] as CliResult, row.error));
  });
});

describe("arguments a shell cannot pass (in-process)", () => {
  const ctx = (positionals: string[]) => ({
    values: {},
    positionals,
    out: process.stdout,
    err: process.stderr,
  });

  it("index refuses a path with a NUL byte", async () => {
    const index = commands.index;
    expect(index).toBeDefined();
    const error = await index?.(ctx([`${root}\u0000/../../etc`])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WayfinderError);
    expect((error as WayfinderError).code).toBe("bad_request:repo_path");
    expect((error as WayfinderError).message).toMatch(/NUL/);
  });

  it("a repository reference with a NUL byte is not found", async () => {
    await expect(resolveRepoArgument(`${root}\u0000`)).rejects.toMatchObject({
      code: "not_found:repository",
    });
  });
});
