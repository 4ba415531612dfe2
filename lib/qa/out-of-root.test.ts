/**
 * A model that names files outside the repository, as gaps or as citations, gets
 * nothing from them. The repository sits beside a folder holding a secret (so
 * `../outside/secret.py` really resolves to it) and contains links into that folder;
 * the scripted model names the secret every way it can. Nothing outside the root is
 * opened, those citations are unverified with no snippet and no source link, those
 * gaps stay unresolved, and the secret appears in no part, prompt or stored message.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getFile } from "../db/index-reads.ts";
import { listMessages } from "../db/sessions.ts";
import { indexRepository } from "../builds/build.ts";
import { ModelAnswerer } from "../answerers/model-answerer.ts";
import { lexicalSearch } from "../search/hybrid.ts";
import { PartLog, scriptedModel, tagged } from "../../test-support/qa-model.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";
import { askQuestion } from "./ask.ts";
import type { CitationPart, PassPart } from "./types.ts";

const SECRET = "WF-SECRET-9d41c7e2";
// The first bytes of any /etc/passwd: a model naming it must never get them.
const PASSWD_MARK = "root:x:0:0";

let t: TempEnv;
let root: string;
let outside: string;
let repositoryId: string;
let generationId: string;
let skippedOutside: number;

beforeAll(async () => {
  t = await setupTempEnv();
  outside = t.makeDir("outside");
  t.write(outside, "secret.py", `def read_secret():\n    return "${SECRET}"\n`);
  root = t.makeRepo(
    {
      "app/main.py": [
        "from app.settings import defaults",
        "",
        "",
        "def load_config(path):",
        '    """Loads the configuration, falling back to the defaults."""',
        "    return defaults()",
        "",
      ].join("\n"),
      "app/settings.py": 'def defaults():\n    return {"debug": False}\n',
    },
    "config-demo",
  );
  // Links leaving the root, by file and by folder; the indexer must not follow either.
  fs.symlinkSync(path.join(outside, "secret.py"), path.join(root, "leak.py"));
  fs.symlinkSync(outside, path.join(root, "linked"));
  expect(fs.readFileSync(path.join(root, "../outside/secret.py"), "utf8")).toContain(SECRET);
  const { repository, stats } = await indexRepository(root, { name: "config-demo" });
  repositoryId = repository.id;
  generationId = repository.activeGenerationId ?? "";
  skippedOutside = stats.skipped["symlink-outside-root"];
});
afterAll(async () => {
  await t?.cleanup();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("indexing a repository with links that leave its root", () => {
  it("stores neither the linked file nor the linked folder's contents", async () => {
    expect(generationId).not.toBe("");
    expect(skippedOutside).toBeGreaterThanOrEqual(1);
    expect(await getFile(generationId, "leak.py")).toBeNull();
    expect(await getFile(generationId, "linked/secret.py")).toBeNull();
    expect(await getFile(generationId, "app/main.py")).not.toBeNull();
    const hits = await lexicalSearch(generationId, "read_secret secret", { limit: 20 });
    expect(JSON.stringify(hits)).not.toContain(SECRET);
  });
});

describe("a model naming files outside the repository", () => {
  const outsideCitations = () => [
    "../outside/secret.py:1-2",
    `${path.join(outside, "secret.py")}:1-2`,
    "..\\outside\\secret.py:1",
    "leak.py:1-2",
    "linked/secret.py:1-2",
    "app/../../outside/secret.py:1",
  ];
  const outsideGaps = () => [
    "../outside/secret.py",
    "read_secret in ../outside/secret.py",
    "/etc/passwd",
    path.join(outside, "secret.py"),
    "leak.py",
    "linked/secret.py",
    "..\\outside\\secret.py",
  ];

  it("reads nothing outside the root and marks every such citation unverified", async () => {
    const answer = [
      "`load_config` (app/main.py:4-6) returns the defaults.",
      ...outsideCitations().map((c) => `The secret is read at ${c}.`),
    ].join("\n");
    const scripted = scriptedModel([tagged(answer, outsideGaps()), tagged(`${answer}\nread_secret`, "NONE")]);
    const opened: string[] = [];
    const record = (file: unknown) => {
      opened.push(String(file));
    };
    const spies = [
      vi.spyOn(fs, "readFileSync").mockName("readFileSync"),
      vi.spyOn(fs, "openSync").mockName("openSync"),
      vi.spyOn(fs, "createReadStream").mockName("createReadStream"),
      vi.spyOn(fs.promises, "readFile").mockName("promises.readFile"),
      vi.spyOn(fs.promises, "open").mockName("promises.open"),
    ];
    const log = new PartLog();
    const result = await askQuestion(
      {
        repository: repositoryId,
        question: "How does load_config read its settings?",
        sessionId: "out-of-root-0001",
        overrides: { mode: "exploratory" },
      },
      log,
      { model: null, answerer: new ModelAnswerer(scripted.model, "mock:test", 5000) },
    );
    for (const spy of spies) for (const call of spy.mock.calls) record(call[0]);
    // Nothing could be added for those gaps, so the loop keeps the first answer.
    expect(scripted.streamCalls).toBe(1);

    // Nothing outside the root was opened; the secret reached neither the model nor the stream.
    const outsideOpens = opened.filter(
      (f) => f.startsWith(outside) || f.includes("outside") || f === "/etc/passwd",
    );
    expect(outsideOpens).toEqual([]);
    const everything = JSON.stringify({ parts: log.parts, result, prompts: scripted.prompts() });
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(PASSWD_MARK);
    const stored = JSON.stringify(await listMessages(result.sessionId));
    expect(stored).not.toContain(SECRET);

    // Citations: the in-repo one verified with its snippet, every other one unverified and empty.
    const [citationPart] = log.data<{ items: CitationPart[] }>("data-citations");
    const items = citationPart?.data.items ?? [];
    const inside = items.find((c) => c.path === "app/main.py");
    expect(inside).toMatchObject({ verified: true, startLine: 4, endLine: 6 });
    // Its snippet is the function's body, at the lines recorded with it.
    expect(inside?.snippet).toBe("    return defaults()");
    expect(inside?.shown).toEqual({ startLine: 6, endLine: 6 });
    const rest = items.filter((c) => c !== inside);
    expect(rest.map((c) => c.raw).sort()).toEqual([...outsideCitations()].sort());
    for (const c of rest) {
      expect(c.verified, c.raw).toBe(false);
      expect(c.snippet, c.raw).toBeNull();
    }
    const sources = log.ofType("source-url").map((s) => s.sourceId);
    expect(sources).toEqual(["app/main.py:4-6"]);

    // Gaps: every one unresolved with nothing found; traversal ones say why without a lookup.
    const pass2 = log
      .data<PassPart>("data-pass")
      .map((p) => p.data)
      .filter((p) => p.pass === 2 && p.phase === "done")
      .at(-1);
    const reports = pass2?.gaps ?? [];
    expect(reports.map((g) => g.gap)).toEqual(outsideGaps());
    for (const g of reports) {
      expect(g.status, g.gap).toBe("unresolved");
      expect(g.found, g.gap).toEqual([]);
    }
    for (const gap of [
      "../outside/secret.py",
      "read_secret in ../outside/secret.py",
      "..\\outside\\secret.py",
    ]) {
      const report = reports.find((g) => g.gap === gap);
      expect(report?.note, gap).toMatch(/outside the repository/);
      expect(report?.searched, gap).toEqual([]);
    }
    expect(pass2?.added ?? []).toEqual([]);
  });
});
