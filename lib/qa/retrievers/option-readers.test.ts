/**
 * A question naming an option is answered by the code that reads it, not by the setter
 * that stores it: conceptual retrieval ranks the function testing the stored field above
 * the setter — also one that checks or clamps what it is given — and the answer's first
 * paragraph cites it (Go, Ruby and Rust fixtures).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexRepository } from "../../builds/build.ts";
import { retrieveReport } from "../retrieve.ts";
import { setupTempEnv, type TempEnv } from "../../../test-support/temp-env.ts";
import { retrieversOwnOrder } from "../../../test-support/qa-env.ts";
import { symbolsByQualifiedIds, type SymbolRecord } from "../../db/code-graph.ts";
import { SourceReader } from "../context.ts";
import { idleFunctions, promoteReaders } from "./option-readers.ts";
import type { Ranked } from "./shared.ts";

const GO_ROUTER = `package router

// Router matches requests against routes.
type Router struct {
\tstrictSlash bool
\troutes      []string
}

// StrictSlash defines the trailing slash behaviour for new routes.
//
// When true, a request for "/path/" is redirected to "/path" and the other way round.
// The redirect is a 301 Moved Permanently.
func (r *Router) StrictSlash(value bool) *Router {
\tr.strictSlash = value
\treturn r
}

// Routes lists the registered routes.
func (r *Router) Routes() []string {
\treturn r.routes
}
`;

const GO_MATCH = `package router

import "strings"

// redirectTarget is where a request for path goes when it does not match as written.
func (r *Router) redirectTarget(path string) (string, bool) {
\tif !r.strictSlash {
\t\treturn "", false
\t}
\tif strings.HasSuffix(path, "/") {
\t\treturn strings.TrimSuffix(path, "/"), true
\t}
\treturn path + "/", true
}

// cleanPath removes dot segments.
func cleanPath(p string) string {
\tfor strings.Contains(p, "/./") {
\t\tp = strings.ReplaceAll(p, "/./", "/")
\t}
\treturn p
}
`;

const RUBY_CLIENT = `module Client
  module ClassMethods
    # Follow the location header when a response redirects.
    # Redirects are followed by default.
    #
    # @example
    #   follow_redirects false
    def follow_redirects(value = true)
      default_options[:follow_redirects] = value
    end
  end
end
`;

const RUBY_REQUEST = `module Client
  class Request
    def initialize(options)
      @options = options
    end

    def perform
      response = send_request
      if response_redirects?(response)
        follow(response)
      else
        response
      end
    end

    def response_redirects?(response)
      return false unless @options[:follow_redirects]
      response.code.to_i >= 300 && response.code.to_i < 400
    end
  end
end
`;

const TS_OPTIONS = `/** How requests are retried. */
export type RetryOptions = {
\t/** The number of times to retry failed requests. */
\tlimit?: number;
\t/** The request methods allowed to retry. */
\tmethods?: string[];
\t/** The longest wait between retries, in milliseconds. */
\tbackoffLimit?: number;
};
`;

const TS_CLIENT = `import type { RetryOptions } from "../types/retry";

export class Client {
\t#retryCount = 0;
\t#options: { retry: Required<RetryOptions> };

\tconstructor(options: { retry: Required<RetryOptions> }) {
\t\tthis.#options = options;
\t}

\t#computeWait(error: unknown, method: string): number {
\t\tif (this.#retryCount >= this.#options.retry.limit) {
\t\t\tthrow error;
\t\t}
\t\tif (!this.#options.retry.methods.includes(method)) {
\t\t\tthrow error;
\t\t}
\t\treturn Math.min(this.#options.retry.backoffLimit, 300 * 2 ** this.#retryCount);
\t}
}
`;

const RUST_FILTER = `/// A filter over callsites.
pub struct Filter {
    max_level: u8,
    targets: Vec<String>,
}

impl Filter {
    /// Decides whether a callsite is enabled: a callsite is enabled by the filter when
    /// its level and target pass. Every callsite asks the filter whether it is enabled.
    pub fn callsite_enabled(&self, meta: &Meta) -> bool {
        self.check(meta)
    }

    fn check(&self, meta: &Meta) -> bool {
        if meta.level > self.max_level {
            return false;
        }
        self.targets.iter().any(|t| meta.target.starts_with(t.as_str()))
    }
}

pub struct Meta {
    pub level: u8,
    pub target: String,
}
`;

const RUST_WALK = `/// Options of a directory walk.
pub struct WalkOptions {
    max_open: usize,
    depth: usize,
}

pub struct Walk {
    opts: WalkOptions,
    stack: Vec<Vec<String>>,
}

impl Walk {
    /// Sets the maximum number of open directory handles the walk keeps at once.
    ///
    /// A limit of 0 is taken as 1.
    pub fn max_open(mut self, mut n: usize) -> Self {
        if n == 0 {
            n = 1;
        }
        self.opts.max_open = n;
        self
    }

    fn push(&mut self, entries: Vec<String>) {
        if self.stack.len() == self.opts.max_open {
            let oldest = self.stack.len() - self.opts.max_open;
            self.stack[oldest].clear();
        }
        self.stack.push(entries);
    }
}
`;

let t: TempEnv;
let rustRepo: string;
let rustGeneration: string | null;
let goRepo: string;
let rubyRepo: string;
let tsRepo: string;
beforeAll(async () => {
  t = await setupTempEnv();
  ({
    repository: { id: goRepo },
  } = await indexRepository(t.makeRepo({ "router.go": GO_ROUTER, "match.go": GO_MATCH })));
  ({
    repository: { id: rubyRepo },
  } = await indexRepository(
    t.makeRepo({ "lib/client.rb": RUBY_CLIENT, "lib/client/request.rb": RUBY_REQUEST }),
  ));
});
beforeAll(async () => {
  ({
    repository: { id: rustRepo, activeGenerationId: rustGeneration },
  } = await indexRepository(t.makeRepo({ "src/filter.rs": RUST_FILTER, "src/walk.rs": RUST_WALK })));
  ({
    repository: { id: tsRepo },
  } = await indexRepository(
    t.makeRepo({ "source/types/retry.ts": TS_OPTIONS, "source/core/client.ts": TS_CLIENT }),
  ));
});
afterAll(async () => {
  await t?.cleanup();
});

// These tests check the retriever's own order, not the learned ranker's.
retrieversOwnOrder();

describe("the code reading an option answers, not its setter", () => {
  it("Go: StrictSlash(true) is decided where strictSlash is tested", async () => {
    const report = await retrieveReport(
      goRepo,
      "With StrictSlash(true), how does the router decide to redirect /users/ to /users?",
      { mode: "conceptual" },
    );
    const names = report.symbols.map((s) => s.split("::")[1]);
    expect(names.indexOf("Router.redirectTarget")).toBeGreaterThanOrEqual(0);
    expect(names.indexOf("Router.redirectTarget")).toBeLessThan(names.indexOf("Router.StrictSlash"));
    const first = report.answer.split(/\n\s*\n/)[0] ?? "";
    expect(first).toMatch(/`Router\.redirectTarget` \(match\.go:\d+-\d+\)/);
    expect(first).not.toMatch(/raise site/i);
  });

  it("Ruby: follow_redirects is decided where the option is read", async () => {
    const report = await retrieveReport(
      rubyRepo,
      "When does the client follow a redirect, and what does follow_redirects change?",
      { mode: "conceptual" },
    );
    const names = report.symbols.map((s) => s.split("::")[1]);
    const reader = names.indexOf("Client.Request.response_redirects?");
    expect(reader).toBeGreaterThanOrEqual(0);
    expect(reader).toBeLessThan(names.indexOf("Client.ClassMethods.follow_redirects"));
    const first = report.answer.split(/\n\s*\n/)[0] ?? "";
    expect(first).toContain("lib/client/request.rb");
    expect(first).not.toMatch(/^`Client\.ClassMethods\.follow_redirects`/);
  });
});

describe("a setter checking or clamping its argument still hands its standing to the reader", () => {
  it("Rust: max_open clamps 0 to 1 and stores it; push, which tests the stored limit, answers", async () => {
    const report = await retrieveReport(
      rustRepo,
      "With max_open(0), how does the walk limit the maximum number of open directory handles it keeps at once?",
      { mode: "conceptual" },
    );
    const names = report.symbols.map((s) => s.split("::")[1]);
    expect(names.indexOf("Walk.push")).toBeGreaterThanOrEqual(0);
    expect(names.indexOf("Walk.push")).toBeLessThan(names.indexOf("Walk.max_open"));
    const first = report.answer.split(/\n\s*\n/)[0] ?? "";
    expect(first).toMatch(/`Walk\.push` \(src\/walk\.rs:\d+-\d+\)/);
  });

  it("Rust: the clamping max_open is read as a setter storing max_open", async () => {
    const generation = rustGeneration as string;
    const [symbol] = await symbolsByQualifiedIds(generation, ["src/walk.rs::Walk.max_open"]);
    const ranked: Ranked[] = [
      {
        candidate: { key: "max_open", symbol: symbol as SymbolRecord, chunk: null, reason: "" },
        score: 1,
        reasons: [],
      },
    ];
    const { idle, fields } = await idleFunctions(new SourceReader(generation), ranked);
    expect(idle.get("src/walk.rs::Walk.max_open")).toBe("setter");
    expect(fields.get("src/walk.rs::Walk.max_open")?.names).toEqual(["max_open"]);
  });
});

describe("the code testing an option type's fields answers, not the type", () => {
  it("TypeScript: the retry options are decided where their fields are tested", async () => {
    const report = await retrieveReport(
      tsRepo,
      "How does the client decide whether a failed request is retried, and how long it waits?",
      { mode: "conceptual" },
    );
    const names = report.symbols.map((s) => s.split("::")[1]);
    expect(names.indexOf("Client.#computeWait")).toBeGreaterThanOrEqual(0);
    expect(names.indexOf("Client.#computeWait")).toBeLessThan(names.indexOf("RetryOptions"));
    const first = report.answer.split(/\n\s*\n/)[0] ?? "";
    expect(first).toMatch(/`Client\.#computeWait` \(source\/core\/client\.ts:\d+-\d+\)/);
  });
});

describe("the function a wrapper hands the work on to answers, not the wrapper", () => {
  it("Rust: callsite_enabled, one call whose doc repeats the question, gives way to the check it calls", async () => {
    const report = await retrieveReport(
      rustRepo,
      "How does the filter decide whether a callsite is enabled?",
      {
        mode: "conceptual",
      },
    );
    const names = report.symbols.map((s) => s.split("::")[1]);
    expect(names.indexOf("Filter.check")).toBeGreaterThanOrEqual(0);
    expect(names.indexOf("Filter.check")).toBeLessThan(names.indexOf("Filter.callsite_enabled"));
    const first = report.answer.split(/\n\s*\n/)[0] ?? "";
    expect(first).toMatch(/decided in `Filter\.check` \(src\/filter\.rs:14-19\)/);
  });
});

describe("promoteReaders", () => {
  const entry = (id: string, score: number): Ranked => ({
    candidate: { key: id, symbol: { qualifiedId: id } as SymbolRecord, chunk: null, reason: "" },
    score,
    reasons: [],
  });

  it("puts the readers just below the setter's standing before demotion, adding missing ones", () => {
    const ranked = [entry("a::other", 0.5), entry("a::setter", 0.27), entry("b::reader", 0.1)];
    const readers = new Map([
      ["a::setter", [{ qualifiedId: "b::reader" }, { qualifiedId: "b::second" }] as SymbolRecord[]],
    ]);
    const out = promoteReaders(ranked, new Map([["a::setter", 0.9]]), readers, () => "reads it");
    expect(out.map((r) => r.candidate.key)).toEqual(["b::reader", "b::second", "a::other", "a::setter"]);
    expect(out[0]?.score).toBeCloseTo(0.855);
  });
});
