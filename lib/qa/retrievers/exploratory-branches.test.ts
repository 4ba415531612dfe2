import { describe, expect, it } from "vitest";
import { isCheck, sideCalls } from "./exploratory-branches.ts";

/** The calls of a function as the indexer stores them: each name on the first line writing it as a call. */
function callsOf(source: string, names: string[]): { name: string; line: number }[] {
  const lines = source.split("\n");
  return names.flatMap((name) => {
    const call = new RegExp(`(?<![\\w$])${name.replace(/[?!]/g, "\\$&")}(?![\\w$])`);
    const out: { name: string; line: number }[] = [];
    lines.forEach((l, i) => {
      if (call.test(l) && !/^\s*(?:func|def|fn|public|private)\b/.test(l)) out.push({ name, line: i + 1 });
    });
    return out;
  });
}

function sides(source: string, names: string[]): string[] {
  const { conditions, handlers } = sideCalls(source.split("\n"), callsOf(source, names), 1);
  return [...conditions, ...handlers].sort();
}

describe("calls off a function's main line", () => {
  it("Go: a level check in the condition is a side branch, the entry logged under it is the main line", () => {
    const source = `func (logger *Logger) Log(level Level, args ...any) {
	if logger.IsLevelEnabled(level) {
		entry := logger.newEntry()
		entry.Log(level, args...)
		logger.releaseEntry(entry)
	}
}`;
    expect(sides(source, ["IsLevelEnabled", "newEntry", "Log", "releaseEntry"])).toEqual(["IsLevelEnabled"]);
  });

  it("Go: an error check's handling is a side branch, the statement before the condition is not", () => {
    const source = `func (s *Server) Start() error {
	if err := s.bind(); err != nil {
		s.logFailure(err)
		return wrapError(err)
	}
	return s.serve()
}`;
    expect(sides(source, ["bind", "logFailure", "wrapError", "serve"])).toEqual(["logFailure", "wrapError"]);
  });

  it("Ruby: calls in a rescue and a trailing condition are side branches", () => {
    const source = `      def start(given_args = ARGV, config = {})
        config[:shell] ||= Thor::Base.shell.new
        dispatch(nil, given_args.dup, nil, config)
      rescue Thor::Error => e
        config[:shell].error(e.message)
        exit(false) if exit_on_failure?
      end`;
    expect(sides(source, ["shell", "dispatch", "error", "exit", "exit_on_failure?"])).toEqual([
      "error",
      "exit",
      "exit_on_failure?",
    ]);
  });

  it("Python: an except block and an early return are side branches; a branch returning its result is not", () => {
    const source = `    def send(self, request):
        if not self.enabled:
            self.log_skip(request)
            return None
        if request.cached:
            return self.from_cache(request)
        try:
            response = self.transport.handle(request)
        except TimeoutError:
            self.retry_later(request)
            raise
        return self.finish(response)`;
    expect(sides(source, ["log_skip", "from_cache", "handle", "retry_later", "finish"])).toEqual([
      "log_skip",
      "retry_later",
    ]);
  });

  it("Java and TypeScript: a catch block and a guard clause are side branches", () => {
    const java = `    public Claims parse(String token) {
        if (isBlank(token)) {
            throw new IllegalArgumentException("empty");
        }
        try {
            return decode(tokenize(token));
        } catch (IOException e) {
            report(e);
            throw new MalformedJwtException(e);
        }
    }`;
    expect(sides(java, ["isBlank", "decode", "tokenize", "report"])).toEqual(["isBlank", "report"]);
    const ts = `  async fetch(input: Input) {
    if (!isReady(this.state)) throw new Error("not ready");
    const response = await this.send(input);
    return this.parse(response);
  }`;
    expect(sides(ts, ["isReady", "send", "parse"])).toEqual(["isReady"]);
  });

  it("Rust: a pattern's scrutinee is the main line, an assertion's call is not", () => {
    const source = `    fn next(&mut self) -> Option<Result<DirEntry>> {
        debug_assert!(self.is_consistent());
        while let Some(entry) = self.pop_entry() {
            return Some(self.handle_entry(entry));
        }
        None
    }`;
    expect(sides(source, ["is_consistent", "pop_entry", "handle_entry"])).toEqual(["is_consistent"]);
  });

  it("a name also called on the main line is not a side branch", () => {
    const source = `def render(page):
    if not validate(page):
        return None
    validate(page.parent)
    return draw(page)`;
    expect(sides(source, ["validate", "draw"])).toEqual([]);
  });
});

describe("checks a condition calls", () => {
  it("a predicate or a short function is a check; a function doing the work it reports on is not", () => {
    expect(isCheck({ name: "IsLevelEnabled", startLine: 435, endLine: 438 })).toBe(true);
    expect(isCheck({ name: "exit_on_failure?", startLine: 628, endLine: 640 })).toBe(true);
    expect(isCheck({ name: "is_enabled", startLine: 10, endLine: 30 })).toBe(true);
    expect(isCheck({ name: "level", startLine: 399, endLine: 401 })).toBe(true);
    // `if rt.Match(req, &match) {`: the routing itself, a loop over the routes.
    expect(isCheck({ name: "Match", startLine: 33, endLine: 41 })).toBe(false);
    expect(isCheck({ name: "handshake", startLine: 100, endLine: 140 })).toBe(false);
  });
});
