/**
 * Diagnostic retrieval over a small Go and PHP repository, indexed by the real indexer:
 * the call a report is made under comes right after the reporting function, a caller
 * catching the reported exception comes up beside the raise, and a wrapper's message is
 * followed into the inner message and the code that wrote it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  indexFixture,
  setupQaHome,
  type IndexedFixture,
  retrieversOwnOrder,
} from "../../../test-support/qa-env.ts";
import { retrieveReport } from "../retrieve.ts";
import { SourceReader } from "../context.ts";
import { symbolsByQualifiedIds } from "../../db/code-graph.ts";
import { secondPlaces, wordsOf } from "./diagnostic-deciders.ts";
import { decidingSites } from "./diagnostic-leads.ts";

const FILES: Record<string, string> = {
  "router.go": `package router

import "net/http"

type Router struct{ skipClean, strictSlash, keepContext bool }

// ServeHTTP dispatches the request to the handler of the matched route.
func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	path := req.URL.Path
	if p := cleanPath(path); p != path {
		w.Header().Set("Location", p)
		w.WriteHeader(http.StatusMovedPermanently)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// KeepContext keeps the request context after handling.
func (r *Router) KeepContext(value bool) *Router {
	r.keepContext = value
	return r
}

// StrictSlash defines the trailing slash behaviour for new routes.
func (r *Router) StrictSlash(value bool) *Router {
	r.strictSlash = value
	return r
}

// UseEncodedPath tells the router to match the encoded original path.
func (r *Router) UseEncodedPath() *Router {
	return r.useEncodedPath()
}

// cleanPath returns the canonical path, eliminating . and .. elements and double slashes.
func cleanPath(p string) string {
	if p == "" {
		return "/"
	}
	return p
}
`,
  "mux.go": `package chi

import "net/http"

type Mux struct{ tree *node }

// routeHTTP routes a request to the handler registered for its method and path.
func (mx *Mux) routeHTTP(w http.ResponseWriter, r *http.Request) {
	rctx := RouteContext(r.Context())
	if h := mx.tree.FindRoute(rctx, r.Method, r.URL.Path); h != nil {
		h.ServeHTTP(w, r)
		return
	}
	if rctx.methodNotAllowed {
		mx.MethodNotAllowedHandler(rctx.methodsAllowed...).ServeHTTP(w, r)
	}
}

// MethodNotAllowedHandler returns the handler answering a method no route allows.
func (mx *Mux) MethodNotAllowedHandler(methods ...string) http.HandlerFunc {
	return methodNotAllowedHandler(methods...)
}

// methodNotAllowedHandler answers 405 Method Not Allowed with the allowed methods.
func methodNotAllowedHandler(methods ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for _, m := range methods {
			w.Header().Add("Allow", m)
		}
		w.WriteHeader(405)
	}
}
`,
  "src/FileStore.php": `<?php
namespace Dotenv\\Store;

class FileStore
{
    public function read()
    {
        throw new InvalidPathException('Unable to read any of the environment file(s).');
    }
}
`,
  "src/Dotenv.php": `<?php
namespace Dotenv;

class Dotenv
{
    public function load()
    {
        return $this->store->read();
    }

    public function safeLoad()
    {
        try {
            return $this->load();
        } catch (InvalidPathException $e) {
            return [];
        }
    }
}
`,
  "src/Parser.php": `<?php
namespace Dotenv\\Parser;

class Parser
{
    public function parse(string $content)
    {
        throw new InvalidFileException(\\sprintf('Failed to parse dotenv file. %s', $this->error));
    }

    private function processToken(int $state, string $token)
    {
        if ($state === 3 && !\\ctype_space($token)) {
            return Error::create('unexpected whitespace');
        }
        return Success::create([$token, false, $state]);
    }
}
`,
};

let fx: IndexedFixture;
let cleanup: () => Promise<void>;
let repoDir: string;

beforeAll(async () => {
  ({ cleanup } = await setupQaHome("wf-diagnostic-second-"));
  repoDir = mkdtempSync(path.join(os.tmpdir(), "wf-second-places-"));
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(repoDir, file)), { recursive: true });
    writeFileSync(path.join(repoDir, file), text);
  }
  fx = await indexFixture(repoDir, "second-places");
});
afterAll(async () => {
  await cleanup();
  rmSync(repoDir, { recursive: true, force: true });
});

const diagnose = (question: string) => retrieveReport(fx.repositoryId, question, { mode: "diagnostic" });

/** The second places of the given leading functions for a question. */
async function placesOf(leading: string[], question: string, exceptionTypes: string[] = []) {
  const byId = new Map(
    (await symbolsByQualifiedIds(fx.generationId, leading)).map((s) => [s.qualifiedId, s]),
  );
  const places = await secondPlaces(
    fx.generationId,
    new SourceReader(fx.generationId),
    leading.flatMap((id) => byId.get(id) ?? []),
    { words: new Set(wordsOf(question)), exceptionTypes },
  );
  return places.map((p) => [p.site, p.symbol.qualifiedId]);
}

// These tests check the retriever's own order, not the learned ranker's.
retrieversOwnOrder();

describe("the second place of a report", () => {
  it("is the call a report is made under, when the question speaks of that report (Go)", async () => {
    const question =
      "Requests to //api/users get a 301 Moved Permanently instead of reaching my handler. Why?";
    expect(await placesOf(["router.go::Router.ServeHTTP"], question)).toEqual([
      ["router.go::Router.ServeHTTP", "router.go::cleanPath"],
    ]);
    // A question about another failure leaves the guard of this one where it is.
    expect(await placesOf(["router.go::Router.ServeHTTP"], "Why is the session cookie dropped?")).toEqual([]);
    const { symbols } = await diagnose(`${question} It comes from ServeHTTP.`);
    const site = symbols.indexOf("router.go::Router.ServeHTTP");
    expect(site).toBeGreaterThanOrEqual(0);
    expect(symbols[site + 1]).toBe("router.go::cleanPath");
  });

  it("is looked for beside functions that decide, setters and wrappers passed over (Go)", async () => {
    const ids = [
      "router.go::Router.KeepContext",
      "router.go::Router.StrictSlash",
      "router.go::Router.UseEncodedPath",
      "router.go::Router.ServeHTTP",
      "router.go::cleanPath",
    ];
    const reader = new SourceReader(fx.generationId);
    const sites = await decidingSites({ generationId: fx.generationId, reader }, ids);
    expect(sites.map((s) => s.qualifiedId)).toEqual(["router.go::Router.ServeHTTP", "router.go::cleanPath"]);
  });

  it("is a caller catching the reported exception, when the site decides nothing by a call (PHP)", async () => {
    const question = "Uncaught InvalidPathException: Unable to read any of the environment file(s).";
    expect(
      await placesOf(["src/Dotenv.php::Dotenv.Dotenv.load"], question, ["InvalidPathException"]),
    ).toEqual([["src/Dotenv.php::Dotenv.Dotenv.load", "src/Dotenv.php::Dotenv.Dotenv.safeLoad"]]);
    // Nothing reported that the caller catches: no handler.
    expect(await placesOf(["src/Dotenv.php::Dotenv.Dotenv.load"], question, ["OtherException"])).toEqual([]);
  });

  it("opens the answer with the leading ranked function and the caller whose condition reaches it (Go)", async () => {
    const { symbols, answer } = await diagnose(
      "PROPFIND requests come back 405 Method Not Allowed and my handler never sees them. Why?",
    );
    const first = answer.split("\n\n")[0] ?? "";
    const lead = symbols[0]?.split("::")[1] ?? "";
    expect(first).toContain(`\`${lead}\``);
    expect(first).toMatch(/reached from `Mux\.routeHTTP` \(mux\.go:\d+-\d+\) when `rctx\.methodNotAllowed`/);
  });

  it("follows a wrapper's message into the code that wrote its inner part (PHP)", async () => {
    const { symbols, signals } = await diagnose(
      "Loading fails with: Dotenv\\Exception\\InvalidFileException: Failed to parse dotenv file. unexpected whitespace",
    );
    expect(signals.messages).toEqual(["src/Parser.php"]);
    expect(signals["inner-messages"]).toEqual(["src/Parser.php"]);
    expect(symbols.slice(0, 3)).toContain("src/Parser.php::Dotenv.Parser.Parser.processToken");
  });
});
