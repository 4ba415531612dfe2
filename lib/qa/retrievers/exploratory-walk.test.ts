/**
 * The exploratory walk on a real index: a call on a receiver whose type the index does not
 * know (`adapter.transmit(request)`) is followed to the one function of that name in the
 * caller's package that does some work, and a name several share there is not guessed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  indexFixture,
  setupQaHome,
  type IndexedFixture,
  retrieversOwnOrder,
} from "../../../test-support/qa-env.ts";
import { PartLog } from "../../../test-support/qa-model.ts";
import { askQuestion } from "../ask.ts";

const SESSIONS = `from .adapters import BaseAdapter


class Session:
    # No return annotation: the receiver of transmit and close is of a type the index does not know.
    def get_adapter(self, url):
        return self.adapters[url]

    def send(self, request):
        adapter = self.get_adapter(request.url)
        response = adapter.transmit(request)
        adapter.close()
        return response
`;

const ADAPTERS = `class BaseAdapter:
    def transmit(self, request):
        raise NotImplementedError

    def close(self):
        raise NotImplementedError


class HTTPAdapter(BaseAdapter):
    def transmit(self, request):
        return self.build_response(request)

    def build_response(self, request):
        return dict(request=request)

    def close(self):
        self.pool.clear()


class PoolAdapter(BaseAdapter):
    def close(self):
        self.pool.clear()
`;

let repo: IndexedFixture;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-walk-"));
  dir = mkdtempSync(path.join(os.tmpdir(), "wf-walk-repo-"));
  mkdirSync(path.join(dir, "client"));
  writeFileSync(path.join(dir, "client", "__init__.py"), "");
  writeFileSync(path.join(dir, "client", "sessions.py"), SESSIONS);
  writeFileSync(path.join(dir, "client", "adapters.py"), ADAPTERS);
  repo = await indexFixture(dir, "walk");
});
afterAll(async () => {
  await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

// These tests check the walk's and the retrievers' own order, not the learned ranker's.
retrieversOwnOrder();

describe("the exploratory walk", () => {
  it("follows a call on a receiver of unknown type to the one function of that name in the caller's package that does work", async () => {
    const result = await askQuestion(
      {
        repository: repo.repositoryId,
        question: "Walk me through Session.send",
        overrides: { mode: "exploratory" },
      },
      new PartLog(),
      { model: null, ephemeral: true },
    );
    const symbols = result.loop.retrieval.rankedSymbols;
    expect(symbols.slice(0, 3)).toEqual(
      expect.arrayContaining([
        "client/sessions.py::Session.send",
        "client/adapters.py::HTTPAdapter.transmit",
      ]),
    );
    const flow = result.loop.retrieval.items.find((i) => i.kind === "flow")?.text ?? "";
    // …and on from there, along the calls the index did resolve.
    expect(flow).toMatch(/→ HTTPAdapter\.transmit\(\)[^\n]*\n\s+→ HTTPAdapter\.build_response\(\)/);
    // Two `close` methods that do work in the package: neither is guessed.
    expect(flow).not.toContain("close()");
  });
});
