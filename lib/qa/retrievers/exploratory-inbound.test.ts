/**
 * A question about a request arriving starts where the server hands it over — Go's
 * `ServeHTTP`, Rack's `call(env)`, a WSGI application — on a real index of small projects in
 * three languages, and the ranked steps follow the main line from there (the step that calls
 * the next), not dead ends or the refusal path named like the question.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  indexFixture,
  retrieversOwnOrder,
  setupQaHome,
  type IndexedFixture,
} from "../../../test-support/qa-env.ts";
import { PartLog } from "../../../test-support/qa-model.ts";
import { askQuestion } from "../ask.ts";
import { asksAboutInboundRequest } from "./entry-points.ts";

const ROUTER_GO = `package router

import "net/http"

type Router struct {
	routes []*Route
}

type Route struct {
	path    string
	handler http.Handler
}

type RouteMatch struct {
	Route   *Route
	Handler http.Handler
	Vars    map[string]string
}

func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	var match RouteMatch
	var handler http.Handler
	if r.Match(req, &match) {
		handler = match.Handler
		req = requestWithVars(req, match.Vars)
	}
	if handler == nil {
		handler = notFoundHandler()
	}
	handler.ServeHTTP(w, req)
}

func (r *Router) Match(req *http.Request, match *RouteMatch) bool {
	for _, route := range r.routes {
		if route.Match(req, match) {
			return true
		}
	}
	return false
}

func (r *Route) Match(req *http.Request, match *RouteMatch) bool {
	if req.URL.Path != r.path {
		return false
	}
	match.Route = r
	match.Handler = r.handler
	match.Vars = extractVars(req.URL.Path)
	return true
}

func extractVars(path string) map[string]string {
	vars := map[string]string{}
	vars["path"] = path
	return vars
}

func requestWithVars(req *http.Request, vars map[string]string) *http.Request {
	if len(vars) == 0 {
		return req
	}
	return req
}

func notFoundHandler() http.Handler {
	return http.HandlerFunc(notFound)
}

func notFound(w http.ResponseWriter, req *http.Request) {
	w.WriteHeader(404)
}
`;

const CHAIN_GO = `package router

import "net/http"

type ChainHandler struct {
	Endpoint http.Handler
}

func (c *ChainHandler) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	c.Endpoint.ServeHTTP(w, req)
}
`;

const APP_RB = `module Shelf
  class Builder
    def initialize(app)
      @app = app
    end

    def call(env)
      request = build_request(env)
      dispatch(request)
    end

    def build_request(env)
      Request.new(env)
    end

    def dispatch(request)
      @app.call(request.env)
    end
  end

  class Request
    attr_reader :env

    def initialize(env)
      @env = env
    end
  end
end
`;

const APP_PY = `class Application:
    def __call__(self, environ, start_response):
        return self.wsgi_app(environ, start_response)

    def wsgi_app(self, environ, start_response):
        request = self.request_class(environ)
        response = self.full_dispatch_request(request)
        return response(environ, start_response)

    def request_class(self, environ):
        return dict(environ)

    def full_dispatch_request(self, request):
        return self.dispatch_request(request)

    def dispatch_request(self, request):
        return request.get("PATH_INFO")


def handle_request_error(request):
    return "error while handling the request"
`;

const repos: Record<string, IndexedFixture> = {};
const dirs: string[] = [];
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-inbound-"));
  const fixtures: Record<string, Record<string, string>> = {
    go: { "router.go": ROUTER_GO, "chain.go": CHAIN_GO },
    ruby: { "shelf.rb": APP_RB },
    python: { "app.py": APP_PY },
  };
  for (const [name, files] of Object.entries(fixtures)) {
    const dir = mkdtempSync(path.join(os.tmpdir(), `wf-inbound-${name}-`));
    dirs.push(dir);
    for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
    repos[name] = await indexFixture(dir, `inbound-${name}`);
  }
});
afterAll(async () => {
  await cleanup();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function rankedFor(repo: string, question: string): Promise<string[]> {
  const result = await askQuestion(
    { repository: repos[repo]!.repositoryId, question, overrides: { mode: "exploratory" } },
    new PartLog(),
    { model: null, ephemeral: true },
  );
  return result.loop.retrieval.rankedSymbols.map((s) => s.split("::").pop() ?? s);
}

// These tests check the walk's own order, not the learned ranker's.
retrieversOwnOrder();

describe("a request arriving", () => {
  it("tells a request reaching the code from one the code sends", () => {
    expect(
      asksAboutInboundRequest("What happens when a GET /articles/42 request arrives at the router?"),
    ).toBe(true);
    expect(
      asksAboutInboundRequest("Walk me through what happens when Flask handles an incoming request."),
    ).toBe(true);
    expect(asksAboutInboundRequest("What happens when an HTTP request reaches the router?")).toBe(true);
    expect(
      asksAboutInboundRequest("Walk me through what happens until the HTTP request is actually sent."),
    ).toBe(false);
    expect(asksAboutInboundRequest("How does the body of a response end up parsed?")).toBe(false);
  });

  it("starts at the router's ServeHTTP and follows the match down past the dead end named like the question", async () => {
    const ranked = await rankedFor(
      "go",
      "Walk me through what happens when an HTTP request reaches the router, up to my handler reading the vars.",
    );
    // The value put in the request's context, named like the question, is passed by; the chain
    // goes on through the match, not into the refusal.
    expect(ranked.slice(0, 4)).toEqual([
      "Router.ServeHTTP",
      "requestWithVars",
      "Router.Match",
      "Route.Match",
    ]);
    expect(ranked.slice(0, 5)).not.toContain("ChainHandler.ServeHTTP");
    expect(ranked.slice(0, 5)).not.toContain("notFoundHandler");
  });

  it("starts a Rack application's request at call(env)", async () => {
    const ranked = await rankedFor(
      "ruby",
      "What happens when a request reaches the app, until it is dispatched?",
    );
    expect(ranked[0]).toBe("Shelf.Builder.call");
    expect(ranked.slice(0, 4)).toContain("Shelf.Builder.dispatch");
  });

  it("starts a WSGI application's request where it does its work and runs on through the dispatch", async () => {
    const ranked = await rankedFor(
      "python",
      "Walk me through what happens when the application handles an incoming request.",
    );
    // `__call__` hands straight on to `wsgi_app`; either is where the request enters.
    expect(["Application.__call__", "Application.wsgi_app"]).toContain(ranked[0]);
    expect(ranked.slice(0, 4)).toEqual(
      expect.arrayContaining(["Application.full_dispatch_request", "Application.dispatch_request"]),
    );
    expect(ranked.slice(0, 4)).not.toContain("handle_request_error");
  });
});
