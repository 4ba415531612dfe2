/**
 * The walk's order along a flow's main line: the head of a chained call the question writes
 * (`Tokens.builder()`) and what comes before the call it says the flow starts from are no
 * steps; a step's call it returns through goes before a guarded side branch named like the
 * question; and a call named through an interface runs in its one implementation.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexFixture, setupQaHome, type IndexedFixture } from "../../../test-support/qa-env.ts";
import { PartLog } from "../../../test-support/qa-model.ts";
import { askQuestion } from "../ask.ts";
import { chainPrelude } from "./exploratory-steps.ts";

describe("chainPrelude", () => {
  it("leaves out a chain's factory head and what comes before the call the flow starts from", () => {
    expect(
      [
        ...chainPrelude(
          "Walk me through Jwts.parser().verifyWith(key).build().parseSignedClaims(token): what happens from parseSignedClaims until I get the Claims back?",
        ),
      ].sort(),
    ).toEqual(["Jwts", "build", "parser", "verifyWith"]);
    expect(
      [
        ...chainPrelude('What happens when I call Jwts.builder().subject("joe").signWith(key).compact()?'),
      ].sort(),
    ).toEqual(["Jwts", "builder"]);
  });

  it("keeps a chain whose head is given arguments, and a single call", () => {
    expect(chainPrelude("How does dayjs('2020-01-31').add(1, 'month').format() compute the date?").size).toBe(
      0,
    );
    expect(chainPrelude('Walk me through WalkDir::new("src").into_iter() from the root').size).toBe(0);
    expect(chainPrelude("What does r.Get(pattern, handler) do?").size).toBe(0);
  });
});

const MUX = `package router

type Handler func(string)

type Mux struct {
	handler  Handler
	tree     *node
	handlers []Handler
}

func (mx *Mux) Get(pattern string, h Handler) {
	mx.handle("GET", pattern, h)
}

func (mx *Mux) handle(method string, pattern string, h Handler) *node {
	if mx.handler == nil {
		mx.buildRouteHandler()
	}
	return mx.tree.InsertRoute(method, pattern, h)
}

func (mx *Mux) buildRouteHandler() {
	mx.handler = wrapHandlers(mx.handlers)
}

func wrapHandlers(hs []Handler) Handler {
	return combine(hs, 0)
}

func combine(hs []Handler, i int) Handler {
	return hs[i]
}
`;

const TREE = `package router

type node struct {
	endpoints map[string]Handler
	children  []*node
}

func (n *node) InsertRoute(method string, pattern string, h Handler) *node {
	child := n.findChild(pattern)
	child.setEndpoint(method, h)
	return child
}

func (n *node) findChild(pattern string) *node {
	for _, c := range n.children {
		if c != nil {
			return c
		}
	}
	return n
}

func (n *node) setEndpoint(method string, h Handler) {
	n.endpoints[method] = h
}
`;

let repo: IndexedFixture;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-mainline-"));
  dir = mkdtempSync(path.join(os.tmpdir(), "wf-mainline-repo-"));
  mkdirSync(path.join(dir, "router"));
  writeFileSync(path.join(dir, "router", "mux.go"), MUX);
  writeFileSync(path.join(dir, "router", "tree.go"), TREE);
  repo = await indexFixture(dir, "mainline");
});
afterAll(async () => {
  await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe("the walk's main line", () => {
  it("follows the call a step returns through before a guarded side branch named like the question", async () => {
    const result = await askQuestion(
      {
        repository: repo.repositoryId,
        question: "What does mx.Get(pattern, h) do, step by step, to put my route handler into the tree?",
        overrides: { mode: "exploratory" },
      },
      new PartLog(),
      { model: null, ephemeral: true },
    );
    // The side branch (`buildRouteHandler` → `wrapHandlers` → `combine`) is named more like the
    // question, but the flow goes on where `handle` returns.
    expect(result.loop.retrieval.rankedSymbols.slice(0, 3)).toEqual([
      "router/mux.go::Mux.Get",
      "router/mux.go::Mux.handle",
      "router/tree.go::node.InsertRoute",
    ]);
  });
});
