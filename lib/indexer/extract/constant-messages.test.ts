/**
 * Messages held in named constants read at their raise sites: class constants joined over
 * lines, static final fields, module constants, Go package consts, `#define`s, locals set
 * just before the raise — and names that hold no literal, or a local of another function,
 * left unread.
 */
import { describe, expect, it } from "vitest";
import type { CodeLanguage } from "../types";
import { extractSource } from "./index";

async function errorsOf(language: CodeLanguage, source: string, name: string) {
  const { symbols } = await extractSource(language, source);
  const symbol = symbols.find((s) => s.qualifiedName === name);
  if (!symbol) throw new Error(`no ${name} in ${symbols.map((s) => s.qualifiedName).join(", ")}`);
  return { raises: symbol.raises, errorStrings: symbol.errorStrings };
}

describe("messages held in constants", () => {
  it("Ruby: a class constant of adjacent literals raised bare is a RuntimeError with that message", async () => {
    const source = `class RackBuilder
  MISSING_ADAPTER_ERROR = 'An attempt to run a request without adapter has been made. ' \\
                          'Please set Faraday.default_adapter.'
  def ensure_adapter!
    raise MISSING_ADAPTER_ERROR unless @adapter
  end
  def lock!
    raise ArgumentError, LOCKED if locked?
  end
  LOCKED = "builder is locked"
end`;
    expect(await errorsOf("ruby", source, "RackBuilder.ensure_adapter!")).toEqual({
      raises: ["RuntimeError"],
      errorStrings: [
        "An attempt to run a request without adapter has been made. Please set Faraday.default_adapter.",
      ],
    });
    expect(await errorsOf("ruby", source, "RackBuilder.lock!")).toEqual({
      raises: ["ArgumentError"],
      errorStrings: ["builder is locked"],
    });
  });

  it("Python: a module constant of implicit concatenation, and a message set just before the raise", async () => {
    const source = `NO_ROUTE = ("no route " "matched")

def lookup(key):
    raise KeyError(NO_ROUTE)

def check(value):
    msg = f"invalid value {value!r}"
    raise ValueError(msg)

def other(msg):
    raise TypeError(msg)
`;
    expect((await errorsOf("python", source, "lookup")).errorStrings).toEqual(["no route matched"]);
    expect((await errorsOf("python", source, "check")).errorStrings).toEqual(["invalid value {…}"]);
    // `msg` here is a parameter: the local of `check` is not its value.
    expect((await errorsOf("python", source, "other")).errorStrings).toEqual([]);
  });

  it("Java and C#: static final and const fields, `+`-joined, also as a format", async () => {
    const java = `class Names {
  private static final String CLASH = "tag cannot be used " + "for both names";
  static final String FMT = "bad index %d";
  void put() { throw new IllegalArgumentException(CLASH); }
  void at(int i) { throw new IndexOutOfBoundsException(String.format(FMT, i)); }
}`;
    expect((await errorsOf("java", java, "Names.put")).errorStrings).toEqual([
      "tag cannot be used for both names",
    ]);
    expect((await errorsOf("java", java, "Names.at")).errorStrings).toEqual(["bad index %d"]);
    const csharp = `class Mediator {
  private const string NotARequest = "does not implement IRequest";
  public void Send(object request) { throw new ArgumentException(NotARequest, nameof(request)); }
}`;
    expect(await errorsOf("csharp", csharp, "Mediator.Send")).toEqual({
      raises: ["ArgumentException"],
      errorStrings: ["does not implement IRequest"],
    });
  });

  it("Go, TypeScript, PHP and Rust: package consts, module consts, class constants, const items", async () => {
    const go = `package mux

import "errors"

const (
	msgNoRoute = "mux: no route matched"
)

func (r *Router) Match() error {
	return errors.New(msgNoRoute)
}`;
    expect((await errorsOf("go", go, "Router.Match")).errorStrings).toEqual(["mux: no route matched"]);
    const ts = `const TIMED_OUT = "Request timed out";
export function timeout(): never { throw new TimeoutError(TIMED_OUT); }`;
    expect((await errorsOf("typescript", ts, "timeout")).errorStrings).toEqual(["Request timed out"]);
    const php = `<?php
class FileStore {
    private const UNREADABLE = 'Unable to read any of the environment file(s)';
    public function read() { throw new InvalidPathException(self::UNREADABLE); }
}`;
    expect((await errorsOf("php", php, "FileStore.read")).errorStrings).toEqual([
      "Unable to read any of the environment file(s)",
    ]);
    const rust = `const MISSING: &str = "span to exist";
fn get(id: u64) -> Result<Span, Error> { Err(Error::new(MISSING)) }`;
    expect((await errorsOf("rust", rust, "get")).errorStrings).toEqual(["span to exist"]);
  });

  it("C: a #define of adjacent literals and a static string; a name holding no literal is left out", async () => {
    const source = `#define BAD_SPEC "invalid format " "specifier"
static const char *no_memory = "out of memory";
static int limit = 4;
int parse(int n) {
  if (n > limit) report_error(limit, BAD_SPEC);
  if (n < 0) report_error(limit, no_memory);
  return 0;
}`;
    expect((await errorsOf("c", source, "parse")).errorStrings).toEqual([
      "invalid format specifier",
      "out of memory",
    ]);
  });

  it("Python: each raise reads the message assigned nearest before it, past many other functions", async () => {
    const others = Array.from(
      { length: 12 },
      (_, i) => `def f${i}():\n    err = "other ${i}"\n    raise ValueError(err)\n`,
    );
    const source = `${others.join("\n")}
def assign(key, val):
    if val is None:
        err = f"Value for \`{key}\` is missing"
        raise ValueError(err)
    err = f"Could not interpret value \`{val}\` for parameter \`{key}\`"
    raise ValueError(err)
`;
    expect((await errorsOf("python", source, "assign")).errorStrings).toEqual([
      "Value for `{…}` is missing",
      "Could not interpret value `{…}` for parameter `{…}`",
    ]);
  });
});
