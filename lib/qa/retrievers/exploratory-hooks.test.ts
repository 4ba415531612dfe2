/**
 * The main line an exploratory walk follows, on real indexes: a level check in a condition
 * and a rescue's calls are side branches, the call under the check carries the flow (Go); a
 * hook a module declares for others to fill in goes on in the method filling it in (Ruby); a
 * call on an instance a factory made starts in the factory's function (TypeScript); a class the
 * question names apart from the method it calls ("dispatch on a GroupBased dispatcher") is
 * the receiver, so the base's abstract step goes on in that class's override, and another
 * class of the same name starts no walk of its own (PHP, Java).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexSources } from "../../../test-support/qa-env.ts";
import { exploratoryFlow } from "../../../test-support/qa-flow.ts";
import { factoryStart } from "./exploratory-factory.ts";
import { hookBody } from "./exploratory-walk.ts";

const LOGGER = `package logs

// Logger writes entries at or above its level.
type Logger struct {
	level int
	out   []string
}

// Info logs a message at the info level.
func (logger *Logger) Info(args ...any) {
	logger.Log(4, args...)
}

// Log logs a message at the given level when the logger is enabled for it.
func (logger *Logger) Log(level int, args ...any) {
	if logger.IsLevelEnabled(level) {
		entry := logger.newEntry()
		entry.Log(level, args...)
		logger.releaseEntry(entry)
	}
}

// IsLevelEnabled checks whether the logger writes at this level.
func (logger *Logger) IsLevelEnabled(level int) bool {
	return logger.currentLevel() >= level
}

func (logger *Logger) currentLevel() int {
	return logger.level
}

func (logger *Logger) newEntry() *Entry {
	return NewEntry(logger)
}

func (logger *Logger) releaseEntry(entry *Entry) {
	entry.Data = nil
}
`;

const ENTRY = `package logs

import "fmt"

// Entry is one message on its way out.
type Entry struct {
	Logger *Logger
	Data   map[string]any
}

// NewEntry makes an entry for a logger.
func NewEntry(logger *Logger) *Entry {
	return &Entry{Logger: logger, Data: map[string]any{}}
}

// Log formats the message and writes it.
func (entry *Entry) Log(level int, args ...any) {
	entry.write(level, fmt.Sprint(args...))
}

func (entry *Entry) write(level int, msg string) {
	line := entry.format(level, msg)
	entry.Logger.out = append(entry.Logger.out, line)
}

func (entry *Entry) format(level int, msg string) string {
	return fmt.Sprintf("%d %s", level, msg)
}
`;

const BASE_RB = `module Cli
  module Base
    module ClassMethods
      # Parses the arguments and runs the command.
      def start(given_args = ARGV, config = {})
        config[:shell] ||= Cli::Shell.new
        dispatch(nil, given_args.dup, nil, config)
      rescue Cli::Error => e
        config[:shell].error(e.message)
        exit(false) if exit_on_failure?
      end

      # The hook invoked by start.
      def dispatch(command, given_args, given_opts, config)
        raise NotImplementedError
      end

      def exit_on_failure?
        false
      end
    end
  end
end
`;

const CLI_RB = `module Cli
  class Command
    extend Base::ClassMethods

    def self.dispatch(meth, given_args, given_opts, config)
      meth ||= retrieve_command_name(given_args)
      instance = new(given_args, config)
      instance.invoke_command(meth)
    end

    def self.retrieve_command_name(args)
      args.shift
    end
  end
end
`;

const SHELL_RB = `module Cli
  class Shell
    def error(message)
      warn_line(message)
      flush_all
    end

    def warn_line(message)
      $stderr.puts(message)
    end

    def flush_all
      $stderr.flush
    end
  end
end
`;

const CREATE_TS = `import { Request } from "./request.js";

export default function create(defaults: { prefix: string }) {
  const makeRequest = (url: string) => {
    const request = new Request(defaults.prefix + url);
    return request.flush();
  };

  const got = (url: string) => makeRequest(url);

  return got;
}
`;

const REQUEST_TS = `export class Request {
  constructor(readonly url: string) {}

  flush(): Promise<string> {
    return this.send(this.url);
  }

  send(url: string): Promise<string> {
    return fetch(url).then((r) => r.text());
  }
}
`;

const INDEX_TS = `import create from "./create.js";

const got = create({ prefix: "https://" });

export default got;
`;

const ROUTER_BASE_PHP = `<?php
namespace Router\\Matcher;

abstract class RegexBased implements Matcher
{
    abstract protected function matchVariable(array $data, string $uri): ?Found;

    public function match(string $method, string $uri): Found|Missing
    {
        if (isset($this->static[$method][$uri])) {
            return new Found($this->static[$method][$uri]);
        }
        $found = $this->matchVariable($this->variable[$method] ?? [], $uri);
        return $found ?? new Missing();
    }
}
`;

const routerMatcher = (name: string, body: string) => `<?php
namespace Router\\Matcher;

class ${name} extends RegexBased
{
    protected function matchVariable(array $data, string $uri): ?Found
    {
        ${body}
        return null;
    }
}
`;

const ROUTER_BUILDER_BASE_PHP = `<?php
namespace Router\\Builder;

abstract class RegexBased
{
    protected array $routes = [];

    abstract protected function chunkSize(): int;
}
`;

const ROUTER_BUILDER_PHP = `<?php
namespace Router\\Builder;

class GroupBased extends RegexBased
{
    protected function chunkSize(): int
    {
        return max(10, count($this->routes));
    }
}
`;

const SINK_JAVA = `package com.acme.log;

public abstract class Sink {
    protected abstract void write(String line);

    public void emit(String message) {
        String line = format(message);
        write(line);
    }

    private String format(String message) {
        return "[log] " + message;
    }
}
`;

const javaSink = (name: string, body: string) => `package com.acme.log;

public class ${name} extends Sink {
    @Override
    protected void write(String line) {
        ${body}
    }
}
`;

let repo: Awaited<ReturnType<typeof indexSources>>;

beforeAll(async () => {
  repo = await indexSources("hooks", {
    "go.mod": "module example.com/logs\n\ngo 1.21\n",
    "logs/logger.go": LOGGER,
    "logs/entry.go": ENTRY,
    "lib/cli/base.rb": BASE_RB,
    "lib/cli.rb": CLI_RB,
    "lib/cli/shell.rb": SHELL_RB,
    "package.json": '{ "name": "fetcher", "type": "module" }\n',
    "source/create.ts": CREATE_TS,
    "source/request.ts": REQUEST_TS,
    "source/index.ts": INDEX_TS,
    "src/Matcher/RegexBased.php": ROUTER_BASE_PHP,
    "src/Matcher/GroupBased.php": routerMatcher(
      "GroupBased",
      "foreach ($data as $chunk) { if (preg_match($chunk['regex'], $uri, $m)) { return new Found($chunk['map'][count($m)]); } }",
    ),
    "src/Matcher/MarkBased.php": routerMatcher(
      "MarkBased",
      "foreach ($data as $chunk) { if (preg_match($chunk['regex'], $uri, $m)) { return new Found($chunk['map'][$m['MARK']]); } }",
    ),
    "src/Matcher/CharBased.php": routerMatcher(
      "CharBased",
      "foreach ($data as $chunk) { if (preg_match($chunk['regex'], $uri . $chunk['suffix'], $m)) { return new Found(end($m)); } }",
    ),
    "src/Builder/RegexBased.php": ROUTER_BUILDER_BASE_PHP,
    "src/Builder/GroupBased.php": ROUTER_BUILDER_PHP,
    "src/main/java/com/acme/log/Sink.java": SINK_JAVA,
    "src/main/java/com/acme/log/FileSink.java": javaSink("FileSink", "Files.writeString(path, line);"),
    "src/main/java/com/acme/log/ConsoleSink.java": javaSink("ConsoleSink", "System.out.println(line);"),
    "src/main/java/com/acme/log/SocketSink.java": javaSink("SocketSink", "socket.send(line.getBytes());"),
  });
});
afterAll(() => repo.close());

describe("where a walk goes on past what the index links", () => {
  it("Go: goes on in the work under a level check, the check drawn beside it if at all", async () => {
    const { flow, opening } = await exploratoryFlow(
      repo.repositoryId,
      "Walk me through what happens when I call logger.Info(...)",
    );
    expect(flow).toMatch(/Logger\.Log\(\)[^\n]*\n\s+→ Logger\.newEntry\(\)/);
    // The check is a side branch: drawn beside the flow if at all, never on its main line.
    expect(flow).not.toMatch(/→ Logger\.IsLevelEnabled\(\)/);
    expect(opening).toMatch(/`Logger\.Log` \([^)]*\) → `Logger\.newEntry`/);
    expect(opening).not.toMatch(/IsLevelEnabled`? \(/);
  });

  it("Ruby: a hook raising NotImplementedError goes on in the method filling it in", async () => {
    const { flow } = await exploratoryFlow(
      repo.repositoryId,
      "Walk me through what happens when I call MyCLI.start(ARGV)",
    );
    expect(flow).toMatch(/→ Cli\.Command\.dispatch\(\)/);
    // The declaration that only raises is no step of its own.
    expect(flow).not.toMatch(/Cli\.Base\.ClassMethods\.dispatch\(\)/);
  });

  it("TypeScript: a call on an instance a factory made starts in the function the factory returns", async () => {
    const start = await factoryStart(repo.generationId, "What happens when I call `await got('/items')`?");
    expect(start?.qualifiedId).toBe("source/create.ts::create.got");
    const made = await factoryStart(repo.generationId, "What happens when I call `client.get('/items')`?");
    expect(made).toBeNull();
  });
});

describe("a receiver class named apart from the method", () => {
  it("PHP: the base's abstract step goes on in the named class's override", async () => {
    const { flow, opening } = await exploratoryFlow(
      repo.repositoryId,
      "Walk me through what happens when I call match on a GroupBased matcher with a URI that has a placeholder.",
    );
    expect(flow).toMatch(/Router\.Matcher\.GroupBased\.matchVariable\(\)/);
    expect(flow).not.toMatch(/MarkBased|CharBased/);
    // The builder's class of the same name is no second start.
    expect(opening).not.toMatch(/Builder/);
  });

  it("Java: an abstract method called by the base goes on in the named subclass", async () => {
    const { flow } = await exploratoryFlow(
      repo.repositoryId,
      "What happens when I call emit on a SocketSink?",
    );
    expect(flow).toMatch(/SocketSink\.write\(\)/);
    expect(flow).not.toMatch(/FileSink|ConsoleSink/);
    // The Java call `socket.send(...)` is no call of the TypeScript class's `Request.send`.
    expect(flow).not.toMatch(/Request\.send\(\)/);
  });
});

describe("hooks left for others to implement", () => {
  it("a body that only says it is not implemented is a hook, in several languages", () => {
    expect(
      hookBody([
        "      # SIGNATURE: The hook invoked by start.",
        "      def dispatch(command, given_args, given_opts, config) #:nodoc:",
        "        raise NotImplementedError",
        "      end",
      ]),
    ).toBe(true);
    expect(hookBody(["    def handle(self, request):", "        raise NotImplementedError()"])).toBe(true);
    expect(
      hookBody([
        "    public Object visit(Node node) {",
        "        throw new UnsupportedOperationException();",
        "    }",
      ]),
    ).toBe(true);
    expect(hookBody(["    fn poll(&mut self) -> Poll<()> {", "        unimplemented!()", "    }"])).toBe(
      true,
    );
  });

  it("a body that does work, or does nothing at all, is no hook", () => {
    expect(
      hookBody(["func (l *Logger) level() Level {", "\treturn Level(atomic.LoadUint32(&l.Level))", "}"]),
    ).toBe(false);
    expect(hookBody(["      def initialize_added #:nodoc:", "      end"])).toBe(false);
    expect(
      hookBody([
        "    def run(self):",
        "        if self.closed:",
        "            raise NotImplementedError('closed')",
        "        return self.loop()",
      ]),
    ).toBe(false);
  });
});
