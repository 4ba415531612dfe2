/**
 * An exploratory walk that reaches the end the question names, on a real index of a small
 * Python HTTP client: a call on another object (`conn.urlopen(…)` in `PoolManager.urlopen`) goes
 * to that object's method, not to the dispatching class's namesake, and the walk goes past its
 * depth to the step named like the end clause ("until a connection sends the request"), which
 * the opening's chain then reaches.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SymbolRecord } from "../../db/code-graph.ts";
import { indexSources } from "../../../test-support/qa-env.ts";
import { exploratoryFlow } from "../../../test-support/qa-flow.ts";
import { flatten, graft, type FlowNode } from "./exploratory-walk.ts";

const REQUEST_METHODS = `from .fields import encode_fields


class RequestMethods:
    """Mixin giving request helpers to pools and managers."""

    def urlopen(self, method, url, headers=None):
        raise NotImplementedError("subclasses implement urlopen")

    def request(self, method, url, fields=None, headers=None):
        return self.request_encode_url(method, url, fields=fields, headers=headers)

    def request_encode_url(self, method, url, fields=None, headers=None):
        if fields:
            url = url + "?" + encode_fields(fields)
        return self.urlopen(method, url, headers=headers)
`;

const FIELDS = `def encode_fields(fields):
    return "&".join(key + "=" + str(value) for key, value in fields.items())
`;

const POOL_MANAGER = `from ._request_methods import RequestMethods
from .connectionpool import HTTPConnectionPool


class PoolManager(RequestMethods):
    """Keeps one connection pool per host."""

    def __init__(self):
        self.pools = {}

    def connection_from_host(self, host, port) -> HTTPConnectionPool:
        return self.connection_from_context({"host": host, "port": port})

    def connection_from_context(self, context) -> HTTPConnectionPool:
        key = (context["host"], context["port"])
        return self.connection_from_pool_key(key)

    def connection_from_pool_key(self, key) -> HTTPConnectionPool:
        pool = self.pools.get(key)
        if pool is None:
            pool = HTTPConnectionPool(key[0], key[1])
            self.pools[key] = pool
        return pool

    def urlopen(self, method, url, headers=None):
        host, port = url.split(":")
        conn = self.connection_from_host(host, port)
        return conn.urlopen(method, url, headers=headers)
`;

const CONNECTION_POOL = `from ._request_methods import RequestMethods
from .connection import HTTPConnection


class HTTPConnectionPool(RequestMethods):
    """A pool of connections to one host."""

    def __init__(self, host, port):
        self.host = host
        self.port = port

    def _new_conn(self) -> HTTPConnection:
        return HTTPConnection(self.host, self.port)

    def urlopen(self, method, url, headers=None):
        conn = self._new_conn()
        response = self._make_request(conn, method, url, headers)
        return response

    def _make_request(self, conn: HTTPConnection, method, url, headers):
        conn.send_request(method, url, headers)
        return conn.read_response()
`;

const CONNECTION = `import socket


class HTTPConnection:
    """One socket to a host."""

    def __init__(self, host, port):
        self.sock = socket.create_connection((host, int(port)))

    def send_request(self, method, url, headers):
        line = method + " " + url + " HTTP/1.1"
        self.sock.sendall(line.encode())

    def read_response(self):
        return self.sock.recv(65536)
`;

let repo: Awaited<ReturnType<typeof indexSources>>;

beforeAll(async () => {
  repo = await indexSources("reach", {
    "http/__init__.py": "",
    "http/_request_methods.py": REQUEST_METHODS,
    "http/fields.py": FIELDS,
    "http/poolmanager.py": POOL_MANAGER,
    "http/connectionpool.py": CONNECTION_POOL,
    "http/connection.py": CONNECTION,
  });
});
afterAll(() => repo.close());

function explore(question: string) {
  return exploratoryFlow(repo.repositoryId, question);
}

describe("an exploratory walk toward the end the question names", () => {
  it("follows a call on another object to that object's method and on to the end", async () => {
    const { flow, opening } = await explore(
      'Walk me through what happens when I call PoolManager.request("GET", url) until a connection sends the request.',
    );
    // `self.urlopen` in the mixin runs the manager's own urlopen, whose `conn.urlopen` is the pool's.
    expect(flow).toMatch(/PoolManager\.urlopen\(\)[\s\S]*⇒ HTTPConnectionPool\.urlopen\(\)/);
    expect(flow).toMatch(/⇒ HTTPConnectionPool\._make_request\(\)/);
    expect(opening).toMatch(
      /`PoolManager\.urlopen`[^`]*→ `HTTPConnectionPool\.urlopen`[^`]*→ `HTTPConnectionPool\._make_request`/,
    );
  });

  it("leaves a flow with no end clause at the walk's own depth", async () => {
    const { flow } = await explore(
      'Walk me through what happens when I call PoolManager.request("GET", url).',
    );
    expect(flow).toMatch(/^RequestMethods\.request\(\)/);
    expect(flow).not.toContain("⇒");
  });
});

describe("graft", () => {
  const symbol = (name: string) => ({ qualifiedId: `a.py::${name}`, qualifiedName: name }) as SymbolRecord;
  const node = (name: string, depth: number, children: FlowNode[] = []): FlowNode => ({
    symbol: symbol(name),
    depth,
    children,
  });

  it("puts the line first under the steps it passes, moving a step walked elsewhere with its callees", () => {
    const root = node("entry", 0, [node("helper", 1, [node("deep", 2, [node("leaf", 3)])]), node("step", 1)]);
    graft(root, [symbol("step"), symbol("deep"), symbol("end")]);
    const step = root.children[0] as FlowNode;
    expect(step.symbol.qualifiedName).toBe("step");
    expect(step.endward).toBe(true);
    const deep = step.children[0] as FlowNode;
    expect(deep.symbol.qualifiedName).toBe("deep");
    expect(deep.depth).toBe(2);
    expect(deep.children.map((c) => [c.symbol.qualifiedName, c.depth, !!c.endward])).toEqual([
      ["end", 3, true],
      ["leaf", 3, false],
    ]);
    // Each step appears once.
    const names = flatten(root).map((n) => n.symbol.qualifiedName);
    expect(new Set(names).size).toBe(names.length);
  });
});
