/**
 * Citation verification against the index generation (shop fixture): a real range is
 * verified with the indexed snippet; lines past EOF, files not in the index, a symbol
 * named at the wrong lines, and paths leaving the repository are unverified with a
 * reason, never become source-url parts, and nothing outside the repository is read.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { symbolsByName } from "../db/code-graph.ts";
import { ModelAnswerer } from "../answerers/model-answerer.ts";
import { indexFixture, setupQaHome, SHOP_FIXTURE, type IndexedFixture } from "../../test-support/qa-env.ts";
import { PartLog, scriptedModel, tagged } from "../../test-support/qa-model.ts";
import { extractAnchors } from "../search/anchors.ts";
import { askQuestion } from "./ask.ts";
import { SourceReader } from "./context.ts";
import { focusQuery } from "./focus.ts";
import type { CitationPart } from "./types.ts";
import { verifyAnswerCitations } from "./verify.ts";

let fx: IndexedFixture;
let cleanup: () => Promise<void>;
let charge: { path: string; startLine: number; endLine: number };
let payLines: number;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-verify-"));
  fx = await indexFixture();
  const [symbol] = await symbolsByName(fx.generationId, "charge_card");
  if (!symbol) throw new Error("fixture has no charge_card");
  charge = symbol;
  payLines = fs.readFileSync(path.join(SHOP_FIXTURE, "shop/payments.py"), "utf8").split("\n").length;
});
afterAll(() => cleanup());
afterEach(() => vi.restoreAllMocks());

const PROBE = "/nonexistent/wayfinder-fs-probe";
const range = (c: { path: string; startLine: number; endLine: number }) =>
  `${c.path}:${c.startLine}-${c.endLine}`;

/** Every path handed to the file system while `fn` runs. */
async function fsPathsDuring<T>(fn: () => Promise<T>): Promise<{ result: T; paths: string[] }> {
  const paths: string[] = [];
  const record = (arg: unknown) => {
    if (typeof arg === "string" || arg instanceof URL || Buffer.isBuffer(arg)) paths.push(String(arg));
  };
  for (const name of [
    "readFileSync",
    "openSync",
    "statSync",
    "existsSync",
    "realpathSync",
    "readFile",
    "open",
    "stat",
  ] as const) {
    const original = fs[name] as (...args: unknown[]) => unknown;
    vi.spyOn(fs, name).mockImplementation(((...args: unknown[]) => {
      record(args[0]);
      return original.apply(fs, args);
    }) as never);
  }
  for (const name of ["readFile", "open", "stat", "realpath"] as const) {
    const original = fs.promises[name] as (...args: unknown[]) => Promise<unknown>;
    vi.spyOn(fs.promises, name).mockImplementation(((...args: unknown[]) => {
      record(args[0]);
      return original.apply(fs.promises, args);
    }) as never);
  }
  const result = await fn();
  fs.existsSync(PROBE);
  return { result, paths };
}

describe("verifyAnswerCitations", () => {
  it("verifies a real range and returns the indexed snippet", async () => {
    const [c] = await verifyAnswerCitations(
      `\`charge_card\` (${range(charge)}) raises it.`,
      fx.generationId,
      new SourceReader(fx.generationId),
    );
    const lines = fs.readFileSync(path.join(SHOP_FIXTURE, charge.path), "utf8").split("\n");
    expect(c).toMatchObject({
      path: charge.path,
      startLine: charge.startLine,
      endLine: charge.endLine,
      verified: true,
      reason: null,
      symbol: "shop/payments.py::charge_card",
      language: "python",
    });
    // The span is the function; the snippet shows its body past the signature and docstring.
    const body = lines.findIndex((l) => l.includes("if amount <= 0")) + 1;
    expect(c?.shown).toEqual({ startLine: body, endLine: charge.endLine });
    expect(c?.snippet).toBe(lines.slice(body - 1, charge.endLine).join("\n"));
    expect(c?.snippet).not.toContain("def charge_card");
  });

  it("shows the lines matching the question and what the answer says at the citation", async () => {
    const question = "Why is the card declined by the gateway?";
    const [c] = await verifyAnswerCitations(
      `\`charge_card\` (${range(charge)}) logs "card declined by gateway" and raises \`PaymentDeclined\`.`,
      fx.generationId,
      new SourceReader(fx.generationId),
      focusQuery(question, extractAnchors(question)),
    );
    const lines = fs.readFileSync(path.join(SHOP_FIXTURE, charge.path), "utf8").split("\n");
    const condition = lines.findIndex((l) => l.includes("if customer in _declined_cards")) + 1;
    expect(c?.shown?.startLine).toBe(condition - 2);
    expect(c?.snippet?.split("\n")[2]).toContain("if customer in _declined_cards");
  });

  it("merges overlapping and adjacent citations of one file into one, showing lines of the merged span", async () => {
    const mid = charge.startLine + 3;
    const items = await verifyAnswerCitations(
      [
        `\`charge_card\` (${charge.path}:${charge.startLine}-${mid}) checks the amount.`,
        `It raises \`PaymentDeclined\` when the card is declined (${charge.path}:${mid + 1}-${charge.endLine}).`,
        `See ${range(charge)}.`,
      ].join("\n"),
      fx.generationId,
      new SourceReader(fx.generationId),
    );
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ startLine: charge.startLine, endLine: charge.endLine, verified: true });
    expect(items[0]?.alsoCites).toHaveLength(3);
    // One snippet for the merged span: its body, down to the raise the second citation meant.
    expect(items[0]?.snippet).toContain("raise PaymentDeclined");
    expect(items[0]?.snippet).not.toContain("def charge_card");
  });

  it("accepts a ./-prefixed path as the same file", async () => {
    const [c] = await verifyAnswerCitations(
      `See ./${range(charge)}.`,
      fx.generationId,
      new SourceReader(fx.generationId),
    );
    expect(c).toMatchObject({ verified: true, path: charge.path });
    expect(c?.snippet).toContain("if amount <= 0");
  });

  it.each([
    [
      "lines past the end of the file",
      () => `shop/payments.py:${payLines - 2}-${payLines + 40}`,
      /past end of file/,
    ],
    ["a file that is not in the index", () => "shop/ledger.py:1-5", /file not in index/],
    [
      "a symbol named at the wrong lines",
      () => `\`PaymentDeclined\` (${range(charge)})`,
      /PaymentDeclined is at lines \d+-\d+/,
    ],
    ["a path leaving the repository", () => "../../../package.json:1-3", /leaves the repository/],
    ["an absolute path", () => "/etc/passwd.py:1-2", /absolute path/],
  ])("flags %s, with no snippet", async (_label, text, reason) => {
    const items = await verifyAnswerCitations(
      `The answer cites ${text()}.`,
      fx.generationId,
      new SourceReader(fx.generationId),
    );
    expect(items).toHaveLength(1);
    expect(items[0]?.verified).toBe(false);
    expect(items[0]?.reason).toMatch(reason);
    expect(items[0]?.snippet).toBeNull();
  });
});

describe("citations in a streamed answer", () => {
  it("emits source-url parts for verified citations only and reads nothing outside the repository", async () => {
    const answer = [
      `\`charge_card\` (${range(charge)}) raises PaymentDeclined.`,
      `Past the end: shop/payments.py:${payLines + 5}-${payLines + 9}.`,
      "Made up: shop/ledger.py:3-4.",
      "Outside: ../../etc/passwd:1-2 and ../../../package.json:1-3.",
    ].join("\n");
    const scripted = scriptedModel([tagged(answer, "NONE")]);
    const log = new PartLog();
    const { result, paths } = await fsPathsDuring(() =>
      askQuestion(
        {
          repository: fx.repositoryId,
          question: "Why does charge_card raise PaymentDeclined?",
          overrides: { mode: "diagnostic" },
        },
        log,
        {
          model: null,
          answerer: new ModelAnswerer(scripted.model, "mock:test", 5000),
        },
      ),
    );

    const sources = log.ofType("source-url");
    expect(sources.map((s) => s.sourceId)).toEqual([range(charge)]);
    expect(sources[0]?.url).toContain(`generation=${fx.generationId}`);

    const items = log.data<{ items: CitationPart[] }>("data-citations")[0]?.data.items ?? [];
    expect(items).toEqual(result.citations);
    const byPath = new Map(items.map((c) => [c.path, c]));
    expect(items.find((c) => c.path === charge.path && c.startLine === charge.startLine)).toMatchObject({
      verified: true,
      reason: null,
    });
    expect(items.find((c) => c.path === charge.path && c.startLine > payLines)?.reason).toMatch(
      /past end of file/,
    );
    expect(byPath.get("shop/ledger.py")?.reason).toBe("file not in index");
    expect(byPath.get("../../../package.json")).toMatchObject({ verified: false, snippet: null });
    // An extension-less traversal is not even taken for a citation; it is never verified.
    expect(items.filter((c) => c.path.includes("passwd")).every((c) => !c.verified)).toBe(true);
    expect(items.filter((c) => !c.verified).every((c) => c.reason && c.snippet === null)).toBe(true);

    // Sources come from the index, not from disk: no path outside the data directory is
    // touched (the probe proves the spies see file-system calls at all).
    expect(paths).toContain(PROBE);
    const home = process.env.WAYFINDER_HOME ?? "";
    expect(paths.filter((p) => p !== PROBE && !(path.isAbsolute(p) && p.startsWith(home)))).toEqual([]);
    expect(result.metadata.confidence).not.toBe("high");
  });
});
