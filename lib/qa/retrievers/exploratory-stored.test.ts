/**
 * Calls on objects the index cannot follow by itself, followed by an exploratory walk: through
 * a structural protocol to the one class named like it without its abstract prefix
 * (`BaseTransport.send` → `Transport.send`), and through a handler the object keeps in a field
 * (`mx.handler.ServeHTTP(w, r)` → the `mx.routeHTTP` stored there).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexSources } from "../../../test-support/qa-env.ts";
import { exploratoryFlow } from "../../../test-support/qa-flow.ts";

const PROTOCOLS = `from typing import Protocol


class BaseTransport(Protocol):
    def send(self, payload: bytes) -> int:
        ...
`;

const TRANSPORT = `import socket


class Transport:
    def __init__(self, host):
        self.sock = socket.create_connection((host, 80))

    def send(self, payload):
        framed = frame(payload)
        return self.sock.sendall(framed)


def frame(payload):
    return len(payload).to_bytes(4, "big") + payload
`;

const CLIENT = `from .protocols import BaseTransport


class Client:
    def fetch(self, conn: BaseTransport, url):
        payload = encode_request(url)
        return self._deliver(conn, payload)

    def _deliver(self, conn: BaseTransport, payload):
        return conn.send(payload)


def encode_request(url):
    return ("GET " + url).encode()
`;

const MUX = `package router

import "net/http"

// Mux is a router that dispatches requests through its middlewares to the matched route.
type Mux struct {
	handler     http.Handler
	middlewares []func(http.Handler) http.Handler
	tree        *node
}

// ServeHTTP hands the request to the handler the middlewares were chained into.
func (mx *Mux) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if mx.handler == nil {
		mx.NotFound(w, r)
		return
	}
	mx.handler.ServeHTTP(w, r)
}

// NotFound answers a request no route matches.
func (mx *Mux) NotFound(w http.ResponseWriter, r *http.Request) {
	http.Error(w, "not found", 404)
}

// Use appends a middleware and rebuilds the handler chain.
func (mx *Mux) Use(m func(http.Handler) http.Handler) {
	mx.middlewares = append(mx.middlewares, m)
	mx.handler = chain(mx.middlewares, http.HandlerFunc(mx.routeHTTP))
}

func (mx *Mux) routeHTTP(w http.ResponseWriter, r *http.Request) {
	h := mx.tree.findRoute(r.URL.Path)
	if h == nil {
		mx.NotFound(w, r)
		return
	}
	h.ServeHTTP(w, r)
}

func chain(middlewares []func(http.Handler) http.Handler, endpoint http.Handler) http.Handler {
	h := endpoint
	for i := len(middlewares) - 1; i >= 0; i-- {
		h = middlewares[i](h)
	}
	return h
}
`;

const TREE = `package router

import "net/http"

type node struct {
	prefix   string
	handler  http.Handler
	children []*node
}

func (n *node) findRoute(path string) http.Handler {
	for _, c := range n.children {
		if len(path) >= len(c.prefix) && path[:len(c.prefix)] == c.prefix {
			return c.findRoute(path[len(c.prefix):])
		}
	}
	return n.handler
}
`;

let repo: Awaited<ReturnType<typeof indexSources>>;

beforeAll(async () => {
  repo = await indexSources("receivers", {
    "client/__init__.py": "",
    "client/protocols.py": PROTOCOLS,
    "client/transport.py": TRANSPORT,
    "client/client.py": CLIENT,
    "go.mod": "module example.com/router\n\ngo 1.21\n",
    "router/mux.go": MUX,
    "router/tree.go": TREE,
  });
});
afterAll(() => repo.close());

async function flowOf(question: string): Promise<string> {
  return (await exploratoryFlow(repo.repositoryId, question)).flow;
}

describe("the exploratory walk through calls on untyped objects", () => {
  it("goes from a structural protocol's method to the one class implementing it by name", async () => {
    const flow = await flowOf("Walk me through Client.fetch(conn, url)");
    expect(flow).toMatch(/Client\._deliver\(\)[\s\S]*Transport\.send\(\)/);
    expect(flow).not.toMatch(/BaseTransport\.send\(\)/);
  });

  it("goes through a handler stored in a field to the method stored there", async () => {
    const flow = await flowOf("Walk me through Mux.ServeHTTP when a request arrives");
    expect(flow).toMatch(/Mux\.ServeHTTP\(\)[\s\S]*Mux\.routeHTTP\(\)[\s\S]*node\.findRoute\(\)/);
  });
});
