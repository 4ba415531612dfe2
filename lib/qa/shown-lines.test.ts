/**
 * Which lines a citation's snippet shows: matching lines when the question or the
 * answer's words at the citation find some, else the body's first lines — never a doc
 * comment (`/** *\/`, `///`, `#`), a signature, a Python docstring, a licence header or
 * an import block.
 */
import { describe, expect, it } from "vitest";
import { extractAnchors } from "../search/anchors.ts";
import { focusQuery } from "./focus.ts";
import { bodyStart, citationCues, shownLines, SHOWN_LINES, type CitationCues } from "./shown-lines.ts";

const NO_CUES: CitationCues = { names: [], phrases: [] };

function file(text: string): string[] {
  return text.replace(/^\n/, "").split("\n");
}

const line = (lines: string[], text: string) => lines.findIndex((l) => l.includes(text)) + 1;

function show(
  lines: string[],
  opts: { start?: number; end?: number; question?: string; cues?: CitationCues } = {},
) {
  const startLine = opts.start ?? 1;
  const range = shownLines({
    lines,
    startLine,
    endLine: opts.end ?? lines.length,
    symbolStart: true,
    query: opts.question ? focusQuery(opts.question, extractAnchors(opts.question)) : null,
    cues: opts.cues ?? NO_CUES,
  });
  return { ...range, first: lines[range.startLine - 1] ?? "" };
}

const PHP = file(`
    /**
     * Chooses and creates a default handler to use based on the environment.
     *
     * @throws \\RuntimeException if no viable handler is available.
     */
    public static function chooseHandler(): callable
    {
        $handler = null;
        if (\\defined('CURLOPT_CUSTOMREQUEST')) {
            $handler = new CurlHandler();
        }
        if (\\ini_get('allow_url_fopen')) {
            $handler = $handler ? Proxy::wrapStreaming($handler, new StreamHandler()) : new StreamHandler();
        } elseif (!$handler) {
            throw new \\RuntimeException('GuzzleHttp requires cURL, the allow_url_fopen ini setting, or a custom HTTP handler.');
        }

        return $handler;
    }`);

describe("shownLines", () => {
  it("shows a PHP method's body, not its /** */ comment or signature", () => {
    const shown = show(PHP);
    expect(shown.first).toContain("$handler = null;");
    expect(shown.startLine).toBe(line(PHP, "$handler = null;"));
    expect(shown.endLine).toBe(PHP.length);
  });

  it("shows the raise site of a quoted message, with the condition above it", () => {
    const question =
      'I get RuntimeException: "GuzzleHttp requires cURL, the allow_url_fopen ini setting, or a custom HTTP handler." Why?';
    // Setup lines between the body's start and the raise: the snippet moves down to it.
    const at = line(PHP, "$handler = null;");
    const lines = [
      ...PHP.slice(0, at),
      ...Array.from({ length: 15 }, (_, i) => `        $x${i} = ${i};`),
      ...PHP.slice(at),
    ];
    const shown = show(lines, { question });
    const raise = line(lines, "throw new");
    expect(shown.startLine).toBeGreaterThan(at + 10);
    expect(shown.startLine).toBeLessThanOrEqual(line(lines, "elseif (!$handler)"));
    expect(shown.endLine).toBeGreaterThanOrEqual(raise);
    // The raise shows without scrolling, however many lines above it hold a question word.
    expect(raise - shown.startLine).toBeLessThan(6);
  });

  it("shows the line that calls what the answer names at the citation", () => {
    const lines = file(`
/// Builds the client.
///
/// Reads the settings first.
pub fn build(config: &Config) -> Result<Client, Error>
where
    Config: Clone,
{
    let timeout = config.timeout();
    let pool = Pool::new(config.size);
    let tls = tls::connector(config)?;
${Array.from({ length: 20 }, (_, i) => `    step_${i}(&pool);`).join("\n")}
    Ok(Client::start(pool, tls, timeout))
}`);
    expect(show(lines).first).toContain("let timeout");
    const answer = "`client::build` (src/lib.rs:1-33) → `Client::start`";
    const cite = { index: answer.indexOf("src/"), length: "src/lib.rs:1-33".length };
    const cues = citationCues(answer, cite, [cite], ["src/lib.rs::build"]);
    expect(cues.names).toEqual(["start"]);
    const shown = show(lines, { cues });
    expect(shown.startLine).toBe(line(lines, "Client::start") - 2);
  });

  it("skips # comments and a Ruby signature", () => {
    const lines = file(`
  # How long to wait before the next attempt.
  # Doubles each time.
  def delay_for(attempt)
    base = 2**attempt
    base + rand(10)
  end`);
    expect(show(lines).first).toBe("    base = 2**attempt");
  });

  it("skips a Python docstring inside the body, and decorators before the signature", () => {
    const lines = file(`
@retry(times=3)
def charge_card(card,
                amount):
    """Charge a card.

    Raises PaymentDeclined when the bank says no.
    """
    # the gateway wants cents
    cents = int(amount * 100)
    return gateway.charge(card, cents)`);
    expect(show(lines).first).toBe("    cents = int(amount * 100)");
  });

  it("shows a one-line definition whole, and a declaration without a body from its signature", () => {
    const oneLine = file(`
/** The answer. */
function answer() { return 42; }`);
    expect(show(oneLine).first).toBe("function answer() { return 42; }");
    const declaration = file(`
/** Closes it. */
void close();`);
    expect(show(declaration).first).toBe("void close();");
  });

  it("shows a whole file past its licence header and import block", () => {
    const lines = file(`
// Copyright 2024 The Authors.
// Licensed under the MIT licence.

import {
  a,
  b,
} from "./ab";
import c from "./c";

export const LIMIT = 3;
export function run() {}`);
    expect(show(lines).first).toBe("export const LIMIT = 3;");
    const ruby = file(`
# frozen_string_literal: true

require "json"
require_relative "retrier"

module Jobs
  class Runner`);
    expect(show(ruby).first).toBe("  class Runner");
    const go = file(`
package jobs

import (
	"fmt"
	"time"
)

func Run() {}`);
    expect(show(go).first).toBe("func Run() {}");
    const python = file(`
"""Payments.

Charges cards.
"""
from __future__ import annotations
from .gateway import (
    charge,
)

LIMIT = 3`);
    expect(show(python).first).toBe("LIMIT = 3");
  });

  it("shows a span starting mid-body (a focus window) from its first code line", () => {
    const lines = file(`
def f():
    x = 1
    # why y
    y = 2
    if y:
        raise ValueError("y")`);
    expect(bodyStart({ lines, startLine: 3, endLine: 6, symbolStart: false })).toBe(4);
    const shown = shownLines({
      lines,
      startLine: 3,
      endLine: 6,
      symbolStart: false,
      query: null,
      cues: NO_CUES,
    });
    expect(shown).toEqual({ startLine: 4, endLine: 6 });
  });

  it("starts where the matching statement starts, not inside its arguments", () => {
    const lines = file(`
    private function onFulfilled(RequestInterface $request, array $options): callable
    {
        $a = 1;
        $b = 2;
        $c = 3;
        return function ($value) use ($request, $options) {
            if (!($this->decider)(
                $options['retries'],
                $request,
                $value,
                null
            )) {
                return $value;
            }

            return $this->doRetry($request, $options, $value);
        };
    }`);
    const shown = show(lines, {
      question: "When are retries done?",
      cues: { names: ["doRetry"], phrases: ["$this->doretry($request"] },
    });
    expect(shown.first).toContain("if (!($this->decider)(");
    // Nor at a closing brace above the one line that matches.
    expect(show(lines, { cues: { names: ["doRetry"], phrases: [] } }).first).toContain(
      "return $this->doRetry",
    );
  });

  it("shows an empty class with its declaration, not its closing brace", () => {
    const lines = file(`
/**
 * Exception for invalid arguments.
 */
class InvalidArgumentException extends \\InvalidArgumentException implements GuzzleException
{
}`);
    expect(show(lines).first).toContain("class InvalidArgumentException");
  });

  it("keeps a line that stands out in view, but not one more question word", () => {
    const lines = file(`
def parse(cfg):
    date = cfg.date
${Array.from({ length: 12 }, (_, i) => `    step${i}(date)`).join("\n")}
    return parse_date(date, date.utc)`);
    // Every line holds "date", the last one twice: the window still starts near the top.
    expect(show(lines, { question: "How is a date parsed?" }).startLine).toBeLessThanOrEqual(4);
    const cues = { names: ["parse_date"], phrases: [] };
    const shown = show(lines, { question: "How is a date parsed?", cues });
    expect(lines.length - shown.startLine).toBeLessThan(6);
  });

  it("shows at most a dozen lines, inside the span", () => {
    const lines = ["def long():", ...Array.from({ length: 50 }, (_, i) => `    x${i} = ${i}`)];
    const shown = show(lines);
    expect(shown).toMatchObject({ startLine: 2, endLine: 1 + SHOWN_LINES });
    const inner = show(lines, { start: 1, end: 5 });
    expect(inner.endLine).toBe(5);
  });
});

describe("citationCues", () => {
  it("reads names and quoted messages of the citation's own stretch of its line", () => {
    const answer =
      '`Utils.chooseHandler` raises `RuntimeException` with "GuzzleHttp requires cURL, …" — src/Utils.php:77-109 and `Other.x` (src/Other.php:1-9)\nnext line `Unrelated`';
    const first = { index: answer.indexOf("src/Utils"), length: "src/Utils.php:77-109".length };
    const second = { index: answer.indexOf("src/Other"), length: "src/Other.php:1-9".length };
    const cues = citationCues(answer, first, [first, second], ["Utils.chooseHandler"]);
    expect(cues).toEqual({ names: ["RuntimeException"], phrases: ["guzzlehttp requires curl,"] });
    expect(citationCues(answer, second, [first, second], [null]).names).toEqual([]);
  });
});
