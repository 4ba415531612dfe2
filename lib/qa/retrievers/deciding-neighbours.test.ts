/**
 * The condition a question asks about lives one call below what ranks first: the callee a
 * leading function tests, and whose own conditions carry the question, comes up just
 * below it, which keeps its place (Go and Rust fixtures, their calls resolved by the real
 * index); the choice itself (which callee, when) is checked on its own.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexRepository } from "../../builds/build.ts";
import { setupTempEnv, type TempEnv } from "../../../test-support/temp-env.ts";
import { symbolsByQualifiedIds, type SymbolRecord } from "../../db/code-graph.ts";
import { extractAnchors } from "../../search/anchors.ts";
import { SourceReader } from "../context.ts";
import { focusQuery } from "../focus.ts";
import { decidingNeighbours, withDecidingNeighbours, type Neighbour } from "./deciding-neighbours.ts";
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

let t: TempEnv;
let go: string;
let rust: string;
let java: string;
beforeAll(async () => {
  t = await setupTempEnv();
  const index = async (files: Record<string, string>) =>
    (await indexRepository(t.makeRepo(files))).repository.activeGenerationId as string;
  go = await index({ "breaker.go": GO_BREAKER, "admit.go": GO_ADMIT, "window.go": GO_WINDOW });
  rust = await index({ "src/dispatch.rs": RUST_DISPATCH, "src/current.rs": RUST_CURRENT });
  java = await index({ "src/rules/Rule.java": JAVA_RULE, "src/rules/BaseRule.java": JAVA_BASE_RULE });
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
