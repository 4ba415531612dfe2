/**
 * Diagnostic retrieval in every language: stack traces and panics, sanitizer reports,
 * linker errors, error messages raised or built in code, options and configuration keys,
 * and the partner files a fix touches too — over a small repository of real-shaped code
 * in C, C++, Go, Rust, Java and JavaScript, indexed by the real indexer.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexFixture, setupQaHome, type IndexedFixture } from "../../../test-support/qa-env.ts";
import { retrieveReport } from "../retrieve.ts";

const FILES: Record<string, string> = {
  "src/value.h": `#ifndef VALUE_H
#define VALUE_H

typedef struct value { int kind; int *refcnt; } value;

value value_parse(const char *text);
void value_free(value v);
void value_dump(value v, int flags);

#endif
`,
  "src/value.c": `#include <stdlib.h>
#include "value.h"

static void report_error(const char *msg) {
  fprintf(stderr, "value: %s\\n", msg);
}

value value_parse(const char *text) {
  value v = {0, NULL};
  if (text[0] == '"' && text[1] == 0) {
    report_error("unterminated string literal");
  }
  return v;
}

void value_free(value v) {
  if (v.refcnt && --*v.refcnt == 0) {
    free(v.refcnt);
  }
}
`,
  "src/print.c": `#include <stdio.h>
#include <stdlib.h>
#include "value.h"

static const char *color_spec(void) {
  const char *colors = getenv("VALUE_COLORS");
  return colors ? colors : "1;30:0;37";
}

void value_dump(value v, int flags) {
  printf("%s%d", color_spec(), v.kind);
}
`,
  "include/fmtx/format.h": `#include <stdexcept>
namespace fmtx {
struct spec { int width; char type; };

class format_handler {
 public:
  void on_text(const char *begin, const char *end);
};

inline spec parse_spec(const char *s) {
  spec result{0, 'd'};
  if (*s == '}') throw std::runtime_error("invalid format spec");
  return result;
}
}  // namespace fmtx
#include "format-inl.h"
`,
  "src/logging.cc": `#include <cstdlib>
namespace logx {
enum Severity { INFO, FATAL };

class LogMessage {
 public:
  ~LogMessage();
  void Flush();
  static void Fail();
 private:
  Severity severity_;
};

void LogMessage::Fail() {
  std::abort();
}

void LogMessage::Flush() {
  if (severity_ == FATAL) Fail();
}

LogMessage::~LogMessage() {
  Flush();
}
}  // namespace logx
`,
  "src/Routing/PathParser.php": `<?php
namespace Routing;

class PathParser
{
    public function parse(string $path): array
    {
        $trimmed = rtrim($path, ']');
        $segments = preg_split('~\\[~', $trimmed);
        if (strlen($path) - strlen($trimmed) !== count($segments) - 1) {
            if (preg_match('~\\]~', $trimmed) === 1) {
                throw new BadPathException('Optional parts can only come at the end of a path');
            }
            throw new BadPathException("Number of opening '[' and closing ']' differs");
        }
        return $segments;
    }
}
`,
  "include/fmtx/base.h": `#include <stdexcept>
namespace fmtx {
class format_error : public std::runtime_error {
 public:
  explicit format_error(const char *message) : std::runtime_error(message) {}
};

inline const char *parse_presentation(const char *begin, char type) {
  if (type != 'd' && type != 'x') throw format_error("unknown presentation type for integers");
  return begin + 1;
}
}  // namespace fmtx
`,
  "include/fmtx/chrono.h": `#include "base.h"
namespace fmtx {
inline const char *parse_chrono(const char *begin, const char *end) {
  if (begin == end || *begin != '%') throw format_error("unknown presentation type");
  return begin + 1;
}
}  // namespace fmtx
`,
  "rest/handler/sheddinghandler.go": `package handler

import (
	"net/http"

	"github.com/acme/kit/core/logx"
)

// SheddingHandler drops requests while the shedder says the service is overloaded.
func SheddingHandler(shedder Shedder) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			promise, err := shedder.Allow()
			if err != nil {
				logx.Errorf("[http] dropped, %s - %s", r.URL.String(), r.UserAgent())
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			next.ServeHTTP(w, r)
			promise.Pass()
		})
	}
}
`,
  "include/fmtx/format-inl.h": `namespace fmtx {
void format_handler::on_text(const char *begin, const char *end) {
  while (begin != end) ++begin;
}
}  // namespace fmtx
`,
  "rest/engine.go": `package rest

import "errors"

type engine struct {
	port   int
	routes []string
}

func (ng *engine) start() error {
	if ng.port == 0 {
		return errors.New("port is required")
	}
	return nil
}

func (ng *engine) addRoutes(routes []string) {
	ng.routes = append(ng.routes, routes...)
}
`,
  "rest/server.go": `package rest

type Server struct {
	ngin *engine
}

func (s *Server) Start() {
	if err := s.ngin.start(); err != nil {
		panic(err)
	}
}
`,
  "core/logx/config.go": `package logx

// LogConf is the logging configuration.
type LogConf struct {
	ServiceName string \`json:"service_name,optional"\`
	KeepDays    int    \`json:"keep_days,optional"\`
}
`,
  "src/registry.rs": `pub struct Registry {
    spans: Vec<u64>,
}

impl Registry {
    pub fn clone_span(&self, id: u64) -> u64 {
        if !self.spans.contains(&id) {
            panic!("tried to clone {:?}, but no span exists with that ID", id);
        }
        id
    }

    pub fn close(&mut self, id: u64) {
        self.spans.retain(|s| *s != id);
    }
}
`,
  "src/lib.rs": `mod registry;
pub use registry::Registry;
`,
  "src/main/java/com/acme/json/JsonPointer.java": `package com.acme.json;

public class JsonPointer {
    private final String expr;

    private JsonPointer(String expr) {
        this.expr = expr;
    }

    public static JsonPointer compile(String expr) {
        if (expr.isEmpty() || expr.charAt(0) != '/') {
            throw new IllegalArgumentException("Invalid input: JSON Pointer expression must start with '/'");
        }
        return new JsonPointer(expr);
    }

    public JsonPointer tail() {
        return new JsonPointer(expr.substring(1));
    }
}
`,
  "src/plugin/utc/index.js": `function parseOffset(input) {
  const match = /^([+-])(\\d{2}):?(\\d{2})$/.exec(input)
  if (!match) {
    return Promise.reject(new Error(\`Invalid offset \${input}\`))
  }
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]))
}

export default (option, Dayjs) => {
  Dayjs.prototype.utcOffset = function (input) {
    return parseOffset(input)
  }
}
`,
  "types/plugin/utc.d.ts": `import { PluginFunc } from 'dayjs'

declare const plugin: PluginFunc
export = plugin

declare module 'dayjs' {
  interface Dayjs {
    utcOffset(offset: number | string): Dayjs
  }
}
`,
};

let fx: IndexedFixture;
let cleanup: () => Promise<void>;
let repoDir: string;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-diagnostic-languages-"));
  repoDir = mkdtempSync(path.join(os.tmpdir(), "wf-polyglot-"));
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(repoDir, file)), { recursive: true });
    writeFileSync(path.join(repoDir, file), text);
  }
  fx = await indexFixture(repoDir, "polyglot");
});
afterAll(async () => {
  await cleanup();
  rmSync(repoDir, { recursive: true, force: true });
});

const diagnose = (question: string) => retrieveReport(fx.repositoryId, question, { mode: "diagnostic" });

describe("stack traces and panics", () => {
  it("follows a Rust panic's backtrace to the method that panicked", async () => {
    const report = `Cloning a closed span panics
\`\`\`
thread 'main' panicked at src/registry.rs:8:13:
tried to clone 42, but no span exists with that ID
stack backtrace:
   0: std::panicking::begin_panic
             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/std/src/panicking.rs:645:5
   1: polyglot::registry::Registry::clone_span
             at ./src/registry.rs:8:13
\`\`\``;
    const { signals, symbols, files } = await diagnose(report);
    expect(signals["error-site"]).toEqual(["src/registry.rs"]);
    expect(symbols[0]).toBe("src/registry.rs::Registry.clone_span");
    expect(files[0]).toBe("src/registry.rs");
  });

  it("finds a panic's raise site from its message alone", async () => {
    const { signals } = await diagnose(
      'The app panics with "tried to clone 7, but no span exists with that ID"',
    );
    expect(signals.messages?.[0]).toBe("src/registry.rs");
  });

  it("reads frames that name a function without its file (a glog failure trace)", async () => {
    const report = `The process dies with
F20240612 10:22:31.123456  4211 session.cc:88] Check failed: conn != nullptr
*** Check failure stack trace: ***
    @     0x7f3a2c1b4a2d  logx::LogMessage::Fail()
    @     0x7f3a2c1b46f3  logx::LogMessage::Flush()
    @     0x55d1c0e2f1a4  Session::Open()
Aborted (core dumped)`;
    const { signals, symbols } = await diagnose(report);
    expect(signals["error-site"]).toEqual(["src/logging.cc"]);
    expect(symbols.slice(0, 3)).toContain("src/logging.cc::logx.LogMessage.Fail");
  });

  it("finds a raise site from a message quoted without the code's quotes and brackets (PHP)", async () => {
    const { signals, symbols } = await diagnose(
      "Why do I get BadPathException: Number of opening [ and closing ] differs when I add a path?",
    );
    expect(signals.messages).toEqual(["src/Routing/PathParser.php"]);
    expect(symbols[0]).toBe("src/Routing/PathParser.php::Routing.PathParser.parse");
  });

  it("finds a raise site from a message written into the question's sentence from memory", async () => {
    const { signals } = await diagnose(
      "Adding a path with optional parts fails, it says the number of opening and closing brackets differs",
    );
    expect(signals.messages).toEqual(["src/Routing/PathParser.php"]);
  });

  it("reads a Go goroutine trace, the receiver naming the method's type", async () => {
    const report = `server does not start
\`\`\`
panic: port is required

goroutine 1 [running]:
github.com/acme/polyglot/rest.(*Server).Start(0xc0000a4000)
	/home/me/go/src/github.com/acme/polyglot/rest/server.go:9 +0x65
main.main()
	/home/me/app/main.go:12 +0x25
\`\`\``;
    const { signals, symbols } = await diagnose(report);
    expect(signals.stack).toEqual(["rest/server.go"]);
    expect(symbols).toContain("rest/server.go::Server.Start");
    // The message leads to where the error is made.
    expect(signals.messages).toContain("rest/engine.go");
  });

  it("reads a Java stack trace into the class's file and method", async () => {
    const report = `java.lang.IllegalArgumentException: Invalid input: JSON Pointer expression must start with '/'
	at com.acme.json.JsonPointer.compile(JsonPointer.java:12)
	at com.acme.app.Main.main(Main.java:5)`;
    const { signals, symbols } = await diagnose(report);
    expect(signals["error-site"]).toEqual(["src/main/java/com/acme/json/JsonPointer.java"]);
    expect(symbols[0]).toBe("src/main/java/com/acme/json/JsonPointer.java::JsonPointer.compile");
  });

  it("reads an AddressSanitizer report into the freeing function", async () => {
    const report = `==4242==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010
    #0 0x55d1c3 in value_free /build/polyglot/src/value.c:17:7
    #1 0x55d2a1 in main /build/polyglot/tests/main.c:30:3
SUMMARY: AddressSanitizer: heap-use-after-free /build/polyglot/src/value.c:17:7 in value_free`;
    const { signals, symbols } = await diagnose(report);
    expect(signals["error-site"]).toEqual(["src/value.c"]);
    expect(symbols[0]).toBe("src/value.c::value_free");
  });

  it("reads a JavaScript frame in the installed package as the source it is built from", async () => {
    const report = `TypeError: Cannot read property '$u' of undefined
    at diff (/home/circleci/project/node_modules/polyglot/plugin/utc.js:1:1941)
    at Object.<anonymous> (/home/circleci/project/test.js:4:3)`;
    const { signals } = await diagnose(report);
    expect(signals.stack).toEqual(["src/plugin/utc/index.js"]);
  });

  it("takes a module path of the package itself as its source file", async () => {
    const report =
      "Offsets are wrong after\n```js\nconst utc = require('polyglot/plugin/utc')\ndayjs.extend(utc)\n```";
    const { signals } = await diagnose(report);
    expect(signals.paths).toEqual(["src/plugin/utc/index.js"]);
  });

  it("looks up the symbol a linker could not find", async () => {
    const report =
      "Linking fails:\n```\n/usr/bin/ld: app.o: in function `main':\napp.c:(.text+0x1f): undefined reference to `value_dump'\n```";
    const { symbols } = await diagnose(report);
    expect(symbols.slice(0, 3)).toContain("src/print.c::value_dump");
  });
});

describe("error strings at their raise sites", () => {
  it("finds a C error reported through a helper named for errors", async () => {
    const { signals, symbols } = await diagnose('Parsing `"` alone prints "unterminated string literal"');
    expect(signals.messages?.[0]).toBe("src/value.c");
    expect(symbols[0]).toBe("src/value.c::value_parse");
  });

  it("finds a C++ std::runtime_error by its message", async () => {
    const { signals, symbols } = await diagnose("fmtx throws `invalid format spec` for `{}`");
    expect(signals.messages?.[0]).toBe("include/fmtx/format.h");
    expect(symbols[0]).toBe("include/fmtx/format.h::fmtx.parse_spec");
  });

  it("finds a C++ exception named with its namespace, by the message after it", async () => {
    const { signals, symbols } = await diagnose(
      "fmtx::format throws fmtx::format_error: unknown presentation type for integers. What raises it?",
    );
    expect(signals.messages).toEqual(["include/fmtx/base.h"]);
    expect(symbols[0]).toBe("include/fmtx/base.h::fmtx.parse_presentation");
  });

  it("finds a Go message logged as an error, quoted from a JSON log line", async () => {
    const report = `Our service logs
{"@timestamp":"2024-05-02T09:12:44.120+08:00","level":"error","content":"[http] dropped, /api/orders - curl/8.4.0"}
and answers 503 without calling our handler. What drops these requests?`;
    const { signals, symbols } = await diagnose(report);
    expect(signals.messages?.[0]).toBe("rest/handler/sheddinghandler.go");
    expect(symbols[0]).toBe("rest/handler/sheddinghandler.go::SheddingHandler");
  });

  it("finds a JavaScript error that is built and rejected, not thrown", async () => {
    const { signals, symbols } = await diagnose(
      "utcOffset('+25:00') rejects with Error: Invalid offset +25:00",
    );
    expect(signals.messages?.[0]).toBe("src/plugin/utc/index.js");
    expect(symbols).toContain("src/plugin/utc/index.js::parseOffset");
  });

  it("finds a Go error made with errors.New", async () => {
    const { signals } = await diagnose('Start fails with "port is required" although the port is set');
    expect(signals.messages?.[0]).toBe("rest/engine.go");
  });
});

describe("options, configuration keys and environment variables", () => {
  it("finds the code that reads an environment variable", async () => {
    const { signals } = await diagnose("Setting `VALUE_COLORS=0;31` does not change the colours");
    expect(signals.literals?.[0]).toBe("src/print.c");
  });

  it("finds the struct whose tags name a YAML configuration's keys", async () => {
    const report = "Old logs are never deleted with\n```yaml\nLog:\n  service_name: api\n  keep_days: 7\n```";
    const { signals } = await diagnose(report);
    expect(signals.literals?.[0]).toBe("core/logx/config.go");
  });
});

describe("partner files", () => {
  it("brings a C source's header up with it", async () => {
    const { files } = await diagnose(
      "value_free frees the refcount twice: heap-use-after-free in value_free when a value is shared",
    );
    expect(files[0]).toBe("src/value.c");
    expect(files.slice(0, 3)).toContain("src/value.h");
  });

  it("brings a header's inline implementation up with it", async () => {
    const { files } = await diagnose("parse_spec throws invalid format spec for an empty spec");
    expect(files[0]).toBe("include/fmtx/format.h");
    expect(files.slice(0, 3)).toContain("include/fmtx/format-inl.h");
  });

  it("brings a JavaScript plugin's type declarations up with it", async () => {
    const { files } = await diagnose("utcOffset rejects with Invalid offset for '+05:30'");
    expect(files[0]).toBe("src/plugin/utc/index.js");
    expect(files.slice(0, 3)).toContain("types/plugin/utc.d.ts");
  });
});
