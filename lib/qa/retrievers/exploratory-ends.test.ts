/**
 * Where an exploratory walk starts and what it follows, on a real index of a small Go
 * router: a call on a Go method's own receiver (`r.match(req)`, the receiver named in the
 * method's signature) is a step of the flow, and what the question names where the flow
 * ends ("up to my handler calling mux.Vars(r)") is not where the walk starts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexSources } from "../../../test-support/qa-env.ts";
import { exploratoryFlow } from "../../../test-support/qa-flow.ts";
import { flowEndAt } from "../../answerers/question-clauses.ts";
import { splitFlowEnds } from "./exploratory-steps.ts";
import type { Candidate } from "./shared.ts";

const MUX = `package mux

import "net/http"

// Router registers routes to be matched and dispatches a handler.
type Router struct {
	routes []*Route
}

// ServeHTTP dispatches the handler registered in the matched route.
func (rt *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	var match RouteMatch
	if rt.Match(req, &match) {
		req = requestWithVars(req, match.Vars)
		match.Handler.ServeHTTP(w, req)
	}
}

// Match attempts to match the given request against the router's registered routes.
func (rt *Router) Match(req *http.Request, match *RouteMatch) bool {
	for _, route := range rt.routes {
		if route.Match(req, match) {
			return true
		}
	}
	return false
}

// Vars returns the route variables for the current request, if any.
func Vars(r *http.Request) map[string]string {
	if rv := r.Context().Value(varsKey); rv != nil {
		return rv.(map[string]string)
	}
	return nil
}

func requestWithVars(r *http.Request, vars map[string]string) *http.Request {
	return r
}
`;

const ROUTE = `package mux

import "net/http"

// Route stores information to match a request and build URLs.
type Route struct {
	handler http.Handler
}

// RouteMatch stores information about a matched route.
type RouteMatch struct {
	Handler http.Handler
	Vars    map[string]string
}

// Match matches the route against the request.
func (r *Route) Match(req *http.Request, match *RouteMatch) bool {
	match.Handler = r.handler
	return true
}
`;

let repo: Awaited<ReturnType<typeof indexSources>>;

beforeAll(async () => {
  repo = await indexSources("ends", {
    "go.mod": "module example.com/mux\n\ngo 1.21\n",
    "mux.go": MUX,
    "route.go": ROUTE,
  });
});
afterAll(() => repo.close());

function explore(question: string) {
  return exploratoryFlow(repo.repositoryId, question);
}

describe("the exploratory walk", () => {
  it("follows a call on a Go method's own receiver, whatever the receiver is named", async () => {
    const { flow } = await explore("Walk me through Router.ServeHTTP");
    expect(flow).toMatch(/Router\.ServeHTTP\(\)[\s\S]*→ Router\.Match\(\)/);
  });

  it("does not start at what the question names where the flow ends", async () => {
    const { symbols, flow } = await explore(
      "Walk me through what happens when a request reaches the router, up to my handler calling mux.Vars(r).",
    );
    expect(flow).toMatch(/^Router\.ServeHTTP\(\)/);
    expect(symbols.slice(0, 3)).toContain("mux.go::Router.ServeHTTP");
    expect(symbols.slice(0, 3)).toContain("mux.go::Router.Match");
    expect(symbols.slice(0, 3)).not.toContain("mux.go::Vars");
  });
});

describe("the end of the flow a question asks about", () => {
  const candidate = (reason: string) => ({ key: reason, reason }) as Candidate;

  it("starts at 'up to', 'until' or 'down to'", () => {
    const question = "What happens when I call get, until I get a Response back?";
    expect(flowEndAt(question)).toBe(question.indexOf("until"));
    expect(flowEndAt("Follow ds.groupby('x').mean() down to the reduction.")).toBeGreaterThan(0);
    expect(flowEndAt("Walk me through Session.send")).toBe(-1);
  });

  it("sets apart what is named only there", () => {
    const question = "Walk me through Client.get(url) until I get a Response back";
    const { rest, ends } = splitFlowEnds(question, [
      candidate("named in the question (Client.get)"),
      candidate("named in the question (Response)"),
    ]);
    expect(rest.map((c) => c.reason)).toEqual(["named in the question (Client.get)"]);
    expect(ends.map((c) => c.reason)).toEqual(["named in the question (Response)"]);
  });
});
