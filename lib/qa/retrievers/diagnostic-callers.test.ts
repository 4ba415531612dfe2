/**
 * What decides a report one step from its site, over a small Go, Rust and JavaScript
 * repository indexed by the real indexer: the caller under whose condition the site runs,
 * the code testing what a named option's setter stores, and the function a nested one
 * lives in.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexSources, type IndexedFixture, retrieversOwnOrder } from "../../../test-support/qa-env.ts";
import { retrieveReport } from "../retrieve.ts";
import { SourceReader } from "../context.ts";
import { symbolsByQualifiedIds, symbolsInFile } from "../../db/code-graph.ts";
import { wordsOf } from "./diagnostic-deciders.ts";
import { guardingCallers, guardOverlap } from "./diagnostic-callers.ts";
import { namedSetters, pointedReader, withEnclosers } from "./diagnostic-deciding.ts";
import { testers } from "./option-readers.ts";
import type { Ranked } from "./shared.ts";

const FILES: Record<string, string> = {
  "mux.go": `package chi

import "net/http"

var methodMap = map[string]int{"GET": 1, "PUT": 2}

type Mux struct {
	handler http.Handler
	inline  bool
}

// Use appends a middleware handler to the Mux middleware stack.
func (mx *Mux) Use(m func(http.Handler) http.Handler) {
	if mx.handler != nil {
		panic("chi: all middlewares must be defined before routes on a mux")
	}
}

func (mx *Mux) handle(pattern string) {
	if !mx.inline && mx.handler == nil {
		mx.updateRouteHandler()
	}
}

func (mx *Mux) Rebuild() {
	mx.updateRouteHandler()
}

func (mx *Mux) updateRouteHandler() {
	mx.handler = http.HandlerFunc(mx.routeHTTP)
}

func (mx *Mux) routeHTTP(w http.ResponseWriter, r *http.Request) {
	_, ok := methodMap[r.Method]
	if !ok {
		mx.MethodNotAllowedHandler().ServeHTTP(w, r)
		return
	}
}

func (mx *Mux) MethodNotAllowedHandler() http.Handler {
	return http.HandlerFunc(methodNotAllowedHandler)
}

func methodNotAllowedHandler(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(405)
}
`,
  "src/lib.rs": `pub struct WalkDirOptions {
    min_depth: usize,
    max_depth: usize,
    follow_links: bool,
}

pub struct WalkDir {
    opts: WalkDirOptions,
}

impl WalkDir {
    pub fn max_depth(mut self, depth: usize) -> Self {
        self.opts.max_depth = depth;
        if self.opts.max_depth < self.opts.min_depth {
            self.opts.max_depth = self.opts.min_depth;
        }
        self
    }
}

pub struct IntoIter {
    opts: WalkDirOptions,
    depth: usize,
}

impl IntoIter {
    fn next(&mut self) -> Option<usize> {
        if self.depth > 10 {
            return None;
        }
        if self.opts.follow_links {
            return Some(1);
        }
        if self.depth >= self.opts.max_depth {
            return None;
        }
        Some(self.depth)
    }

    fn skippable(&self) -> bool {
        self.depth < self.opts.min_depth || self.depth > self.opts.max_depth
    }

    fn follow(&self, path: &str) -> Result<(), String> {
        if self.opts.follow_links && path.ends_with("/") {
            self.check_loop(path)?;
        }
        Ok(())
    }

    fn check_loop(&self, child: &str) -> Result<(), String> {
        if child.len() > 1 {
            return Err(format!("filesystem loop found at {}", child));
        }
        Ok(())
    }
}
`,
  "src/request.js": `export class Request {
  _onRequest(request) {
    const emitRequestError = (error) => {
      this.destroy(error);
    };
    request.once('error', emitRequestError);
  }

  destroy(error) {
    this.error = error;
  }
}
`,
};

let fx: IndexedFixture & { close: () => Promise<void> };
beforeAll(async () => {
  fx = await indexSources("diagnostic-callers", FILES);
});
afterAll(async () => {
  await fx.close();
});

/** The guarding callers of the given leading functions for a question, as [site, caller] pairs. */
async function callersOf(leading: string[], question: string): Promise<string[][]> {
  const symbols = await symbolsByQualifiedIds(fx.generationId, leading);
  const ordered = leading.flatMap((id) => symbols.find((s) => s.qualifiedId === id) ?? []);
  const found = await guardingCallers(
    fx.generationId,
    new SourceReader(fx.generationId),
    ordered,
    new Set(wordsOf(question)),
    new Set(leading),
  );
  return found.map((p) => [p.site, p.symbol.qualifiedId]);
}

/** Ranked entries for symbols of a file, in the given order. */
async function rankedOf(path: string, names: string[]): Promise<Ranked[]> {
  const symbols = await symbolsInFile(fx.generationId, path);
  return names.flatMap((name, i) => {
    const symbol = symbols.find((s) => s.qualifiedName === name);
    return symbol
      ? [
          {
            candidate: { key: symbol.qualifiedId, symbol, chunk: null, reason: "" },
            score: 1 / (i + 1),
            reasons: [],
          },
        ]
      : [];
  });
}

// These tests check the retriever's own order, not the learned ranker's.
retrieversOwnOrder();

describe("the caller a report's site runs under", () => {
  it("is the caller whose condition tests the state the site's report is made under (Go)", async () => {
    const question = "panic: chi: all middlewares must be defined before routes on a mux";
    // `handle` calls updateRouteHandler under `mx.handler == nil`, the state Use panics on;
    // `Rebuild` calls it under no condition.
    expect(await callersOf(["mux.go::Mux.Use", "mux.go::Mux.updateRouteHandler"], question)).toEqual([
      ["mux.go::Mux.updateRouteHandler", "mux.go::Mux.handle"],
    ]);
  });

  it("is the caller whose assigned-then-tested condition carries the question's words (Go)", async () => {
    const question = "PROPFIND requests come back 405 although the handler takes every method. Why?";
    expect(await callersOf(["mux.go::Mux.MethodNotAllowedHandler"], question)).toEqual([
      ["mux.go::Mux.MethodNotAllowedHandler", "mux.go::Mux.routeHTTP"],
    ]);
    // A question the guard says nothing of brings no caller up.
    expect(
      await callersOf(["mux.go::Mux.MethodNotAllowedHandler"], "Why is the session cookie dropped?"),
    ).toEqual([]);
  });

  it("counts the caller's own name (Rust: `follow` for follow_links)", async () => {
    const question =
      'called `Result::unwrap()` on an `Err` value: Loop { child: "/app" } since follow_links(true)';
    expect(await callersOf(["src/lib.rs::IntoIter.check_loop"], question)).toEqual([
      ["src/lib.rs::IntoIter.check_loop", "src/lib.rs::IntoIter.follow"],
    ]);
  });

  it("stands right after its site in a diagnostic ranking", async () => {
    const { symbols } = await retrieveReport(
      fx.repositoryId,
      "panic: chi: all middlewares must be defined before routes on a mux\n\ngoroutine 1 [running]:\nmain.main()",
      { mode: "diagnostic" },
    );
    const site = symbols.indexOf("mux.go::Mux.updateRouteHandler");
    expect(site).toBeGreaterThanOrEqual(0);
    expect(symbols.indexOf("mux.go::Mux.handle")).toBe(site + 1);
  });

  it("reads a guard from the lines above a call, in any language", () => {
    const lines = [
      "def load(self):",
      "    if self.strict and not path:",
      "        self.fail(path)",
      "    self.done()",
    ];
    const caller = { name: "load", startLine: 1 };
    expect(guardOverlap(lines, caller, 3, new Set(["strict"]))).toBe(1);
    expect(guardOverlap(lines, caller, 3, new Set(["cookie"]))).toBe(0);
    // An unguarded call has no guard to weigh.
    expect(guardOverlap(lines, caller, 4, new Set(["strict"]))).toBeNull();
  });
});

describe("the code deciding with a named option", () => {
  it("takes a setter named like the field it stores for a setter, clamp and all (Rust)", async () => {
    const reader = new SourceReader(fx.generationId);
    const ranked = await rankedOf("src/lib.rs", ["WalkDir.max_depth", "IntoIter.next"]);
    const setters = await namedSetters(reader, ranked);
    expect([...setters]).toEqual([
      ["src/lib.rs::WalkDir.max_depth", { names: ["max_depth"], member: false }],
    ]);
  });

  it("brings up the reader testing the option most pointedly (Rust)", async () => {
    const files = ["src/lib.rs"];
    const candidates = await testers(fx.generationId, new SourceReader(fx.generationId), files);
    const found = pointedReader(
      candidates,
      files,
      { names: ["max_depth"], member: false },
      new Set(["src/lib.rs::WalkDir.max_depth"]),
    );
    // `next` tests max_depth in one of three conditions; `skippable`'s one condition is about it.
    expect(found?.qualifiedId).toBe("src/lib.rs::IntoIter.skippable");
    expect(pointedReader(candidates, files, { names: ["sort_by"], member: false }, new Set())).toBeNull();
  });
});

describe("a nested function", () => {
  it("brings up the function it is nested in right after it (JavaScript)", async () => {
    const nested = (await symbolsInFile(fx.generationId, "src/request.js")).find(
      (s) => s.name === "emitRequestError",
    );
    expect(nested?.parentId).toBe("Request._onRequest");
    const ids = [
      nested?.qualifiedId ?? "",
      "src/request.js::Request.destroy",
      "src/request.js::Request._onRequest",
    ];
    expect(await withEnclosers(fx.generationId, ids)).toEqual([
      nested?.qualifiedId,
      "src/request.js::Request._onRequest",
      "src/request.js::Request.destroy",
    ]);
    // A method of a class is nested in nothing that runs.
    expect(await withEnclosers(fx.generationId, ["src/request.js::Request.destroy"])).toEqual([
      "src/request.js::Request.destroy",
    ]);
  });
});
