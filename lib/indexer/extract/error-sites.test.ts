/**
 * Error strings at their raise sites in every language: thrown and panicked messages,
 * errors built to be returned, rejected or wrapped, and messages handed to helpers named
 * for reporting errors — each on a small snippet shaped like real code.
 */
import { describe, expect, it } from "vitest";
import type { CodeLanguage } from "../types";
import { isErrorReportingName } from "./common";
import { extractSource } from "./index";

async function errorsOf(language: CodeLanguage, source: string, name: string) {
  const { symbols } = await extractSource(language, source);
  const symbol = symbols.find((s) => s.qualifiedName === name);
  if (!symbol) throw new Error(`no ${name} in ${symbols.map((s) => s.qualifiedName).join(", ")}`);
  return { raises: symbol.raises, errorStrings: symbol.errorStrings };
}

describe("error strings at raise sites", () => {
  it("Ruby and Python: the error raised in either branch of a conditional", async () => {
    const ruby = `class Request
  def perform
    send_request
  rescue *NETWORK_ERRORS => e
    raise options[:wrap] ? Client::NetworkError.new("#{e.class}: #{e.message}") : e
  end

  def check
    raise strict? ? StrictError : LooseError
  end
end`;
    expect((await errorsOf("ruby", ruby, "Request.perform")).raises).toEqual(["NetworkError"]);
    expect((await errorsOf("ruby", ruby, "Request.check")).raises).toEqual(["StrictError", "LooseError"]);
    const python = `def send(self, request):
    try:
        return self.adapter.send(request)
    except OSError as exc:
        raise errors.ConnectError(str(exc)) if self.wrap else exc
`;
    expect((await errorsOf("python", python, "send")).raises).toEqual(["ConnectError"]);
  });

  it("Rust: panics, expect, and the message an error value is built with", async () => {
    const source = `impl Registry {
    fn clone_span(&self, id: &Id) -> Result<Id, Error> {
        let span = self.get(id).expect("span to exist");
        if span.is_closing() {
            return Err(Error::new("span is already closing"));
        }
        if span.refs() == 0 {
            panic!("tried to clone {:?}, but no span exists with that ID", id);
        }
        Ok(id.clone())
    }
}`;
    expect(await errorsOf("rust", source, "Registry.clone_span")).toEqual({
      raises: ["Error", "panic"],
      errorStrings: [
        "span to exist",
        "span is already closing",
        "tried to clone {:?}, but no span exists with that ID",
      ],
    });
  });

  it("Go: errors.New, fmt.Errorf and panic", async () => {
    const source = `package logx

import (
	"errors"
	"fmt"
)

func SetUp(c LogConf) error {
	if len(c.ServiceName) == 0 {
		return errors.New("service name is required")
	}
	if c.KeepDays < 0 {
		return fmt.Errorf("invalid keep days: %d", c.KeepDays)
	}
	if c.Mode == "" {
		panic("log mode not set")
	}
	return nil
}`;
    expect((await errorsOf("go", source, "SetUp")).errorStrings).toEqual([
      "service name is required",
      "invalid keep days: %d",
      "log mode not set",
    ]);
  });

  it("Go: messages logged as errors through a logging package or a logger", async () => {
    const source = `package handler

import (
	"net/http"

	"github.com/sirupsen/logrus"
	"github.com/zeromicro/go-zero/core/logx"
)

func SheddingHandler(shedder Shedder) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			promise, err := shedder.Allow()
			if err != nil {
				logx.Errorf("[http] dropped, %s - %s", r.URL.String(), r.UserAgent())
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			if r.ContentLength < 0 {
				logrus.Warnf("unknown length from %s", r.RemoteAddr)
			}
			if r.Method == "" {
				s.accessLogger.Errorw("empty method")
			}
			logx.Infof("passed %s", r.URL.String())
			next.ServeHTTP(w, r)
			promise.Pass()
		})
	}
}`;
    expect((await errorsOf("go", source, "SheddingHandler")).errorStrings).toEqual([
      "[http] dropped, %s - %s",
      "unknown length from %s",
      "empty method",
    ]);
  });

  it("Go: a message printed to standard error", async () => {
    const source = `package logging

import (
	"fmt"
	"os"
)

func (entry *Entry) fireHooks(hooks []Hook) {
	for _, hook := range hooks {
		if err := hook.Fire(entry); err != nil {
			_, _ = fmt.Fprintln(os.Stderr, "Failed to fire hook:", err)
		}
	}
	fmt.Fprintf(os.Stdout, "fired %d hooks", len(hooks))
}`;
    expect((await errorsOf("go", source, "Entry.fireHooks")).errorStrings).toEqual(["Failed to fire hook:"]);
  });

  it("JavaScript: an error rejected or passed on is reported where it is built", async () => {
    const source = `function parseOffset(input) {
  const match = REGEX_OFFSET.exec(input)
  if (!match) return Promise.reject(new RangeError(\`Invalid offset \${input}\`))
  if (match[2] > 14) callback(new Error('offset out of range'))
  return match
}`;
    expect(await errorsOf("javascript", source, "parseOffset")).toEqual({
      raises: ["RangeError", "Error"],
      errorStrings: ["Invalid offset {…}", "offset out of range"],
    });
  });

  it("Java: exceptions returned or wrapped, and helpers that report errors", async () => {
    const source = `class NumberInput {
    static NumberFormatException badNumber(String text) {
        return new NumberFormatException("Invalid numeric value: " + text);
    }
    int parseInt(String text) {
        if (text.isEmpty()) {
            _reportError("Unexpected end-of-input in number");
        }
        return Integer.parseInt(text);
    }
}`;
    expect(await errorsOf("java", source, "NumberInput.badNumber")).toEqual({
      raises: ["NumberFormatException"],
      errorStrings: ["Invalid numeric value: {…}"],
    });
    expect((await errorsOf("java", source, "NumberInput.parseInt")).errorStrings).toEqual([
      "Unexpected end-of-input in number",
    ]);
  });

  it("C#: an exception built outside a throw", async () => {
    const source = `class Sink {
    Exception Invalid(string name) {
        return new ArgumentException("Sink name is not valid: " + name);
    }
}`;
    expect(await errorsOf("csharp", source, "Sink.Invalid")).toEqual({
      raises: ["ArgumentException"],
      errorStrings: ["Sink name is not valid: {…}"],
    });
  });

  it("C and C++: luaL_error-style helpers and std::runtime_error", async () => {
    const c = `static int str_rep (lua_State *L) {
  if (n >= MAXSIZE / l) return luaL_error(L, "resulting string too large");
  return 1;
}`;
    expect((await errorsOf("c", c, "str_rep")).errorStrings).toEqual(["resulting string too large"]);
    const cpp = `namespace fmt {
inline int parse_width(const char *s) {
  if (*s == '}') throw std::runtime_error("invalid format spec");
  return 0;
}
}`;
    expect(await errorsOf("cpp", cpp, "fmt.parse_width")).toEqual({
      raises: ["runtime_error"],
      errorStrings: ["invalid format spec"],
    });
  });

  it("Python and PHP: reporting helpers and exceptions built outside a raise", async () => {
    const python = `def main(argv):
    if not argv:
        parser.error("the following arguments are required: paths")
`;
    expect((await errorsOf("python", python, "main")).errorStrings).toEqual([
      "the following arguments are required: paths",
    ]);
    const php = `<?php
class Router {
    public function notFound(string $path): HttpNotFoundException {
        return new HttpNotFoundException("No route for " . $path);
    }
}`;
    expect(await errorsOf("php", php, "Router.notFound")).toEqual({
      raises: ["HttpNotFoundException"],
      errorStrings: ["No route for {…}"],
    });
  });

  it("every language: the message an error type's constructor hands to its base class", async () => {
    const ts = `export class HTTPError extends KyError {
  constructor(response: Response, request: Request) {
    const reason = response.status ? \`status code \${response.status}\` : "an unknown error";
    super(\`Request failed with \${reason}: \${request.method} \${request.url}\`);
  }
}
export class Store extends Base {
  constructor(name: string) {
    super(\`store \${name}\`);
  }
}`;
    expect((await errorsOf("typescript", ts, "HTTPError.constructor")).errorStrings).toEqual([
      "Request failed with {…}: {…} {…}",
    ]);
    // A constructor of a type that is no error hands on no message.
    expect((await errorsOf("typescript", ts, "Store.constructor")).errorStrings).toEqual([]);
    const python = `class ConnectError(TransportError):
    def __init__(self, url):
        super().__init__(f"could not connect to {url}")
`;
    expect((await errorsOf("python", python, "ConnectError.__init__")).errorStrings).toEqual([
      "could not connect to {…}",
    ]);
    const php = `<?php
class InvalidPathException extends \\InvalidArgumentException {
    public function __construct(string $path) {
        parent::__construct('Unable to read the file at '.$path);
    }
}`;
    expect((await errorsOf("php", php, "InvalidPathException.__construct")).errorStrings).toEqual([
      "Unable to read the file at {…}",
    ]);
    const java = `class ExpiredJwtException extends ClaimJwtException {
    public ExpiredJwtException(Header header, String message) {
        super(header, "JWT expired: " + message);
    }
}`;
    expect((await errorsOf("java", java, "ExpiredJwtException.ExpiredJwtException")).errorStrings).toEqual([
      "JWT expired: {…}",
    ]);
  });

  it("PHP: the message of an error value a result type is made of, not of its success", async () => {
    const php = `<?php
final class EntryParser {
    private static function processToken(int $state, string $token) {
        if ($token === '#') {
            return Success::create(['', false, self::COMMENT_STATE]);
        } elseif (!\\ctype_space($token)) {
            return Error::create('unexpected whitespace');
        }
        return Success::create(['skipped value', false, $state]);
    }
}`;
    expect((await errorsOf("php", php, "EntryParser.processToken")).errorStrings).toEqual([
      "unexpected whitespace",
    ]);
  });
});

describe("isErrorReportingName", () => {
  it.each([
    ["_reportError", true],
    ["report_error", true],
    ["luaL_error", true],
    ["failWith", true],
    ["throwInvalidArgument", true],
    ["isError", false],
    ["handleError", false],
    ["onError", false],
    ["getErrorCount", false],
    ["render", false],
  ])("%s → %s", (name, expected) => {
    expect(isErrorReportingName(name)).toBe(expected);
  });
});
