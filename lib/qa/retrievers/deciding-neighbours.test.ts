/**
 * The condition a question asks about lives one call below what ranks first: the callee a
 * leading function tests, and whose own conditions carry the question, comes up just
 * below it, which keeps its place (Go and Rust fixtures, their calls resolved by the real
 * index); the choice itself (which callee, when) is checked on its own. Among the leading
 * few, a function that only passes the value along gives its place to one that decides
 * (Ruby and C# fixtures read by the real index, and the ordering on its own).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexRepository } from "../../builds/build.ts";
import { setupTempEnv, type TempEnv } from "../../../test-support/temp-env.ts";
import { symbolsByQualifiedIds, type SymbolRecord } from "../../db/code-graph.ts";
import { extractAnchors } from "../../search/anchors.ts";
import { SourceReader } from "../context.ts";
import { focusQuery } from "../focus.ts";
import {
  decidingFirst,
  decidingNeighbours,
  decidingWeights,
  withDecidingNeighbours,
  type Neighbour,
} from "./deciding-neighbours.ts";
import type { Ranked } from "./shared.ts";

const GO_BREAKER = `package breaker

// Breaker guards the calls made to a service: when too many fail, new calls are
// rejected instead of being let through to the service.
type Breaker struct {
\tname  string
\tstats *window
}

// Do runs the call through the breaker unless the breaker rejects it.
func (b *Breaker) Do(call func() error) error {
\tif err := admit(b.stats); err != nil {
\t\treturn err
\t}
\terr := call()
\tb.stats.add(err == nil)
\treturn err
}

// Name is the breaker's name.
func (b *Breaker) Name() string {
\treturn b.name
}
`;

const GO_ADMIT = `package breaker

import (
\t"errors"
\t"math/rand"
)

var errUnavailable = errors.New("service unavailable")

func admit(w *window) error {
\taccepts, total := w.history()
\tdropRatio := (float64(total) - 1.5*float64(accepts)) / float64(total+1)
\tif dropRatio > 0 && rand.Float64() < dropRatio {
\t\treturn errUnavailable
\t}
\treturn nil
}
`;

const GO_WINDOW = `package breaker

type window struct {
\tok    int64
\ttotal int64
}

func (w *window) add(ok bool) {
\tw.total++
\tif ok {
\t\tw.ok++
\t}
}

func (w *window) history() (int64, int64) {
\treturn w.ok, w.total
}
`;

const RUST_DISPATCH = `/// Where events go.
pub struct Dispatch {
    id: u64,
}

static GLOBAL: Dispatch = Dispatch { id: 0 };
static mut SCOPED: usize = 0;

/// Sets this thread's default dispatcher for events until the guard is dropped.
pub fn set_default(dispatch: &Dispatch) -> Guard {
    if current_or_global().id == dispatch.id {
        return Guard { previous: dispatch.id, next: dispatch.id };
    }
    Guard { previous: 0, next: dispatch.id }
}

pub struct Guard {
    previous: u64,
    next: u64,
}
`;

const RUST_CURRENT = `use crate::dispatch::{Dispatch, GLOBAL, SCOPED};

pub(crate) fn current_or_global() -> &'static Dispatch {
    match thread_default() {
        Some(dispatch) if unsafe { SCOPED } > 0 => dispatch,
        _ => &GLOBAL,
    }
}

fn thread_default() -> Option<&'static Dispatch> {
    None
}
`;

const JAVA_RULE = `package rules;

import java.util.function.Predicate;

public interface Rule {
    /** Applies a condition to the rule's validators. */
    void applyCondition(Predicate<Object> condition);
}
`;

const JAVA_BASE_RULE = `package rules;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

public class BaseRule implements Rule {
    private final List<Validator> validators = new ArrayList<>();
    private boolean toAll = true;

    public void applyCondition(Predicate<Object> condition) {
        if (toAll) {
            for (Validator v : validators) {
                v.when(condition);
            }
        } else if (!validators.isEmpty()) {
            validators.get(validators.size() - 1).when(condition);
        }
    }
}
`;

const RUBY_CONNECTION = `module Web
  class Connection
    def initialize(url, options = {})
      @url_prefix = url
      @options = options
    end

    # The URL a request goes to, from the connection's base URL.
    def build_exclusive_url(url = nil)
      base = @url_prefix.dup
      if url && !base.end_with?('/')
        base = "#{base}/"
      end
      url ? base + url : base
    end
  end

  def self.new(url, options = {})
    Connection.new(url, options)
  end
end
`;

const CSHARP_RULES = `using System;
using System.Collections.Generic;

namespace Rules {
  public static class RuleExtensions {
    public static RuleBuilder NotEmpty(this RuleBuilder builder) {
      return builder.SetValidator(new object());
    }
  }

  public class RuleBuilder {
    private readonly List<object> validators = new List<object>();
    private bool applyToAll = true;

    public RuleBuilder SetValidator(object validator) {
      validators.Add(validator);
      return this;
    }

    public void ApplyCondition(Func<bool> condition) {
      if (applyToAll && validators.Count > 0) {
        Console.WriteLine("condition applies to every validator");
      }
    }
  }
}
`;

const PYTHON_POOL = `import os


class Pool:
    """Keeps directory handles open while a tree is walked."""

    def __init__(self, max_open):
        self.max_open = max_open
        self.handles = []

    def open_next(self, path):
        """Opens the handle of the next directory."""
        if len(self.handles) >= self.max_open:
            oldest = self.handles[0]
            release(oldest)
        log_opening(path)
        self.handles.append(open_handle(path))

    def name(self):
        return "pool"


def release(handle):
    handle.buffered = list(handle.entries)
    handle.close()


def log_opening(path):
    print("opening", path)


def open_handle(path):
    return os.scandir(path)
`;

const TS_PARSER = `export interface Header {
  cty?: string;
  claims?: Record<string, unknown>;
}

export function trace(token: string, step: number): void {
  console.debug(token.length, step);
}

/** Parses a token: its payload is claims unless the header says it is a nested token. */
export function parse(token: string, header: Header): unknown {
${Array.from({ length: 50 }, (_, i) => `  trace(token, ${i + 1});`).join("\n")}
  if (claimsExpected(header)) {
    return JSON.parse(token);
  }
  return new TextEncoder().encode(token);
}

export function claimsExpected(header: Header): boolean {
  if (header.cty === "JWT") return false;
  return header.claims !== undefined;
}
`;

const JAVA_SNIFFER = `package text;

final class CharsetSniffer {
    private final byte[] head;
    private int width = 1;

    CharsetSniffer(byte[] head) {
        this.head = head;
    }

    /** Works out the charset of the input from its first bytes. */
    String detectCharset() {
        int quad = (head[0] << 24) | (head[1] << 16) | (head[2] << 8) | head[3];
        if (skipByteOrderMark(quad)) {
            return width == 2 ? "UTF-16" : "UTF-8";
        } else if (looksUtf32(quad)) {
            return "UTF-32";
        } else if (looksUtf16(quad >>> 16)) {
            return "UTF-16";
        }
        return "UTF-8";
    }

    boolean skipByteOrderMark(int quad) {
        if ((quad >>> 16) == 0xFEFF) {
            width = 2;
            return true;
        }
        return (quad >>> 8) == 0xEFBBBF;
    }

    boolean looksUtf32(int quad) {
        return (quad >> 8) == 0 || (quad & 0x00FFFFFF) == 0;
    }

    boolean looksUtf16(int pair) {
        return (pair & 0xFF00) == 0 || (pair & 0x00FF) == 0;
    }

    String describe() {
        return "sniffer of " + head.length + " bytes";
    }
}
`;

const PYTHON_ROUTER = `from http import HTTPStatus


def route_matches(route, path, method):
    return route.path == path and method in route.methods


def path_matches(route, request):
    return route.path == request.path


def dispatch(routes, request):
    allowed = []
    for route in routes:
        if route_matches(route, request.path, request.method):
            return route.handler(request)
        if path_matches(route, request):
            allowed.extend(route.methods)
    if allowed:
        return HTTPStatus.METHOD_NOT_ALLOWED, allowed
    return HTTPStatus.NOT_FOUND, []


def normalize(path):
    return path.rstrip("/") or "/"


def link(route):
    if normalize(route.path) == "/":
        return "index"
    return route.path


def mount(prefix, route):
    if normalize(prefix) != "/":
        route.path = prefix + route.path
    return route


def redirect_target(request):
    if normalize(request.path) != request.path:
        return normalize(request.path)
    return None


def strip(request):
    if request.path.endswith("/"):
        return normalize(request.path)
    return request.path
`;

let t: TempEnv;
let ruby: string;
let csharp: string;
let go: string;
let rust: string;
let java: string;
let python: string;
let ts: string;
let sniffer: string;
let router: string;
beforeAll(async () => {
  t = await setupTempEnv();
  const index = async (files: Record<string, string>) =>
    (await indexRepository(t.makeRepo(files))).repository.activeGenerationId as string;
  go = await index({
    "breaker.go": GO_BREAKER,
    "admit.go": GO_ADMIT,
    "window.go": GO_WINDOW,
  });
  rust = await index({ "src/dispatch.rs": RUST_DISPATCH, "src/current.rs": RUST_CURRENT });
  java = await index({ "src/rules/Rule.java": JAVA_RULE, "src/rules/BaseRule.java": JAVA_BASE_RULE });
  ruby = await index({ "lib/web.rb": RUBY_CONNECTION });
  csharp = await index({ "src/Rules.cs": CSHARP_RULES });
  python = await index({ "walk/pool.py": PYTHON_POOL });
  ts = await index({ "src/parser.ts": TS_PARSER });
  sniffer = await index({ "src/text/CharsetSniffer.java": JAVA_SNIFFER });
  router = await index({ "web/routing.py": PYTHON_ROUTER });
});
afterAll(async () => {
  await t?.cleanup();
});

/** The ranking of some symbols, best first, as retrieval hands it on. */
async function rankingOf(generationId: string, ids: string[]): Promise<Ranked[]> {
  const symbols = await symbolsByQualifiedIds(generationId, ids);
  return ids.map((id, i) => {
    const symbol = symbols.find((s) => s.qualifiedId === id) as SymbolRecord;
    return { candidate: { key: id, symbol, chunk: null, reason: "" }, score: 1 - i / 10, reasons: [] };
  });
}

async function reranked(generationId: string, ids: string[], question: string): Promise<string[]> {
  const ranked = await withDecidingNeighbours(
    generationId,
    new SourceReader(generationId),
    await rankingOf(generationId, ids),
    focusQuery(question, extractAnchors(question)),
  );
  return ranked.map((r) => r.candidate.symbol?.qualifiedName ?? "");
}

describe("the callee that decides comes up below its caller", () => {
  it("Go: the breaker's Do tests admit, whose drop ratio rejects calls", async () => {
    const ids = ["breaker.go::Breaker.Do", "breaker.go::Breaker.Name", "window.go::window.add"];
    const question = "How does the breaker decide to drop a call instead of letting it through?";
    expect(await reranked(go, ids, question)).toEqual(["Breaker.Do", "admit", "Breaker.Name", "window.add"]);
    // A question none of whose words admit decides on leaves the ranking as it was.
    expect(await reranked(go, ids, "What is the breaker's name?")).toEqual([
      "Breaker.Do",
      "Breaker.Name",
      "window.add",
    ]);
  });

  it("Rust: set_default tests the dispatcher current_or_global picks, the global one or the thread's", async () => {
    const question = "How does it decide between the thread's default dispatcher and the global one?";
    expect(await reranked(rust, ["src/dispatch.rs::set_default"], question)).toEqual([
      "set_default",
      "current_or_global",
    ]);
  });
});

describe("the callee a condition on the question leads to comes up below its caller", () => {
  it("Python: open_next releases the oldest handle when the max_open limit is reached", async () => {
    const ids = ["walk/pool.py::Pool.open_next", "walk/pool.py::Pool.name"];
    const question = "How does the pool stay under the max_open limit of open handles?";
    expect(await reranked(python, ids, question)).toEqual(["Pool.open_next", "release", "Pool.name"]);
    // Called after that condition (a logger, a step of the work), a callee stays where it
    // was, though the question is about what it does.
    const printed = "Where does the pool print the path of each directory?";
    expect(await reranked(python, ids, printed)).toEqual(["Pool.open_next", "Pool.name"]);
  });

  it("TypeScript: the predicate a long function tests after fifty other calls", async () => {
    const question = "Why does parse skip the claims of a nested token?";
    expect(await reranked(ts, ["src/parser.ts::parse"], question)).toEqual(["parse", "claimsExpected"]);
  });
});

describe("the function calling a leading one under its conditions comes up below it", () => {
  it("Java: detectCharset tests the three leading checks, so it chooses between them", async () => {
    const ids = [
      "src/text/CharsetSniffer.java::CharsetSniffer.skipByteOrderMark",
      "src/text/CharsetSniffer.java::CharsetSniffer.looksUtf16",
      "src/text/CharsetSniffer.java::CharsetSniffer.looksUtf32",
      "src/text/CharsetSniffer.java::CharsetSniffer.describe",
    ];
    const question =
      "How does it work out whether the input is UTF-16 or UTF-32, with or without a byte order mark?";
    expect(await reranked(sniffer, ids, question)).toEqual([
      "CharsetSniffer.skipByteOrderMark",
      "CharsetSniffer.detectCharset",
      "CharsetSniffer.looksUtf16",
      "CharsetSniffer.looksUtf32",
      "CharsetSniffer.describe",
    ]);
  });

  it("Python: dispatch tests the leading route_matches on the path and method asked about", async () => {
    const ids = ["web/routing.py::route_matches", "web/routing.py::link"];
    const question =
      "When the path matches but the method is not allowed, does the client get a 405 or a 404?";
    expect(await reranked(router, ids, question)).toEqual(["route_matches", "dispatch", "link"]);
  });

  it("Python: a helper called from many places has no partner among its callers", async () => {
    // normalize is called under a condition on the path by four functions (redirect_target
    // among them): none of them is what the question asks more than the others.
    const question = "How is a path normalized when it ends with a slash, and where is it redirected?";
    expect(await reranked(router, ["web/routing.py::normalize"], question)).toEqual(["normalize"]);
  });
});

describe("an implementation takes its leading declaration's place", () => {
  it("Java: the interface method gives way to the class implementing it, kept below", async () => {
    const question = "Does the condition apply to all the validators or only to the last one?";
    expect(await reranked(java, ["src/rules/Rule.java::Rule.applyCondition"], question)).toEqual([
      "BaseRule.applyCondition",
      "Rule.applyCondition",
    ]);
  });
});

describe("decidingNeighbours", () => {
  const symbol = (name: string) =>
    ({
      qualifiedId: `a.go::${name}`,
      qualifiedName: name,
      name,
      kind: "function",
      path: "a.go",
    }) as SymbolRecord;
  const weights = new Map([
    ["decides", 3],
    ["checks", 1],
    ["nothing", 0],
  ]);
  const weightOf = (s: SymbolRecord) => weights.get(s.name) ?? 0;
  const n = (name: string, leader: string): Neighbour => ({
    symbol: symbol(name),
    leader: `a.go::${leader}`,
  });

  it("takes the neighbours carrying most of the question, one per leading function, best first", () => {
    const chosen = decidingNeighbours(
      [n("checks", "entry"), n("decides", "entry"), n("checks", "wrapper")],
      weightOf,
    );
    expect(chosen.map((c) => [c.neighbour.leader, c.neighbour.symbol.name])).toEqual([
      ["a.go::entry", "decides"],
      ["a.go::wrapper", "checks"],
    ]);
  });

  it("takes none carrying none of the question", () => {
    expect(decidingNeighbours([n("nothing", "entry")], weightOf)).toEqual([]);
  });
});

/** The leading symbols put in deciding order, with what passes the value along as `passesOn` says. */
async function decidingOrderOf(
  generationId: string,
  ids: string[],
  question: string,
  passesOn: (s: SymbolRecord) => boolean,
): Promise<string[]> {
  const ranked = await rankingOf(generationId, ids);
  const weight = await decidingWeights(
    new SourceReader(generationId),
    ranked.flatMap((r) => r.candidate.symbol ?? []),
    focusQuery(question, extractAnchors(question)),
  );
  return decidingFirst(ranked, weight, passesOn).map((r) => r.candidate.symbol?.qualifiedName ?? "");
}

describe("what passes the value along gives way to what decides", () => {
  it("Ruby: the factory and the constructor come after the method joining the base URL", async () => {
    const ids = [
      "lib/web.rb::Web.new",
      "lib/web.rb::Web.Connection.initialize",
      "lib/web.rb::Web.Connection.build_exclusive_url",
    ];
    const question = "How does it work out the URL it requests from the connection's base URL?";
    const factory = (s: SymbolRecord) => s.name === "new" || s.name === "initialize";
    expect(await decidingOrderOf(ruby, ids, question, factory)).toEqual([
      "Web.Connection.build_exclusive_url",
      "Web.new",
      "Web.Connection.initialize",
    ]);
    // Nothing passing the value along, nothing moves.
    expect(await decidingOrderOf(ruby, ids, question, () => false)).toEqual([
      "Web.new",
      "Web.Connection.initialize",
      "Web.Connection.build_exclusive_url",
    ]);
  });

  it("C#: the extension the question names as it is called comes after the method testing the condition", async () => {
    const ids = [
      "src/Rules.cs::Rules.RuleExtensions.NotEmpty",
      "src/Rules.cs::Rules.RuleBuilder.ApplyCondition",
    ];
    const question =
      "If I write RuleFor(x => x.Email).NotEmpty().When(x => x.Ok), does the condition apply to all validators?";
    const named = (s: SymbolRecord) => s.name === "NotEmpty";
    expect(await decidingOrderOf(csharp, ids, question, named)).toEqual([
      "Rules.RuleBuilder.ApplyCondition",
      "Rules.RuleExtensions.NotEmpty",
    ]);
  });
});

describe("decidingFirst", () => {
  const ranked = (names: string[], kinds: Record<string, string> = {}): Ranked[] =>
    names.map((name, i) => {
      const symbol = {
        qualifiedId: `a.go::${name}`,
        qualifiedName: name,
        name,
        kind: kinds[name] ?? "function",
      };
      return {
        candidate: { key: symbol.qualifiedId, symbol: symbol as SymbolRecord, chunk: null, reason: "" },
        score: 1 - i / 10,
        reasons: [],
      };
    });
  const weights: Record<string, number | null> = { entry: 0, wrapper: 1, decides: 4, helper: 2, Type: null };
  const weight = (s: SymbolRecord) => (s.name in weights ? (weights[s.name] ?? null) : 0);
  const order = (list: Ranked[], passing: string[]) =>
    decidingFirst(list, weight, (s) => passing.includes(s.name)).map((r) => r.candidate.symbol?.name);

  it("puts a function passing the value along and deciding under half of the best after the others, scores kept descending", () => {
    const out = decidingFirst(ranked(["entry", "wrapper", "decides", "helper"]), weight, (s) =>
      ["entry", "wrapper"].includes(s.name),
    );
    expect(out.map((r) => r.candidate.symbol?.name)).toEqual(["decides", "helper", "entry", "wrapper"]);
    const scores = out.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it("keeps a function that does the work without naming the question's words in a condition", () => {
    // An increment or a replacement carries no condition, yet decides: only what passes the value along moves.
    expect(order(ranked(["entry", "decides"]), [])).toEqual(["entry", "decides"]);
  });

  it("keeps a passing function deciding half as much as the best, and what it cannot weigh (a type)", () => {
    expect(order(ranked(["helper", "decides"]), ["helper"])).toEqual(["helper", "decides"]);
    expect(order(ranked(["Type", "decides"], { Type: "class" }), ["Type"])).toEqual(["Type", "decides"]);
  });

  it("moves nothing when no other leading function decides, nor below the leading five", () => {
    expect(order(ranked(["entry", "wrapper"]), ["entry", "wrapper"])).toEqual(["entry", "wrapper"]);
    const long = ["entry", "x2", "x3", "x4", "x5", "decides"];
    expect(order(ranked(long), ["entry"])).toEqual(long);
  });
});
