import { answerInput, symbolItem as symbol } from "../../test-support/answer-input.ts";
import { describe, expect, it } from "vitest";
import type { ContextItem } from "./contract.ts";
import { openingFor } from "./opening.ts";
import { decidingCaller } from "./opening-diagnostic-callers.ts";

const input = (question: string, context: ContextItem[]) => answerInput(question, "diagnostic", context);

const byName = (items: ContextItem[]) => new Map(items.map((i) => [i.facts?.qualifiedName ?? "", i]));

describe("the caller a diagnostic opening names beside its lead", () => {
  // Go: the 405 writer is reached through a getter, under the routing condition.
  const writer = symbol(
    "methodNotAllowedHandler",
    "mux.go",
    "func methodNotAllowedHandler(methods ...string) func(w http.ResponseWriter, r *http.Request) {\n\treturn func(w http.ResponseWriter, r *http.Request) {\n\t\tw.WriteHeader(405)\n\t}\n}",
    521,
  );
  const register = symbol(
    "Mux.Handle",
    "mux.go",
    "func (mx *Mux) Handle(pattern string, handler http.Handler) {\n\tmx.handle(mALL, pattern, handler)\n}",
    120,
  );
  const getter = symbol(
    "Mux.MethodNotAllowedHandler",
    "mux.go",
    "func (mx *Mux) MethodNotAllowedHandler(methods ...string) http.HandlerFunc {\n\treturn methodNotAllowedHandler(methods...)\n}",
    400,
  );
  const route = symbol(
    "Mux.routeHTTP",
    "mux.go",
    "func (mx *Mux) routeHTTP(w http.ResponseWriter, r *http.Request) {\n\tif _, _, h := mx.tree.FindRoute(rctx, method, routePath); h != nil {\n\t\th.ServeHTTP(w, r)\n\t\treturn\n\t}\n\tif rctx.methodNotAllowed {\n\t\tmx.MethodNotAllowedHandler(rctx.methodsAllowed...).ServeHTTP(w, r)\n\t}\n}",
    463,
  );

  it("prefers a caller whose condition guards the call, through a getter between (Go)", () => {
    const found = decidingCaller(writer, [writer, register, getter, route]);
    expect(found?.item).toBe(route);
    expect(found?.condition).toBe("rctx.methodNotAllowed");
  });

  it("opens a symptom with its lead, then where it is reached from and when", () => {
    const context = [writer, register, getter, route];
    const text = openingFor(
      input("PROPFIND requests come back 405 and my handler never sees them. Why?", context),
      context,
      byName(context),
    );
    expect(text).toMatch(/^The behaviour comes from `methodNotAllowedHandler` \(mux\.go:521-525\)/);
    expect(text).toContain(
      "It is reached from `Mux.routeHTTP` (mux.go:463-471) when `rctx.methodNotAllowed`.",
    );
  });

  it("takes the first caller when no condition guards any call (TypeScript, private method)", () => {
    const delay = symbol(
      "Ky.#calculateRetryDelay",
      "source/core/Ky.ts",
      "async #calculateRetryDelay(error: unknown) {\n  this.#retryCount++;\n  return this.#options.retry.backoffLimit;\n}",
      487,
    );
    const retry = symbol(
      "Ky.#retry",
      "source/core/Ky.ts",
      "async #retry(fn) {\n  try {\n    return await fn();\n  } catch (error) {\n    const ms = await this.#calculateRetryDelay(error);\n    await delay(ms);\n  }\n}",
      520,
    );
    const found = decidingCaller(delay, [delay, retry]);
    expect(found?.item).toBe(retry);
    expect(found?.condition).toBeNull();
  });

  it("finds a Python caller under an if, and none where nothing calls the lead", () => {
    const check = symbol(
      "Walker.check_loop",
      "walk.py",
      "def check_loop(self, child):\n    for ancestor in self.stack:\n        if ancestor == child:\n            return LoopError(ancestor, child)",
      10,
    );
    const follow = symbol(
      "Walker.follow",
      "walk.py",
      "def follow(self, entry):\n    if entry.is_dir() and self.follow_links:\n        self.check_loop(entry.path)\n    return entry",
      30,
    );
    const other = symbol("Walker.sort", "walk.py", "def sort(self):\n    self.items.sort()", 50);
    expect(decidingCaller(check, [check, other, follow])).toEqual({
      item: follow,
      condition: "entry.is_dir() and self.follow_links",
    });
    expect(decidingCaller(other, [check, other, follow])).toBeNull();
  });

  it("keeps a direct caller under a case arm before one reaching it through that caller (PHP)", () => {
    const exception = symbol(
      "Slim.Exception.HttpMethodNotAllowedException",
      "Slim/Exception/HttpMethodNotAllowedException.php",
      "class HttpMethodNotAllowedException extends HttpSpecializedException\n{\n    protected $message = 'Method not allowed.';\n}",
      15,
    );
    const routing = symbol(
      "Slim.Middleware.RoutingMiddleware.performRouting",
      "Slim/Middleware/RoutingMiddleware.php",
      "public function performRouting($request)\n{\n    $results = $this->resolver->computeRoutingResults($uri, $method);\n    switch ($results->getRouteStatus()) {\n        case RoutingResults::METHOD_NOT_ALLOWED:\n            throw new HttpMethodNotAllowedException($request);\n    }\n}",
      48,
    );
    const runner = symbol(
      "Slim.Routing.RouteRunner.handle",
      "Slim/Routing/RouteRunner.php",
      "public function handle($request)\n{\n    if ($request->getAttribute('routingResults') === null) {\n        $request = $this->routingMiddleware->performRouting($request);\n    }\n    return $this->dispatch($request);\n}",
      41,
    );
    expect(decidingCaller(exception, [exception, runner, routing])).toEqual({
      item: routing,
      condition: "RoutingResults::METHOD_NOT_ALLOWED",
    });
  });

  it("does not read a mention in a comment or a test as a call", () => {
    const site = symbol("parse_specs", "include/fmt/base.h", "void parse_specs() {\n  throw_error();\n}", 1);
    const commented = symbol(
      "formatter.parse",
      "include/fmt/ranges.h",
      "auto parse() {\n  // parse_specs(ctx) is not called here\n  return ctx.begin();\n}",
      40,
    );
    const test = symbol(
      "tests.test_parse",
      "test/format-test.cc",
      "void test_parse() {\n  if (ok) parse_specs();\n}",
      5,
    );
    expect(decidingCaller(site, [site, commented, test])).toBeNull();
  });
});
