/**
 * Calls on a library's objects: a logger held in a module variable or a field, a value a
 * library call returned, a runtime global. Each would otherwise be guessed by its method's
 * name onto the repository's one method of that name (`log.info` onto a response's `info`);
 * each test pins that it is not, and that a receiver the repository makes still resolves.
 */
import { describe, expect, it } from "vitest";
import { callEdges } from "../../test-support/call-edges.ts";

describe("calls on library objects never land on a repository method by name", () => {
  it("Python: a module logger, a field assigned from a library call, and a repository-made value", async () => {
    const edges = await callEdges({
      "pkg/pool.py": `import logging
import requests
from .response import make_response

log = logging.getLogger(__name__)
cache = make_response()


class PoolManager:
    def __init__(self):
        self.session = requests.Session()

    def urlopen(self, url):
        log.info("Redirecting %s", url)
        self.session.prepare_request(url)
        cache.release_conn()
        return url

    def other(self, log):
        log.info("a parameter named like the module logger")
`,
      "pkg/response.py": `class BaseHTTPResponse:
    def info(self):
        return {}

    def prepare_request(self, url):
        return url

    def release_conn(self):
        pass


def make_response():
    return BaseHTTPResponse()
`,
    });
    expect(
      edges.some((e) => e.includes("-> BaseHTTPResponse.info") && e.startsWith("PoolManager.urlopen")),
    ).toBe(false);
    expect(edges.some((e) => e.startsWith("PoolManager.urlopen -> BaseHTTPResponse.prepare_request"))).toBe(
      false,
    );
    // A module value the repository makes keeps its name-only guess.
    expect(edges.some((e) => e.startsWith("PoolManager.urlopen -> BaseHTTPResponse.release_conn"))).toBe(
      true,
    );
    // A parameter shadows the module logger: the usual guess stands.
    expect(edges.some((e) => e.startsWith("PoolManager.other -> BaseHTTPResponse.info"))).toBe(true);
  });

  it("Go: a package-level logger and a local made by a library constructor", async () => {
    const edges = await callEdges({
      "server/server.go": `package server

import "go.uber.org/zap"

var logger = zap.NewExample()

type Server struct{}

func (s *Server) Start() {
	logger.Sync()
	l := zap.NewNop()
	l.Sugar()
}
`,
      "server/flush.go": `package server

type Buffer struct{}

func (b *Buffer) Sync() error { return nil }
func (b *Buffer) Sugar() {}
`,
    });
    expect(edges.filter((e) => e.startsWith("Server.Start ->"))).toEqual([]);
  });

  it("TypeScript and JavaScript: a module logger from a library and the console", async () => {
    const edges = await callEdges({
      "src/app.ts": `import pino from "pino";
import { Store } from "./store";

const logger = pino();
const store = new Store();

export function handle(): void {
  logger.flush();
  store.flush();
}
`,
      "src/store.ts": `export class Store {
  flush(): void {}
}
export class Sink {
  warn(): void {}
}
`,
      "src/run.js": `function main() {
  console.warn("starting");
}
`,
    });
    expect(edges.filter((e) => e.startsWith("handle ->"))).toEqual(["handle -> Store.flush@0.9"]);
    expect(edges.filter((e) => e.startsWith("main ->"))).toEqual([]);
  });

  it("Java and C#: a logger field typed by a library's interface", async () => {
    const edges = await callEdges({
      "src/Pool.java": `package demo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
public class Pool {
    private static final Logger LOG = LoggerFactory.getLogger(Pool.class);
    void open() { LOG.info("opening"); }
}`,
      "src/Response.java": `package demo;
public class Response {
    public void info(String s) {}
}`,
      "src/Handler.cs": `using Microsoft.Extensions.Logging;
namespace Demo {
    public class Handler {
        private readonly ILogger<Handler> _logger;
        public void Run() { _logger.LogInformation("run"); }
    }
    public class Audit {
        public void LogInformation(string s) {}
    }
}`,
    });
    expect(edges.filter((e) => e.startsWith("Pool.open ->") || e.includes("Handler.Run ->"))).toEqual([]);
  });
});
