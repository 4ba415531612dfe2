/**
 * Macros on a flow's way: the calls written in a C `#define` or a Rust `macro_rules!` body,
 * and a walk on a real index going through a macro (which the index records as a call to the
 * macro only) to the functions its body calls, in a C and a Rust fixture.
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
import { exploratoryFlow } from "../../../test-support/qa-flow.ts";
import { isMacro, macroBodyCalls } from "./exploratory-macros.ts";

describe("macroBodyCalls", () => {
  it("reads a C macro's calls, not its parameters, keywords or function pointers", () => {
    const body = [
      "#define PEEK_TOKEN(parser) \\",
      "    ((parser->token_available || yaml_parser_fetch_more_tokens(parser)) ? \\",
      "        parser->tokens.head : parser->read_handler(parser))",
    ].join("\n");
    expect(macroBodyCalls(body, "PEEK_TOKEN")).toEqual([
      { name: "yaml_parser_fetch_more_tokens", owner: null, onValue: false },
    ]);
  });

  it("reads a Rust macro's calls by path, macros it invokes and methods on values, leaving its doc examples out", () => {
    const body = [
      "/// ```",
      '/// info!(target: "x", answer = compute_answer());',
      "/// ```",
      "macro_rules! info {",
      "    ($($arg:tt)+) => {",
      "        $crate::event!($crate::Level::INFO, $($arg)+);",
      "        if enabled { $crate::Event::dispatch(meta, &values); (&error).kind_of() }",
      "    };",
      "}",
    ].join("\n");
    expect(macroBodyCalls(body, "info")).toEqual([
      { name: "event", owner: null, onValue: false },
      { name: "dispatch", owner: "Event", onValue: false },
      { name: "kind_of", owner: null, onValue: true },
    ]);
  });

  it("tells a function-like macro by its signature", () => {
    expect(isMacro({ signature: "#define PEEK_TOKEN(parser)" })).toBe(true);
    expect(isMacro({ signature: "macro_rules! info" })).toBe(true);
    expect(isMacro({ signature: "#define MAX_DEPTH 16" })).toBe(false);
    expect(isMacro({ signature: "int yaml_parser_parse(yaml_parser_t *parser)" })).toBe(false);
  });
});

const PARSER_C = `#include "scanner.h"

#define PEEK_TOKEN(parser) \\
    ((parser->ready || fetch_more_tokens(parser)) ? parser->head : 0)

static int parse_stream_start(parser_t *parser) {
    token_t *token = PEEK_TOKEN(parser);
    if (!token) return 0;
    return token->kind;
}

int parse_event(parser_t *parser) {
    return parse_stream_start(parser);
}
`;

const SCANNER_C = `#include "scanner.h"

int fetch_more_tokens(parser_t *parser) {
    return fetch_next_token(parser);
}

int fetch_next_token(parser_t *parser) {
    parser->ready = 1;
    return 1;
}
`;

const MACROS_RS = `/// Logs an event.
macro_rules! note {
    ($($arg:tt)+) => {
        $crate::Event::dispatch(format_args!($($arg)+))
    };
}
`;

const EVENT_RS = `pub struct Event {
    text: String,
}

impl Event {
    pub fn dispatch(text: std::fmt::Arguments) {
        let event = Event { text: text.to_string() };
        deliver_to_collector(&event);
    }
}

fn deliver_to_collector(event: &Event) {
    println!("{}", event.text);
}
`;

let repo: IndexedFixture;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-macro-"));
  dir = mkdtempSync(path.join(os.tmpdir(), "wf-macro-repo-"));
  mkdirSync(path.join(dir, "src"));
  writeFileSync(path.join(dir, "src", "scanner.h"), "typedef struct parser_s parser_t;\n");
  writeFileSync(path.join(dir, "src", "parser.c"), PARSER_C);
  writeFileSync(path.join(dir, "src", "scanner.c"), SCANNER_C);
  mkdirSync(path.join(dir, "log"));
  writeFileSync(path.join(dir, "log", "macros.rs"), MACROS_RS);
  writeFileSync(path.join(dir, "log", "event.rs"), EVENT_RS);
  repo = await indexFixture(dir, "macros");
});
afterAll(async () => {
  await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

function flowOf(question: string): Promise<{ flow: string; symbols: string[] }> {
  return exploratoryFlow(repo.repositoryId, question);
}

// These tests check the walk's and the retrievers' own order, not the learned ranker's.
retrieversOwnOrder();

describe("a walk through macros", () => {
  it("goes through a C macro to the function its body calls, in another file, and on from there", async () => {
    const { flow, symbols } = await flowOf("Walk me through parse_event(&parser)");
    expect(flow).toMatch(
      /parse_stream_start\(\)[^\n]*\n\s+→ fetch_more_tokens\(\)[^\n]*\n\s+→ fetch_next_token\(\)/,
    );
    // The macro is not a step of its own.
    expect(flow).not.toContain("PEEK_TOKEN");
    expect(symbols.slice(0, 4)).toEqual([
      "src/parser.c::parse_event",
      "src/parser.c::parse_stream_start",
      "src/scanner.c::fetch_more_tokens",
      "src/scanner.c::fetch_next_token",
    ]);
  });

  it("starts a Rust macro's flow at the functions its body calls by path", async () => {
    const { flow } = await flowOf('Walk me through what happens when note!("saved {}", id) runs');
    expect(flow).toMatch(/note\(\)[^\n]*\n\s+→ Event\.dispatch\(\)[^\n]*\n\s+→ deliver_to_collector\(\)/);
  });
});
