import { answerInput as input, symbolItem as symbol } from "../../test-support/answer-input.ts";
import { describe, expect, it } from "vitest";
import { queryTerms, stem } from "../db/tokenize.ts";
import type { AnswerInput, ContextItem } from "./contract.ts";
import { EvidenceEngine } from "./evidence-engine.ts";
import { loggedHere } from "./evidence-reading.ts";
import { extractAnchors } from "../search/anchors.ts";
import { decidingLines, handsOn } from "./lead-definition.ts";
import { openingFor } from "./opening.ts";
import { storesOnly } from "./opening-diagnostic.ts";
import { askedTopic, whenAsked } from "./question-clauses.ts";

/** The opening of an answer whose context items are also the symbols it may cite. */
function openingOver(question: string, mode: AnswerInput["mode"], context: ContextItem[]): string {
  return openingFor(input(question, mode, context), context, new Map());
}

describe("the topic of a question, in its own terms", () => {
  it.each([
    ["How does requests decide whether to follow a redirect?", "decided", "Whether to follow a redirect"],
    ["What caps the number of retries?", "capped", "The number of retries"],
    [
      "When a browser sends an If-None-Match header, what decides whether a 304 is returned?",
      "decided",
      "Whether a 304 is returned",
    ],
    ["How is the cache key computed?", "computed", "The cache key"],
    [
      "How does xarray choose which backend engine opens a file?",
      "chosen",
      "Which backend engine opens a file",
    ],
    [
      "How does click decide which exit code the process ends with when a ClickException escapes?",
      "decided",
      "Which exit code the process ends with",
    ],
    [
      "In the library, how is it decided whether a variable gets a nominal or a continuous scale?",
      "decided",
      "Whether a variable gets a nominal or a continuous scale",
    ],
    [
      "How does the router decide which handler receives it: the default one or a mounted one?",
      "decided",
      "Which handler receives it",
    ],
    ["How does the parser format a std::string for the log?", "formatted", "A std::string for the log"],
    [
      "How does the middleware choose between gzip, deflate or no compression for a response, given the header?",
      "made",
      "The choice between gzip, deflate or no compression",
    ],
    [
      "With same_file_system(true), how does the walker decide not to go into a mount point?",
      "decided",
      "Whether to go into a mount point",
    ],
    [
      "How does the parser apply the allowed clock skew when it checks a token?",
      "applied",
      "The allowed clock skew",
    ],
    [
      "If I call r.Use(A) then r.Use(B), which sees the request first, and where is the order of the middleware stack decided?",
      "decided",
      "The order of the middleware stack",
    ],
    [
      "How does the scanner know that `name` in `name: value` is a mapping key before it has seen the colon?",
      "known",
      "That `name` in `name: value` is a mapping key before it has seen the colon",
    ],
  ])("%j → %s / %s", (question, verb, object) => {
    expect(askedTopic(question)).toEqual({ verb, object });
  });

  it("has none for a question that names no verb of the code", () => {
    expect(askedTopic("What is the Config class for?")).toBeNull();
    // "format" after an article is a noun.
    expect(askedTopic("How does vformat turn a format string into a std::string?")).toBeNull();
    // The verb's object is a preposition: nothing is named.
    expect(askedTopic("How does the router turn a template into something it can match against?")).toBeNull();
    // "limit of": a noun followed by what it limits, not the verb of the question.
    expect(
      askedTopic("How does the walker stay under the max_open limit of open directory handles?"),
    ).toBeNull();
  });
});

describe("deciding lines", () => {
  const terms = new Set(["retri", "wait", "delay"].map((t) => stem(t)));
  const source = [
    "def backoff_delay(self, attempt):",
    '    """How long to wait before the next retry."""',
    "    # never wait longer than max_delay",
    "    delay = self.base * 2 ** attempt",
    "    if delay > self.max_delay:",
    "        return self.max_delay",
    "    log.debug('waiting')",
    "    return delay",
  ].join("\n");

  it("are the computation and the condition, never the signature, docstring or comment", () => {
    const lines = decidingLines(source, terms).map((l) => l.text);
    expect(lines).toContain("delay = self.base * 2 ** attempt");
    expect(lines).toContain("if delay > self.max_delay");
    expect(lines.join(" ")).not.toMatch(/def |"""|#/);
    expect(lines.length).toBeLessThanOrEqual(2);
  });

  it("leave raise lines out of a non-diagnostic answer", () => {
    const raising = "def check(n):\n    if n > LIMIT:\n        raise TooMany(n)\n    return n";
    expect(decidingLines(raising, new Set([stem("limit")])).map((l) => l.text)).not.toContain(
      "raise TooMany(n)",
    );
  });
});

describe("the opening sentence", () => {
  const retry = symbol(
    "Retry.backoff_delay",
    "pkg/retry.py",
    "def backoff_delay(self, attempt):\n    delay = self.base * 2 ** attempt\n    return min(delay, self.max_delay)",
    40,
  );
  const test = symbol(
    "test_backoff",
    "tests/test_retry.py",
    "def test_backoff():\n    assert backoff_delay(1) == 2",
    3,
  );

  it("says what computes it, where, quoting the deciding line, with no error framing", () => {
    const text = openingFor(
      input("How is the retry delay computed?", "conceptual", [test, retry]),
      [test, retry],
      new Map(),
    );
    expect(text).toMatch(
      /^The retry delay is computed in `Retry\.backoff_delay` \(pkg\/retry\.py:40-42\): `/,
    );
    expect(text).toContain("`delay = self.base * 2 ** attempt`");
    expect(text).not.toMatch(/raise|No raise site/);
  });

  it("answers a symptom report without a quoted error from the code behind it", () => {
    const text = openingFor(
      input("After upgrading, the retry delay never grows past 2 seconds", "diagnostic", [retry]),
      [retry],
      new Map(),
    );
    expect(text).toMatch(/^The behaviour comes from `Retry\.backoff_delay` \(pkg\/retry\.py:40-42\)/);
    expect(text).not.toMatch(/No raise site/);
  });

  it("opens an analytical answer with the figure its retrieval computed", () => {
    const structure: ContextItem = {
      ...symbol("s", "x", "", 1),
      kind: "structure",
      path: null,
      facts: null,
      text: "Answer: `a.py` is imported by 3 files (a.py:1-9).\nImporters of a.py: b.py",
    };
    expect(openingFor(input("Which files import a.py?", "analytical", [structure]), [], new Map())).toBe(
      "`a.py` is imported by 3 files (a.py:1-9).",
    );
  });
});

describe("a diagnostic opening and the body", () => {
  const raising = (
    name: string,
    path: string,
    raises: string[],
    errorStrings: string[],
    score: number,
    text: string,
  ): ContextItem => {
    const s = symbol(name, path, text, 10);
    return {
      ...s,
      score,
      facts: { ...(s.facts as NonNullable<ContextItem["facts"]>), raises, errorStrings },
    };
  };
  // Retrieval scored the unrelated site far higher than the one whose message is quoted.
  const loud = raising(
    "Pool.acquire",
    "pkg/pool.py",
    ["PoolError"],
    ["pool is closed"],
    7,
    'def acquire(self):\n    if self.closed:\n        raise PoolError("pool is closed")',
  );
  const vague = raising(
    "Conn.open",
    "pkg/conn.py",
    ["TimeoutError"],
    ["timed out"],
    0.5,
    'def open(self):\n    if waited > limit:\n        raise TimeoutError("timed out")',
  );
  const exact = raising(
    "Conn.read",
    "pkg/conn.py",
    ["TimeoutError"],
    ["read timed out after {seconds} seconds"],
    0.2,
    'def read(self, seconds):\n    if not self.sock.ready(seconds):\n        raise TimeoutError(f"read timed out after {seconds} seconds")',
  );
  const ask = (question: string, types: string[], messages: string[], context: ContextItem[]) => {
    const base = input(question, "diagnostic", context);
    return { ...base, anchors: { ...base.anchors, exceptionTypes: types, messages } };
  };
  const firstListed = (answer: string) =>
    /\*\*Where the error can originate\*\*\n- `([^`]+)`/.exec(answer)?.[1] ?? "";

  it("name the site whose message matches the quoted one best, first in both", async () => {
    const question = 'Why do I get "TimeoutError: read timed out after 30 seconds"?';
    const given = ask(question, ["TimeoutError"], ["read timed out after 30 seconds"], [loud, vague, exact]);
    const { answer } = await new EvidenceEngine().answer(given, () => {});
    expect(answer).toMatch(
      /^`TimeoutError\("read timed out after \{seconds\} seconds"\)` is raised by `Conn\.read`/,
    );
    expect(answer).toContain("when `not self.sock.ready(seconds)`");
    expect(firstListed(answer)).toBe("Conn.read");
  });

  it("lead with the outer error the question names first, as the body lists it, then its cause", async () => {
    const retry = raising(
      "Client.send",
      "pkg/client.py",
      ["RetryError"],
      [],
      0.1,
      "def send(self):\n    if attempts > self.max:\n        raise RetryError(reason)",
    );
    const question =
      'RetryError: too many retries (Caused by TimeoutError("read timed out after 30 seconds"))';
    const given = ask(
      question,
      ["RetryError", "TimeoutError"],
      ["read timed out after 30 seconds"],
      [loud, exact, retry],
    );
    const { answer } = await new EvidenceEngine().answer(given, () => {});
    expect(answer).toMatch(
      /^`RetryError\(…\)` is raised by `Client\.send` \(pkg\/client\.py:10-12\) when `attempts > self\.max`; the cause it reports: `TimeoutError\(/,
    );
    expect(firstListed(answer)).toBe("Client.send");
  });

  it("say the raised type's constructor builds its message, not that it is a cause (TypeScript)", async () => {
    const fetcher = raising(
      "Ky.create.function_",
      "source/core/Ky.ts",
      ["HTTPError"],
      [],
      0.3,
      "const function_ = async () => {\n  if (!response.ok && options.throwHttpErrors) {\n    throw new HTTPError(response, request, options);\n  }\n};",
    );
    const constructor = raising(
      "HTTPError.constructor",
      "source/errors/HTTPError.ts",
      [],
      ["Request failed with {…}: {…} {…}"],
      0.2,
      "constructor(response: Response, request: Request) {\n  super(`Request failed with ${reason}: ${request.method} ${request.url}`);\n}",
    );
    const question =
      "HTTPError: Request failed with status code 422 Unprocessable Entity: POST https://api.example.com/orders";
    const given = ask(
      question,
      ["HTTPError"],
      ["Request failed with status code 422 Unprocessable Entity: POST https://api.example.com/orders"],
      [fetcher, constructor],
    );
    const { answer } = await new EvidenceEngine().answer(given, () => {});
    expect(answer).toMatch(
      /^`HTTPError\(…\)` is raised by `Ky\.create\.function_` \(source\/core\/Ky\.ts:10-14\) when `!response\.ok && options\.throwHttpErrors`; its message "Request failed with \{…\}: \{…\} \{…\}" is built by `HTTPError\.constructor` \(source\/errors\/HTTPError\.ts:10-12\)\./,
    );
  });

  it("quote, of several raises in one function, the one whose message the question wrote without its quotes (PHP)", async () => {
    const parse = raising(
      "Router.PathParser.parse",
      "src/PathParser.php",
      ["BadPathException"],
      ["Optional parts can only come at the end of a path", "Number of opening '[' and closing ']' differs"],
      0.9,
      [
        "public function parse(string $path): array",
        "{",
        "    $trimmed = rtrim($path, ']');",
        "    $segments = preg_split('~\\[~', $trimmed);",
        "    if (strlen($path) - strlen($trimmed) !== count($segments) - 1) {",
        "        if (preg_match('~\\]~', $trimmed) === 1) {",
        "            throw new BadPathException('Optional parts can only come at the end of a path');",
        "        }",
        "        throw new BadPathException(\"Number of opening '[' and closing ']' differs\");",
        "    }",
        "    return $segments;",
        "}",
      ].join("\n"),
    );
    for (const question of [
      "Why do I get BadPathException: Number of opening [ and closing ] differs when I add a path?",
      "Adding a path fails with a BadPathException, number of opening and closing brackets differs. Why?",
    ]) {
      const given = { ...input(question, "diagnostic", [parse]), anchors: extractAnchors(question) };
      const { answer } = await new EvidenceEngine().answer(given, () => {});
      expect(answer).toMatch(
        /^`BadPathException\("Number of opening '\[' and closing '\]' differs"\)` is raised by `Router\.PathParser\.parse` \(src\/PathParser\.php:10-21\) when `strlen\(\$path\) - strlen\(\$trimmed\) !== count\(\$segments\) - 1`/,
      );
      expect(answer).toContain(`with "Number of opening '[' and closing ']' differs"`);
    }
  });

  it("match a message the question filled in, in each language's format strings", async () => {
    const cases = [
      {
        site: raising(
          "Mux.route",
          "mux.go",
          [],
          ["route %q: unknown method %s"],
          0.4,
          'func (m *Mux) route(path, method string) error {\n\tif _, ok := m.methods[method]; !ok {\n\t\treturn fmt.Errorf("route %q: unknown method %s", path, method)\n\t}\n\treturn nil\n}',
        ),
        question: 'Our server logs error: route "/users": unknown method PROPFIND. Where does it come from?',
        opening:
          /^The message "route %q: unknown method %s" is reported by `Mux\.route` \(mux\.go:10-15\) when `_, ok := m\.methods\[method\]; !ok`/,
      },
      {
        site: raising(
          "Slab.get",
          "src/slab.rs",
          [],
          ["slot {} out of range for a slab of {} entries"],
          0.4,
          'pub fn get(&self, key: usize) -> &T {\n    if key >= self.entries.len() {\n        panic!("slot {} out of range for a slab of {} entries", key, self.entries.len());\n    }\n    &self.entries[key]\n}',
        ),
        question: "thread 'main' panicked at 'slot 12 out of range for a slab of 8 entries', src/main.rs:4:5",
        opening:
          /^The message "slot \{\} out of range for a slab of \{\} entries" is reported by `Slab\.get` \(src\/slab\.rs:10-15\) when `key >= self\.entries\.len\(\)`/,
      },
      {
        site: raising(
          "Mediator.Send",
          "src/Mediator.cs",
          ["InvalidOperationException"],
          ["Handler was not found for request of type {…}"],
          0.4,
          'public Task<T> Send<T>(IRequest<T> request)\n{\n    if (handler == null)\n    {\n        throw new InvalidOperationException($"Handler was not found for request of type {request.GetType()}");\n    }\n    return handler.Handle(request);\n}',
        ),
        question: "System.InvalidOperationException: Handler was not found for request of type Ping. Why?",
        opening:
          /^`InvalidOperationException\("Handler was not found for request of type \{…\}"\)` is raised by `Mediator\.Send` \(src\/Mediator\.cs:10-17\) when `handler == null`/,
      },
    ];
    for (const { site, question, opening } of cases) {
      const given = { ...input(question, "diagnostic", [site]), anchors: extractAnchors(question) };
      const { answer } = await new EvidenceEngine().answer(given, () => {});
      expect(answer).toMatch(opening);
    }
  });

  it("say no site matches when none does, naming the body's first", async () => {
    const given = ask('Why "KeyError: missing"?', ["KeyError"], ["missing"], [vague, loud]);
    const { answer } = await new EvidenceEngine().answer(given, () => {});
    expect(answer).toMatch(
      /^No raise site in the index matches this error exactly; the closest is `Pool\.acquire`/,
    );
    expect(firstListed(answer)).toBe("Pool.acquire");
  });
});

describe("a diagnostic answer continued from code the user pasted", () => {
  it("opens with the pasted line that fails, marked unverified, not with the closest raise site", () => {
    const excerpt: ContextItem = {
      ...symbol("x", "x", "", 1),
      key: "excerpt:fraud_screen()",
      kind: "doc",
      path: null,
      facts: null,
      origin: "user",
      title: "Excerpt for fraud_screen() (provided by the user, not verified)",
      text: "def fraud_screen(env)\n  halt 404 if env['HTTP_X_FRAUD']\nend",
    };
    const retry = symbol(
      "Retry.backoff_delay",
      "pkg/retry.py",
      "def backoff_delay(self):\n    raise NotFound()",
      40,
    );
    const given = input("Why do I get a NotFound error?", "diagnostic", [retry, excerpt]);
    given.anchors.exceptionTypes = ["NotFound"];
    const text = openingFor(given, [retry], new Map());
    expect(text).toBe(
      "By the code you provided for `fraud_screen()` (not verified), this comes from `halt 404 if env['HTTP_X_FRAUD']`.",
    );
    // Without the excerpt the same question gets the index's own account.
    expect(openingFor({ ...given, context: [retry] }, [retry], new Map())).not.toMatch(/provided/);
  });
});

describe("a first paragraph that answers", () => {
  const long = (name: string, path: string, start: number, body: string[]): ContextItem =>
    symbol(name, path, [`def ${name.split(".").pop()}(self, attempt):`, ...body].join("\n"), start);
  const filler = Array.from({ length: 180 }, (_, i) => `    step_${i} = prepare(${i})`);

  it("cites the deciding lines of a long definition, not all of it", () => {
    const item = long("Retry.run", "pkg/retry.py", 100, [
      ...filler,
      "    delay = self.base * 2 ** attempt",
      "    return min(delay, self.max_delay)",
    ]);
    const text = openingFor(
      input("How is the retry delay computed?", "conceptual", [item]),
      [item],
      new Map(),
    );
    const cited = /\(pkg\/retry\.py:(\d+)-(\d+)\)/.exec(text);
    expect(cited).not.toBeNull();
    const [from, to] = [Number(cited?.[1]), Number(cited?.[2])];
    expect(to - from + 1).toBeLessThanOrEqual(150);
    // The cited lines are the ones quoted: the formula sits 181 lines below the signature.
    expect(from).toBeGreaterThanOrEqual(100 + 181);
    expect(text).toContain("`delay = self.base * 2 ** attempt`");
  });

  it("leaves out a docstring about errors when the question asks about none", () => {
    const retry = symbol(
      "Retry.backoff_delay",
      "pkg/retry.py",
      "def backoff_delay(self, attempt):\n    delay = self.base * 2 ** attempt\n    return min(delay, self.max_delay)",
      40,
    );
    const withDoc = (docstring: string): ContextItem => ({
      ...retry,
      facts: { ...(retry.facts as NonNullable<ContextItem["facts"]>), docstring },
    });
    const erroring = withDoc("Raises ValueError when the attempt is negative.");
    const calm = openingFor(
      input("How is the retry delay computed?", "conceptual", [erroring]),
      [erroring],
      new Map(),
    );
    expect(calm).not.toMatch(/Raises|ValueError/);
    const asked = openingFor(
      input(
        "How is the retry delay computed, and which error is raised for a negative attempt?",
        "conceptual",
        [erroring],
      ),
      [erroring],
      new Map(),
    );
    expect(asked).toContain("Raises ValueError");
    const plain = withDoc("The wait before the next attempt.");
    expect(
      openingFor(input("How is the retry delay computed?", "conceptual", [plain]), [plain], new Map()),
    ).toContain("The wait before the next attempt.");
  });

  it("cites a long step of a traced flow by the lines retrieval matched", () => {
    const open: ContextItem = {
      ...long("open_dataset", "pkg/api.py", 350, filler),
      focus: { startLine: 366, endLine: 386 },
    };
    const flow: ContextItem = {
      ...symbol("flow", "pkg/api.py", "", 1),
      key: "flow:open_dataset",
      kind: "flow",
      path: null,
      facts: null,
      text: "open_dataset()  [pkg/api.py:350-531]\n    → decode()  [pkg/api.py:311-347]",
    };
    const text = openingFor(
      input("Trace what happens when open_dataset reads a file", "exploratory", [flow, open]),
      [open],
      new Map(),
    );
    expect(text).toBe(
      "When open_dataset reads a file, it starts at `open_dataset` (pkg/api.py:366-386), then `decode` (pkg/api.py:311-347).",
    );
  });

  it("cites a long step retrieval matched nothing in by where it calls the next step, never all of it", () => {
    // A step reached only by the walk: in context whole, without matched lines.
    const urlopen = long("Pool.urlopen", "pkg/pool.py", 400, [
      ...filler.slice(0, 90),
      "    response = self._make_request(conn, method, url)",
      ...filler.slice(90),
    ]);
    const lone = long("Pool.close", "pkg/pool.py", 700, filler);
    const flow: ContextItem = {
      ...symbol("flow", "pkg/pool.py", "", 1),
      key: "flow:request",
      kind: "flow",
      path: null,
      facts: null,
      text: [
        "request()  [pkg/api.py:10-20]",
        "    → Pool.urlopen()  [pkg/pool.py:400-672]",
        "        → Pool._make_request()  [pkg/pool.py:300-330]",
        "        → Pool.close()  [pkg/pool.py:700-881]",
      ].join("\n"),
    };
    const text = openingFor(
      input("Walk me through what happens when I call request()", "exploratory", [flow, urlopen, lone]),
      [urlopen, lone],
      new Map(),
    );
    // The call of `_make_request` is the 92nd line of the definition (its signature first).
    expect(text).toContain("`Pool.urlopen` (pkg/pool.py:491-491)");
    expect(text).not.toContain("pkg/pool.py:400-672");
    expect(text).not.toMatch(/pkg\/pool\.py:700-881/);
  });
});

describe("whenAsked", () => {
  it.each([
    ["What happens when I call dayjs.extend(utc)?", "When you call dayjs.extend(utc), it runs"],
    [
      "Walk me through what happens when Flask handles an incoming request.",
      "When Flask handles an incoming request, it runs",
    ],
    ["Trace what `flask run` does from the command line", "It runs"],
    ["What happens when a handler raises an exception?", "It runs"],
    [
      "What happens when I use ? on a value inside a function returning Result<()>? How?",
      "When you use ? on a value inside a function returning Result<()>, it runs",
    ],
    [
      "What happens when I call fetchJson('https://x.dev/a') with retries: 2?",
      "When you call fetchJson('https://x.dev/a') with retries: 2, it runs",
    ],
    ["What runs when I call $env->required(['A', 'B'])->notEmpty()?", "It runs"],
    [
      "Walk me through what happens when I call $client->get($url) until a handler sends the request.",
      "When you call $client->get($url), it runs",
    ],
    // A question that asks when names no moment to start from.
    ["When does a value in the text formatter get wrapped in quotes?", "It runs"],
    ["When is the connection returned to the pool, and by whom?", "It runs"],
    ["Explain what happens when is_retry returns true.", "When is_retry returns true, it runs"],
  ])("%s → %s", (question, expected) => expect(whenAsked(question, "it runs")).toBe(expected));
});

describe("an exploratory opening's chain", () => {
  it("ends before an error type built on the way, unless the question is about errors", () => {
    const flow: ContextItem = {
      ...symbol("flow", "src/env.ts", "", 1),
      key: "flow:save",
      kind: "flow",
      path: null,
      facts: null,
      text: [
        "save()  [src/env.ts:1-5]",
        "    → validate()  [src/env.ts:6-10]",
        "        → ValidationException()  [src/Exception/ValidationException.ts:1-3]",
      ].join("\n"),
    };
    const open = (q: string) => openingFor(input(q, "exploratory", [flow]), [], new Map());
    expect(open("Walk me through save")).toBe(
      "It starts at `save` (src/env.ts:1-5), then `validate` (src/env.ts:6-10).",
    );
    expect(open("Walk me through save when validation fails")).toContain("`ValidationException`");
  });
});

describe("an exploratory opening whose entry calls nothing the index resolved", () => {
  it("names the code retrieval ranked next, each cited, instead of ending at the entry", () => {
    const flow: ContextItem = {
      ...symbol("flow", "lib/authenticator.js", "", 1),
      key: "flow:Authenticator.authenticate",
      kind: "flow",
      path: null,
      facts: null,
      text: "Authenticator.authenticate()  [lib/authenticator.js:134-173]",
    };
    const entry = symbol(
      "Authenticator.authenticate",
      "lib/authenticator.js",
      "return this._framework.authenticate();",
      134,
    );
    const middleware = symbol(
      "authenticate",
      "lib/middleware/authenticate.js",
      "return function(req, res, next) {}",
      80,
    );
    const failure = symbol("AuthenticationError", "lib/errors/authenticationerror.js", "", 5);
    const spec = symbol("authenticate.test", "test/authenticate.test.js", "", 1);
    const complete = symbol(
      "authenticate.complete",
      "lib/middleware/authenticate.js",
      "function complete() {}",
      300,
    );
    const ranked = [entry, spec, failure, middleware, complete];
    const text = openingFor(
      input("Walk me through passport.authenticate('local')", "exploratory", [flow, ...ranked]),
      ranked,
      new Map(),
    );
    expect(text).toBe(
      "The flow starts at `Authenticator.authenticate` (lib/authenticator.js:134-173), which calls nothing else in the index; " +
        "the code it most likely goes on to is `authenticate` (lib/middleware/authenticate.js:80-80) and " +
        "`authenticate.complete` (lib/middleware/authenticate.js:300-300).",
    );
  });
});

describe("an exploratory opening over several named calls", () => {
  it("follows each call the question names down its own line of calls, in the question's order", () => {
    const flow: ContextItem = {
      ...symbol("flow", "rest/server.go", "", 1),
      key: "flow:NewServer,Start",
      kind: "flow",
      path: null,
      facts: null,
      text: [
        "NewServer()  [rest/server.go:41-59]",
        "    → newEngine()  [rest/engine.go:30-40]",
        "Server.Start()  [rest/server.go:112-117]",
        "    → engine.start()  [rest/engine.go:300-320]",
        "        → engine.bindRoutes()  [rest/engine.go:120-140]",
        "            → engine.bindRoute()  [rest/engine.go:150-190]",
        "    → logx.Close()  [core/logx/logs.go:10-20]",
      ].join("\n"),
    };
    const text = openingFor(
      input("Walk me through NewServer and Start: how is each route bound?", "exploratory", [flow]),
      [],
      new Map(),
    );
    expect(text).toBe(
      "It runs `NewServer` (rest/server.go:41-59) → `newEngine` (rest/engine.go:30-40), then " +
        "`Server.Start` (rest/server.go:112-117) → `engine.start` (rest/engine.go:300-320) → " +
        "`engine.bindRoutes` (rest/engine.go:120-140) → `engine.bindRoute` (rest/engine.go:150-190).",
    );
  });
});

describe("the lead of an opening", () => {
  it("is a site whose message template matches the quoted message, placeholders and all", async () => {
    const lookup = symbol(
      "FixtureLookupError.formatrepr",
      "src/fixtures.py",
      'def formatrepr(self):\n    if argname not in available:\n        msg = f"fixture {argname!r} not found"',
      700,
    );
    const other = symbol(
      "Marker.__call__",
      "src/fixtures.py",
      'def __call__(self):\n    raise ValueError("bad")',
      90,
    );
    const withFacts = (
      item: ContextItem,
      raises: string[],
      errorStrings: string[],
      score: number,
    ): ContextItem => ({
      ...item,
      score,
      facts: { ...(item.facts as NonNullable<ContextItem["facts"]>), raises, errorStrings },
    });
    const context = [
      withFacts(other, ["ValueError"], ["bad"], 3),
      withFacts(lookup, [], ["fixture {argname!r} not found"], 0.3),
    ];
    const given = input(
      `My test errors with "fixture 'db' not found". Where does that come from?`,
      "diagnostic",
      context,
    );
    given.anchors = { ...given.anchors, messages: ["fixture 'db' not found"] };
    const { answer } = await new EvidenceEngine().answer(given, () => {});
    expect(answer).toMatch(
      /^The message "fixture \{argname!r\} not found" is reported by `FixtureLookupError\.formatrepr`/,
    );
  });

  it("never quotes a signature, however the language declares it", () => {
    const source = [
      "export async function markUnverified(text: string, results: Result[]) {",
      "  const unverified = results.filter((r) => !r.verified);",
      "  return unverified.length ? mark(text, unverified) : text;",
      "}",
    ].join("\n");
    const lines = decidingLines(source, new Set(["verifi", "text", "unverifi"].map((t) => stem(t)))).map(
      (l) => l.text,
    );
    expect(lines.join(" ")).not.toMatch(/function/);
    expect(lines.length).toBeGreaterThan(0);
  });

  it("is code that says something: a definition with no deciding line and no docstring gives way", () => {
    const quiet = symbol("Parser.constructor", "src/index.js", "constructor(cfg) {\n  this.init()\n}", 10);
    const parse = symbol(
      "parseDate",
      "src/index.js",
      "const parseDate = (cfg) => {\n  if (typeof date === 'string') {\n    return new Date(date)\n  }\n}",
      40,
    );
    const other = symbol("Parser.toString", "src/index.js", "toString() {\n  this.x()\n}", 90);
    const text = openingFor(
      input("How does the parser turn a string into a date?", "conceptual", [quiet, other, parse]),
      [quiet, other, parse],
      new Map(),
    );
    expect(text).toMatch(/^`parseDate` \(src\/index\.js:40-44\) is where this happens/);
  });

  it("is never an end-to-end test's helper", async () => {
    const helper = symbol(
      "repositoryId",
      "e2e/pages/repositories.ts",
      "async function repositoryId(name) {\n  return find(name)\n}",
      60,
    );
    const real = symbol(
      "addRepository",
      "lib/jobs.ts",
      "async function addRepository(root) {\n  if (!allowed(root)) {\n    deny(root)\n  }\n}",
      5,
    );
    const text = openingFor(
      input("Adding a repository from the web app is refused. Why?", "diagnostic", [helper, real]),
      [helper, real],
      new Map(),
    );
    expect(text).toMatch(/^The behaviour comes from `addRepository`/);
  });
});

describe("a conceptual opening's lead, in every language", () => {
  it.each([
    ["Go", "func (cb *circuitBreaker) Allow() (Promise, error) {\n\treturn cb.throttle.allow()\n}"],
    ["JavaScript", "toISOString() {\n  // ie 8 return\n  return this.$d.toISOString()\n}"],
    ["Python", 'def name(self):\n    """The name."""\n    return self._name'],
    ["Ruby", "def settings\n  self.class.settings\nend"],
  ])("passes over a %s getter or wrapper that hands the work on", (_language, text) => {
    expect(handsOn({ text, facts: null })).toBe(true);
  });

  it.each([
    ["Go", "func (b *googleBreaker) accept() error {\n\treturn b.k * accepts < total\n}"],
    ["Rust", "fn enabled(&self) -> bool {\n    if self.level >= LEVEL { return true }\n    false\n}"],
  ])("keeps a %s one-liner that decides something", (_language, text) => {
    expect(handsOn({ text, facts: null })).toBe(false);
  });

  const deciding = symbol(
    "googleBreaker.accept",
    "core/breaker/googlebreaker.go",
    [
      "func (b *googleBreaker) accept() error {",
      "\taccepts, total := b.history()",
      "\tdropRatio := math.Max(0, (float64(total-protection)-b.k*float64(accepts))/float64(total+1))",
      "\tif dropRatio <= 0 {",
      "\t\treturn nil",
      "\t}",
      "\tif b.proba.TrueOnProba(dropRatio) {",
      "\t\treturn ErrServiceUnavailable",
      "\t}",
      "\treturn nil",
      "}",
    ].join("\n"),
    37,
  );

  it("is the method that decides, not a getter or wrapper of the breaker ranked before it", () => {
    const name = symbol(
      "circuitBreaker.Name",
      "core/breaker/breaker.go",
      "func (cb *circuitBreaker) Name() string {\n\treturn cb.name\n}",
      134,
    );
    const allow = symbol(
      "circuitBreaker.Allow",
      "core/breaker/breaker.go",
      "func (cb *circuitBreaker) Allow() (Promise, error) {\n\treturn cb.throttle.allow()\n}",
      113,
    );
    const text = openingFor(
      input("How does the circuit breaker decide to drop a call?", "conceptual", [name, allow, deciding]),
      [name, allow, deciding],
      new Map(),
    );
    expect(text).toMatch(/in `googleBreaker\.accept` \(core\/breaker\/googlebreaker\.go:37-47\): `/);
    expect(text).toContain("if dropRatio <= 0");
  });

  it.each([
    ["Java", "ReaderBasedJsonParser.ReaderBasedJsonParser", "ReaderBasedJsonParser.java"],
    ["C++", "basic_memory_buffer.~basic_memory_buffer", "format.h"],
    ["JavaScript", "Dayjs.constructor", "index.js"],
    ["PHP", "Router.__construct", "Router.php"],
    ["Go", "NewAdaptiveShedder", "core/load/adaptiveshedder.go"],
    ["Rust", "EnvFilter.new", "src/filter/env/mod.rs"],
  ])("is not a %s constructor or destructor", (_language, name, path) => {
    const ctor = symbol(
      name,
      path,
      "X(Reader r, int features) {\n  _reader = r;\n  _drop = features > 0 ? drop(r) : null;\n}",
      10,
    );
    const text = openingFor(
      input("How does the circuit breaker decide to drop a call?", "conceptual", [ctor, deciding]),
      [ctor, deciding],
      new Map(),
    );
    expect(text).toMatch(/in `googleBreaker\.accept`/);
  });

  it("names no test written beside the code as related", () => {
    const test = symbol(
      "tests.callsite_enabled_no_span_directive",
      "src/filter/env/mod.rs",
      "fn callsite_enabled_no_span_directive() {\n    assert!(filter.enabled(meta));\n}",
      745,
    );
    const other = symbol(
      "Directive.cares_about",
      "src/filter/env/directive.rs",
      "fn cares_about(&self, meta: &Metadata) -> bool {\n    if self.level > meta.level() { return false }\n    true\n}",
      120,
    );
    const text = openingFor(
      input("How does the circuit breaker decide to drop a call?", "conceptual", [deciding, test, other]),
      [deciding, test, other],
      new Map(),
    );
    expect(text).toContain("Related: `Directive.cares_about`");
    expect(text).not.toContain("callsite_enabled");
  });
});

describe("a conceptual opening's lead among the top five, by what its body answers", () => {
  const filler = (name: string, path: string, start: number): ContextItem =>
    symbol(name, path, `def ${name.split(".").at(-1)}\n  @options = {}\nend`, start);

  it.each([
    [
      "Ruby",
      "lib/client/request.rb",
      "Client.Request.response_redirects?",
      "def response_redirects?\n  options[:follow_redirects] && last_response.key?('location')\nend",
      "Client.Request.handle_redirection",
      [
        "def handle_redirection",
        "  self.path = last_response['location']",
        "  self.redirect = true",
        "  if last_response.code != '307'",
        "    self.http_method = Net::HTTP::Get unless options[:keep_method]",
        "  end",
        "  clear_body if http_method == Net::HTTP::Get",
        "end",
      ].join("\n"),
    ],
    [
      "TypeScript",
      "src/request.ts",
      "Request.isRedirect",
      "isRedirect(response: Response): boolean {\n  return this.options.followRedirects && response.headers.has('location');\n}",
      "Request.handleRedirection",
      [
        "handleRedirection(response: Response) {",
        "  this.path = response.headers.get('location');",
        "  this.redirect = true;",
        "  if (response.status !== 307) {",
        "    this.method = this.options.keepMethod ? this.method : 'GET';",
        "  }",
        "  if (this.method === 'GET') this.clearBody();",
        "}",
      ].join("\n"),
    ],
  ])(
    "is the %s function acting on a condition, not the predicate testing what the question takes as given",
    (_language, path, predicateName, predicateText, actingName, actingText) => {
      const predicate = symbol(predicateName, path, predicateText, 10);
      const acting = symbol(actingName, path, actingText, 40);
      const context = [
        predicate,
        filler("Client.Request.setup", path, 60),
        filler("Client.Request.credentials", path, 70),
        filler("Client.Request.validate", path, 80),
        acting,
      ];
      const text = openingOver(
        "When a POST gets redirected, when does the client switch the follow-up request to GET and when does it keep POST and the body?",
        "conceptual",
        context,
      );
      expect(text.startsWith(`\`${actingName}\``)).toBe(true);
    },
  );

  it("keeps a Go predicate named by the clause that asks", () => {
    const shouldDrop = symbol(
      "adaptiveShedder.shouldDrop",
      "core/load/adaptiveshedder.go",
      [
        "func (as *adaptiveShedder) shouldDrop() bool {",
        "\tif as.systemOverloaded() || as.stillHot() {",
        "\t\tif as.highThru() {",
        "\t\t\tflying := atomic.LoadInt64(&as.flying)",
        '\t\t\tlogx.Errorf("dropreq, cpu: %d, flying: %d", stat.CpuUsage(), flying)',
        "\t\t\treturn true",
        "\t\t}",
        "\t}",
        "\treturn false",
        "}",
      ].join("\n"),
      193,
    );
    const allow = symbol(
      "adaptiveShedder.Allow",
      "core/load/adaptiveshedder.go",
      "func (as *adaptiveShedder) Allow() (Promise, error) {\n\tif as.shouldDrop() {\n\t\tas.dropTime.Set(timex.Now())\n\t\treturn nil, ErrServiceOverloaded\n\t}\n\treturn &promise{}, nil\n}",
      118,
    );
    const text = openingFor(
      input(
        "When does the adaptive load shedder start dropping requests, and why does it keep dropping for a while after CPU usage falls?",
        "conceptual",
        [shouldDrop, allow],
      ),
      [shouldDrop, allow],
      new Map(),
    );
    expect(text).toMatch(/^`adaptiveShedder\.shouldDrop` \(core\/load\/adaptiveshedder\.go:193-202\)/);
  });
});

describe("deciding lines and a compound name", () => {
  it("count a compound name the question wrote once (Ruby: `HTTParty` is one word, not three)", () => {
    const source = [
      "def handle_redirection(&block)",
      "  if options[:logger]",
      "    logger = HTTParty::Logger.build(options[:logger])",
      "  end",
      "  unless options[:maintain_method_across_redirects] && options[:resend_on_redirect]",
      "    self.http_method = Net::HTTP::Get",
      "  end",
      "end",
    ].join("\n");
    const question =
      "When a POST gets redirected, when does HTTParty switch the request to GET and when does it keep POST?";
    const terms = new Set(queryTerms(question).map((t) => stem(t)));
    const [first] = decidingLines(source, terms);
    expect(first?.text).toBe(
      "unless options[:maintain_method_across_redirects] && options[:resend_on_redirect]",
    );
  });
});

describe("deciding lines of code in other languages", () => {
  it("are the condition, not the values of a log message written over several lines (Go)", () => {
    const source = [
      "func (as *adaptiveShedder) shouldDrop() bool {",
      "\tif as.systemOverloaded() || as.stillHot() {",
      "\t\tif as.highThru() {",
      "\t\t\tmsg := fmt.Sprintf(",
      '\t\t\t\t"dropreq, cpu: %d, maxPass: %d",',
      "\t\t\t\tstat.CpuUsage(), as.maxPass())",
      "\t\t\tlogx.Error(msg)",
      "\t\t\treturn true",
      "\t\t}",
      "\t}",
      "\treturn false",
      "}",
    ].join("\n");
    const terms = new Set(["drop", "cpu", "usage", "hot"].map((t) => stem(t)));
    const lines = decidingLines(source, terms).map((l) => l.text);
    expect(lines).toContain("if as.systemOverloaded() || as.stillHot()");
    expect(lines.join(" ")).not.toContain("CpuUsage");
  });

  it("keep the arms of a Rust match, though each ends with a comma", () => {
    const source = [
      "fn cares_about(&self, meta: &Metadata) -> bool {",
      "    match self.target {",
      "        None => true,",
      "        Some(ref target) => meta.target().starts_with(target),",
      "    }",
      "}",
    ].join("\n");
    const lines = decidingLines(source, new Set(["target"].map((t) => stem(t)))).map((l) => l.text);
    expect(lines).toContain("Some(ref target) => meta.target().starts_with(target),");
  });
});

describe("a diagnostic opening for a message written apart from its raise", () => {
  const withFacts = (item: ContextItem, facts: Partial<NonNullable<ContextItem["facts"]>>): ContextItem => ({
    ...item,
    facts: { ...(item.facts as NonNullable<ContextItem["facts"]>), ...facts },
  });
  const ask = (
    question: string,
    context: ContextItem[],
    anchors: Partial<AnswerInput["anchors"]>,
  ): AnswerInput => {
    const base = input(question, "diagnostic", context);
    return { ...base, anchors: { ...base.anchors, ...anchors } };
  };
  const byName = (items: ContextItem[]) => new Map(items.map((i) => [i.facts?.qualifiedName ?? "", i]));

  // Java: a checking helper raises; the caller writes the message and the condition.
  const check = withFacts(
    symbol(
      "Util.checkArgument",
      "src/Util.java",
      "static void checkArgument(boolean condition, String format, Object... args) {\n  if (!condition) throw new IllegalArgumentException(String.format(format, args));\n}",
      52,
    ),
    { raises: ["IllegalArgumentException"] },
  );
  const add = symbol(
    "CodeBlock.Builder.add",
    "src/CodeBlock.java",
    [
      "public Builder add(String format, Object... args) {",
      "  int index = indexStart;",
      "  checkArgument(index < args.length, \"index %d for '%s' not in range (received %s arguments)\", index + 1, format, args.length);",
      "  return this;",
      "}",
    ].join("\n"),
    280,
  );
  const addStatement = symbol(
    "MethodSpec.Builder.addStatement",
    "src/MethodSpec.java",
    "public Builder addStatement(String format, Object... args) {\n  code.addStatement(format, args);\n  return this;\n}",
    484,
  );
  const frames = [
    { path: "com/squareup/javapoet/Util.java", line: 53, func: "Util.checkArgument" },
    { path: "com/squareup/javapoet/CodeBlock.java", line: 287, func: "CodeBlock$Builder.add" },
    { path: "com/squareup/javapoet/MethodSpec.java", line: 486, func: "MethodSpec$Builder.addStatement" },
  ];

  it("names the caller that writes a message a checking helper raises, then the trace's callers", () => {
    const context = [check, add, addStatement];
    const given = ask(
      "java.lang.IllegalArgumentException: index 3 for '$3L' not in range (received 2 arguments)",
      context,
      {
        exceptionTypes: ["IllegalArgumentException"],
        messages: ["index 3 for '$3L' not in range (received 2 arguments)"],
        stackFrames: frames,
      },
    );
    const text = openingFor(given, context, byName(context));
    expect(text).toMatch(
      /^The message "index %d for '%s' not in range \(received %s arguments\)" is written in `CodeBlock\.Builder\.add` \(src\/CodeBlock\.java:280-284\): `checkArgument\(index < args\.length/,
    );
    expect(text).toContain(
      "It is raised as `IllegalArgumentException` by `Util.checkArgument` (src/Util.java:52-54).",
    );
    expect(text).toContain(
      "It is called from `MethodSpec.Builder.addStatement` (src/MethodSpec.java:484-487).",
    );
  });

  it("follows the trace for the callers of a matched raise site", () => {
    const site = withFacts(check, { errorStrings: ["argument %s is out of range"] });
    const context = [site, add, addStatement];
    const given = ask("IllegalArgumentException: argument 7 is out of range", context, {
      exceptionTypes: ["IllegalArgumentException"],
      messages: ["argument 7 is out of range"],
      stackFrames: frames,
    });
    expect(openingFor(given, context, byName(context))).toContain(
      "It is called from `CodeBlock.Builder.add` (src/CodeBlock.java:280-284), itself called from `MethodSpec.Builder.addStatement` (src/MethodSpec.java:484-487).",
    );
  });

  it("takes no caller from a frame whose file is not the definition's", () => {
    const site = withFacts(check, { errorStrings: ["argument %s is out of range"] });
    const elsewhere = { ...add, path: "src/Other.java" };
    const context = [site, elsewhere, addStatement];
    const given = ask("IllegalArgumentException: argument 7 is out of range", context, {
      exceptionTypes: ["IllegalArgumentException"],
      messages: ["argument 7 is out of range"],
      stackFrames: frames,
    });
    expect(openingFor(given, context, byName(context))).not.toContain("called from");
  });

  it("finds a Python message built in an f-string before it is raised", () => {
    const other = withFacts(
      symbol(
        "FixtureFunctionMarker.__call__",
        "src/fixtures.py",
        'def __call__(self, f):\n    raise ValueError("class fixtures not supported")',
        10,
      ),
      { raises: ["ValueError"], errorStrings: ["class fixtures not supported"] },
    );
    const formatrepr = symbol(
      "FixtureLookupError.formatrepr",
      "src/fixtures.py",
      "def formatrepr(self):\n    if self.argname not in available:\n        msg = f\"fixture '{self.argname}' not found\"\n    return FixtureLookupErrorRepr(msg)",
      800,
    );
    const context = [other, formatrepr];
    const given = ask("My test errors with \"fixture 'db' not found\". Where does that come from?", context, {
      messages: ["fixture 'db' not found"],
    });
    expect(openingFor(given, context, byName(context))).toBe(
      "The message \"fixture '{self.argname}' not found\" is written in `FixtureLookupError.formatrepr` (src/fixtures.py:800-803) when `self.argname not in available`.",
    );
  });

  it("finds a Ruby message built with escaped quotes and #{} before it is raised, a log line's level aside", () => {
    const raiser = withFacts(
      symbol(
        "Cli.Base.handle_argument_error",
        "lib/cli/base.rb",
        [
          "def handle_argument_error(command, error, args, arity)",
          '  name = [command.ancestor_name, command.name].compact.join(" ")',
          '  msg = "ERROR: \\"#{basename} #{name}\\" was called with ".dup',
          '  msg << "arguments " << args.inspect unless args.empty?',
          "  raise InvocationError, msg",
          "end",
        ].join("\n"),
        619,
      ),
      { raises: ["InvocationError"], errorStrings: [] },
    );
    const context = [raiser];
    const given = ask(
      'Running my CLI prints ERROR: "mycli deploy" was called with arguments ["x"]. Why?',
      context,
      {
        messages: ['"mycli deploy" was called with arguments ["x"]'],
      },
    );
    expect(openingFor(given, context, byName(context))).toBe(
      'The message "ERROR: "#{basename} #{name}" was called with " is written in `Cli.Base.handle_argument_error` (lib/cli/base.rb:619-624).',
    );
  });

  it("finds a message kept in a module constant, not its copy in a test", () => {
    const raiser = withFacts(
      symbol(
        "copy_current_request_context",
        "src/flask/ctx.py",
        'def copy_current_request_context(f):\n    if ctx is None:\n        raise RuntimeError("needs a request")',
        146,
      ),
      { raises: ["RuntimeError"], errorStrings: ["needs a request"] },
    );
    const constant: ContextItem = {
      ...symbol("globals", "src/flask/globals.py", "", 1),
      kind: "file",
      facts: null,
      text: '_no_app_msg = """\\\nWorking outside of application context.\n\nThis typically means that you attempted to use functionality that needed\n"""',
      startLine: 20,
      endLine: 24,
    };
    const test: ContextItem = {
      ...constant,
      key: "tests/test_appctx.py:1-3",
      path: "tests/test_appctx.py",
      text: 'def test_no_app():\n    assert "Working outside of application context" in str(err)',
    };
    const context = [raiser, test, constant];
    const given = ask(
      "RuntimeError: Working outside of application context. I get this in a thread. Why?",
      context,
      {
        exceptionTypes: ["RuntimeError"],
        messages: ["Working outside of application context. I get this in a thread. Why?"],
      },
    );
    expect(openingFor(given, context, byName(context))).toBe(
      'The message "Working outside of application context." is written in src/flask/globals.py:21-21.',
    );
  });

  it("names where the detail a message template wraps is written (PHP)", () => {
    const parse = withFacts(
      symbol(
        "Dotenv.Parser.Parser.parse",
        "src/Parser/Parser.php",
        "public function parse(string $content)\n{\n    return $result->mapError(static function (string $error) {\n        throw new InvalidFileException(\\sprintf('Failed to parse dotenv file. %s', $error));\n    });\n}",
        14,
      ),
      { raises: ["InvalidFileException"], errorStrings: ["Failed to parse dotenv file. %s"] },
    );
    const token = symbol(
      "Dotenv.Parser.EntryParser.processToken",
      "src/Parser/EntryParser.php",
      "private static function processToken(int $state, string $token)\n{\n    if ($token === ' ') {\n        return Error::create(\\sprintf('Encountered unexpected whitespace at [%s].', $value));\n    }\n}",
      120,
    );
    const context = [parse, token];
    const given = ask(
      "InvalidFileException: Failed to parse dotenv file. Encountered unexpected whitespace at [My Shop Name].",
      context,
      {
        exceptionTypes: ["InvalidFileException"],
        messages: ["Failed to parse dotenv file. Encountered unexpected whitespace at [My Shop Name]."],
      },
    );
    const text = openingFor(given, context, byName(context));
    expect(text).toMatch(
      /^`InvalidFileException\("Failed to parse dotenv file\. %s"\)` is raised by `Dotenv\.Parser\.Parser\.parse`/,
    );
    expect(text).toContain(
      "The detail it carries \"Encountered unexpected whitespace at [%s].\" is written in `Dotenv.Parser.EntryParser.processToken` (src/Parser/EntryParser.php:120-125) when `$token === ' '`.",
    );
  });

  it("follows a detail that is a template itself to where its value is written (PHP)", () => {
    const parse = withFacts(
      symbol(
        "Dotenv.Parser.Parser.parse",
        "src/Parser/Parser.php",
        "public function parse(string $content)\n{\n    return $result->mapError(static function (string $error) {\n        throw new InvalidFileException(\\sprintf('Failed to parse dotenv file. %s', $error));\n    });\n}",
        14,
      ),
      { raises: ["InvalidFileException"], errorStrings: ["Failed to parse dotenv file. %s"] },
    );
    const message = symbol(
      "Dotenv.Parser.EntryParser.getErrorMessage",
      "src/Parser/EntryParser.php",
      "private static function getErrorMessage(string $cause, string $subject)\n{\n    return \\sprintf(\n        'Encountered %s while reading the value at [%s].',\n        $cause,\n        \\strtok($subject, \"\\n\")\n    );\n}",
      293,
    );
    const token = symbol(
      "Dotenv.Parser.EntryParser.processToken",
      "src/Parser/EntryParser.php",
      "private static function processToken(int $state, string $token)\n{\n    if ($token === ' ') {\n        return Error::create('unexpected whitespace');\n    }\n}",
      193,
    );
    const context = [parse, message, token];
    const given = ask(
      "InvalidFileException: Failed to parse dotenv file. Encountered unexpected whitespace while reading the value at [My Shop Name].",
      context,
      {
        exceptionTypes: ["InvalidFileException"],
        messages: [
          "Failed to parse dotenv file. Encountered unexpected whitespace while reading the value at [My Shop Name].",
        ],
      },
    );
    const text = openingFor(given, context, byName(context));
    expect(text).toContain(
      'The detail it carries "Encountered %s while reading the value at [%s]." is written in `Dotenv.Parser.EntryParser.getErrorMessage` (src/Parser/EntryParser.php:293-300)',
    );
    expect(text).toContain(
      "Inside it, \"unexpected whitespace\" is written in `Dotenv.Parser.EntryParser.processToken` (src/Parser/EntryParser.php:193-198) when `$token === ' '`.",
    );
  });

  it("finds the detail in a long function cut short in context through the messages the index read", () => {
    const parse = withFacts(
      symbol(
        "Dotenv.Parser.Parser.parse",
        "src/Parser/Parser.php",
        "public function parse(string $content)\n{\n    return $result->mapError(static function (string $error) {\n        throw new InvalidFileException(\\sprintf('Failed to parse dotenv file. %s', $error));\n    });\n}",
        14,
      ),
      { raises: ["InvalidFileException"], errorStrings: ["Failed to parse dotenv file. %s"] },
    );
    const cut = symbol(
      "Dotenv.Parser.EntryParser.processToken",
      "src/Parser/EntryParser.php",
      "private static function processToken(int $state, string $token)\n{\n    switch ($state) {\n        // … truncated (80 more lines)",
      185,
    );
    const token = withFacts(
      { ...cut, truncated: true },
      { raises: [], errorStrings: ["an unexpected escape sequence", "unexpected whitespace"] },
    );
    const context = [parse, token];
    const given = ask(
      "InvalidFileException: Failed to parse dotenv file. Encountered unexpected whitespace at [My Shop Name].",
      context,
      {
        exceptionTypes: ["InvalidFileException"],
        messages: ["Failed to parse dotenv file. Encountered unexpected whitespace at [My Shop Name]."],
      },
    );
    expect(openingFor(given, context, byName(context))).toContain(
      'The detail it carries "unexpected whitespace" is written in `Dotenv.Parser.EntryParser.processToken` (src/Parser/EntryParser.php:185-188).',
    );
  });

  it("leaves a setter and a declaration behind the code that decides a symptom", () => {
    const strict = symbol(
      "Router.StrictSlash",
      "mux.go",
      "func (r *Router) StrictSlash(value bool) *Router {\n\t// When true, redirect /path/ to /path\n\tr.strictSlash = value\n\treturn r\n}",
      240,
    );
    const options = {
      ...symbol("RetryOptions", "types.ts", "export type RetryOptions = {\n  limit?: number;\n};", 5),
    };
    options.facts = { ...(options.facts as NonNullable<ContextItem["facts"]>), kind: "type" };
    const serve = symbol(
      "Router.ServeHTTP",
      "mux.go",
      "func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {\n\tif !r.skipClean {\n\t\tif p := cleanPath(path); p != path {\n\t\t\tw.WriteHeader(http.StatusMovedPermanently)\n\t\t}\n\t}\n}",
      180,
    );
    const context = [strict, options, serve];
    const given = input(
      "A request with a double slash gets a 301 redirect instead of reaching my handler. Where does the redirect come from?",
      "diagnostic",
      context,
    );
    expect(openingFor(given, context, byName(context))).toMatch(
      /^The behaviour comes from `Router\.ServeHTTP` \(mux\.go:180-186\)/,
    );
  });

  it.each([
    [
      "Go",
      "func (r *Router) Use(mwf ...MiddlewareFunc) {\n\tr.middlewares = append(r.middlewares, mwf...)\n}",
      true,
    ],
    ["JavaScript", "setLimit(n) {\n  this.limit = n;\n  return this;\n}", true],
    ["Ruby", "def base_uri=(uri)\n  @base_uri = uri\nend", true],
    ["PHP", "public function setName($name)\n{\n    $this->name = $name;\n    return $this;\n}", true],
    ["a condition", "setLimit(n) {\n  if (n > 0) this.limit = n;\n  return this;\n}", false],
  ])("a %s body that only stores what it is given: %s", (_language, text, expected) => {
    expect(storesOnly(symbol("f", "a", text, 1))).toBe(expected);
  });
});

describe("a diagnostic answer's body", () => {
  it("leaves out tests calling the site and documentation that does not speak of the error", async () => {
    const site = symbol(
      "Session.open",
      "pkg/session.py",
      'def open(self):\n    if not self.secret:\n        raise RuntimeError("no secret key was set")',
      10,
    );
    site.facts = {
      ...(site.facts as NonNullable<ContextItem["facts"]>),
      raises: ["RuntimeError"],
      errorStrings: ["no secret key was set"],
    };
    const testSymbol = symbol("test_open", "tests/test_session.py", "def test_open():\n    s.open()", 5);
    const doc = (path: string, text: string): ContextItem => ({
      ...symbol(path, path, text, 1),
      kind: "doc",
      facts: null,
      title: path,
    });
    const onError = doc("docs/config.md", "Without a secret key set, opening a session raises RuntimeError.");
    const offTopic = doc("docs/quickstart.md", "A session keeps values between requests with a secret key.");
    const given = input('RuntimeError: "no secret key was set" when a session is opened', "diagnostic", [
      site,
      testSymbol,
      onError,
      offTopic,
    ]);
    given.anchors = {
      ...given.anchors,
      exceptionTypes: ["RuntimeError"],
      messages: ["no secret key was set"],
    };
    const caller = (object: string, path: string) => ({
      subject: "Session.open",
      relation: "called_by" as const,
      object,
      objectPath: path,
      objectLines: [1, 9] as [number, number],
      inContext: false,
      confidence: 1,
    });
    given.graph = {
      triples: [
        caller("test_open", "tests/test_session.py"),
        // A test written inside the source file: its path says nothing, its name does.
        caller("tests.opens_without_key", "pkg/session.py"),
        caller("App.handle", "pkg/app.py"),
      ],
    };
    const { answer } = await new EvidenceEngine().answer(given, () => {});
    expect(answer).toContain("`App.handle` (pkg/app.py:1-9) → `Session.open`");
    expect(answer).not.toContain("tests/test_session.py");
    expect(answer).not.toContain("tests.opens_without_key");
    expect(answer).toContain("docs/config.md");
    expect(answer).not.toContain("docs/quickstart.md");
  });
});

describe("a stored-only body read with its doc comment", () => {
  it.each([
    [
      "Go",
      "// StrictSlash defines the trailing slash behavior for new routes.\nfunc (r *Router) StrictSlash(value bool) *Router {\n\tr.strictSlash = value\n\treturn r\n}",
      true,
    ],
    [
      "Java",
      "/** Sets the name. */\npublic Builder name(String name) {\n  this.name = name;\n  return this;\n}",
      true,
    ],
    [
      "Go, storing each of its arguments",
      "// Use appends a MiddlewareFunc to the chain.\nfunc (r *Router) Use(mwf ...MiddlewareFunc) {\n\tfor _, fn := range mwf {\n\t\tr.middlewares = append(r.middlewares, fn)\n\t}\n}",
      true,
    ],
    [
      "Go, with a condition",
      "// Use adds middleware.\nfunc (r *Router) Use(mwf MiddlewareFunc) {\n\tif mwf != nil {\n\t\tr.middlewares = append(r.middlewares, mwf)\n\t}\n}",
      false,
    ],
  ])("%s", (_language, text, expected) => {
    expect(storesOnly(symbol("f", "a", text, 1))).toBe(expected);
  });
});

describe("a message the named error type builds for itself", () => {
  it("leaves the raise site of that type leading (TypeScript)", () => {
    const own = symbol(
      "TimeoutError.constructor",
      "source/errors/TimeoutError.ts",
      "constructor(request: Request) {\n  super(`Request timed out: ${request.method} ${request.url}`);\n}",
      11,
    );
    const site = symbol(
      "timeout",
      "source/utils/timeout.ts",
      "export async function timeout(request, options) {\n  if (elapsed > options.timeout) {\n    reject(new TimeoutError(request));\n  }\n}",
      8,
    );
    site.facts = { ...(site.facts as NonNullable<ContextItem["facts"]>), raises: ["TimeoutError"] };
    const given = input(
      "TimeoutError: Request timed out: POST https://api.example.com/v1/exports",
      "diagnostic",
      [site, own],
    );
    given.anchors = {
      ...given.anchors,
      exceptionTypes: ["TimeoutError"],
      messages: ["Request timed out: POST https://api.example.com/v1/exports"],
    };
    expect(openingFor(given, [site, own], new Map())).toMatch(/^`TimeoutError\(…\)` is raised by `timeout`/);
  });
});

describe("the condition of a raise whose message is held in a constant", () => {
  const quoted = (site: ContextItem, raised: string, message: string, question: string) => {
    site.facts = {
      ...(site.facts as NonNullable<ContextItem["facts"]>),
      raises: [raised],
      errorStrings: [message],
    };
    const given = input(question, "diagnostic", [site]);
    given.anchors = { ...given.anchors, exceptionTypes: [raised], messages: [message] };
    return openingFor(given, [site], new Map());
  };

  it("reads the guard written after the raise (Ruby `unless`)", () => {
    const site = symbol(
      "RackBuilder.ensure_adapter!",
      "lib/faraday/rack_builder.rb",
      "def ensure_adapter!\n  raise MISSING_ADAPTER_ERROR unless @adapter\nend",
      229,
    );
    const message = "An attempt to run a request without adapter has been made.";
    expect(
      quoted(site, "RuntimeError", message, `RuntimeError: ${message} Where does this come from?`),
    ).toMatch(
      /is raised by `RackBuilder\.ensure_adapter!` \(lib\/faraday\/rack_builder\.rb:229-231\) unless `@adapter`/,
    );
  });

  it("reads which branch of a raised conditional is the error (Ruby ternary)", () => {
    const site = symbol(
      "HTTParty.Request.perform",
      "lib/httparty/request.rb",
      'def perform(&block)\n  send_request\nrescue *COMMON_NETWORK_ERRORS => e\n  raise options[:foul] ? HTTParty::NetworkError.new("#{e.class}: #{e.message}") : e\nend',
      152,
    );
    const question =
      "A timeout shows up as HTTParty::NetworkError: Net::OpenTimeout in one service only. Why?";
    const given = input(question, "diagnostic", [site]);
    site.facts = { ...(site.facts as NonNullable<ContextItem["facts"]>), raises: ["NetworkError"] };
    given.anchors = { ...given.anchors, exceptionTypes: ["NetworkError"] };
    expect(openingFor(given, [site], new Map())).toMatch(
      /is raised by `HTTParty\.Request\.perform` \(lib\/httparty\/request\.rb:152-156\) when `options\[:foul\]`/,
    );
  });

  it("reads the condition around the one raise line (Java `if`)", () => {
    const site = symbol(
      "NameAllocator.newName",
      "src/NameAllocator.java",
      "String newName(String suggestion, Object tag) {\n  if (tagToName.containsKey(tag)) {\n    throw new IllegalArgumentException(CLASH);\n  }\n  return suggestion;\n}",
      100,
    );
    const message = "tag cannot be used for both names";
    expect(
      quoted(site, "IllegalArgumentException", message, `java.lang.IllegalArgumentException: ${message}`),
    ).toMatch(
      /is raised by `NameAllocator\.newName` \(src\/NameAllocator\.java:100-105\) when `tagToName\.containsKey\(tag\)`/,
    );
  });
});

describe("a message a log call writes beside a raise", () => {
  it("is reported by the site, not raised with the site's type or under the raise's condition", () => {
    const site = symbol(
      "Pool._put_conn",
      "src/pool.py",
      [
        "def _put_conn(self, conn):",
        "    try:",
        "        self.pool.put(conn, block=False)",
        "        return",
        "    except queue.Full:",
        "        if self.block:",
        "            raise FullPoolError(",
        '                self, "Pool reached maximum size and no more connections are allowed."',
        "            ) from None",
        "        log.warning(",
        '            "Connection pool is full, discarding connection: %s. Pool size: %s",',
        "            self.host,",
        "            self.pool.qsize(),",
        "        )",
      ].join("\n"),
      40,
    );
    const message = "Connection pool is full, discarding connection: %s. Pool size: %s";
    site.facts = {
      ...(site.facts as NonNullable<ContextItem["facts"]>),
      raises: ["FullPoolError"],
      errorStrings: ["Pool reached maximum size and no more connections are allowed.", message],
    };
    const question = "WARNING pool: Connection pool is full, discarding connection: db. Pool size: 10";
    const given = input(question, "diagnostic", [site]);
    given.anchors = {
      ...given.anchors,
      messages: ["Connection pool is full, discarding connection: db. Pool size: 10"],
    };
    const opening = openingFor(given, [site], new Map());
    expect(opening).toMatch(
      /^The message "Connection pool is full, discarding connection: %s\. Pool size: %s" is reported by `Pool\._put_conn`/,
    );
    expect(opening).not.toContain("FullPoolError");
    expect(opening).not.toContain("self.block");
  });

  it("keeps the type of a raise whose message is written in its own call", () => {
    const text =
      'raise FullPoolError(\n    self, "Pool reached maximum size and no more connections are allowed."\n)';
    expect(loggedHere(text, "Pool reached maximum size and no more connections are allowed.")).toBe(false);
    expect(
      loggedHere('logger.error("Pool reached maximum size %s", n)', "Pool reached maximum size %s"),
    ).toBe(true);
    expect(loggedHere('fmt.Errorf("pool reached maximum size %d", n)', "pool reached maximum size %d")).toBe(
      false,
    );
  });
});

describe("a conceptual opening's choice among the top five", () => {
  it.each([
    [
      "C#",
      "src/Validators/Extensions.cs",
      "Extensions.EmailAddress",
      "public static IRuleBuilderOptions<T, string> EmailAddress<T>(this IRuleBuilder<T, string> ruleBuilder) {\n  var validator = new EmailValidator<T>(mode);\n  return ruleBuilder.SetValidator(validator);\n}",
      "src/Internal/RuleBase.cs",
      "RuleBase.ApplyCondition",
      "public void ApplyCondition(Func<T, bool> predicate, ApplyConditionTo applyConditionTo) {\n  if (applyConditionTo == ApplyConditionTo.AllValidators) {\n    foreach (var validator in Components) validator.ApplyCondition(predicate);\n  } else {\n    Current.ApplyCondition(predicate);\n  }\n}",
    ],
    [
      "PHP",
      "src/Dotenv.php",
      "Dotenv.createImmutable",
      "public static function createImmutable($paths, $names = null)\n{\n    $repository = RepositoryBuilder::createWithDefaultAdapters()->immutable()->make();\n    return self::create($repository, $paths, $names);\n}",
      "src/Adapter/ImmutableWriter.php",
      "ImmutableWriter.write",
      "public function write(string $name, string $value)\n{\n    if ($this->isExternallyDefined($name)) {\n        return false;\n    }\n    return $this->writer->write($name, $value);\n}",
    ],
  ])(
    "passes over the %s entry the question calls, which hands the work on, for the function that decides",
    (_language, entryPath, entryName, entryText, decidingPath, decidingName, decidingText) => {
      const entry = symbol(entryName, entryPath, entryText, 10);
      const deciding = symbol(decidingName, decidingPath, decidingText, 40);
      const context = [entry, deciding];
      const text = openingOver(
        "If I write EmailAddress() or call createImmutable, when does the condition apply and which variables does the writer refuse to write?",
        "conceptual",
        context,
      );
      expect(text.startsWith(`\`${decidingName}\``)).toBe(true);
    },
  );

  it("leads with the function that decides over a guarded registration, and names as related a runner-up that speaks of the question", () => {
    const chain = symbol(
      "chain",
      "chain.go",
      "func chain(middlewares []func(http.Handler) http.Handler, endpoint http.Handler) http.Handler {\n\tif len(middlewares) == 0 {\n\t\treturn endpoint\n\t}\n\th := middlewares[len(middlewares)-1](endpoint)\n\tfor i := len(middlewares) - 2; i >= 0; i-- {\n\t\th = middlewares[i](h)\n\t}\n\treturn h\n}",
      30,
    );
    const use = symbol(
      "Mux.Use",
      "mux.go",
      'func (mx *Mux) Use(middlewares ...func(http.Handler) http.Handler) {\n\tif mx.handler != nil {\n\t\tpanic("all middlewares must be defined before routes")\n\t}\n\tmx.middlewares = append(mx.middlewares, middlewares...)\n}',
      94,
    );
    const pretty = symbol(
      "banner.decorateLine",
      "middleware/recoverer.go",
      'func (s prettyStack) decorateLine(line string) (string, error) {\n\tif strings.HasPrefix(line, "\\t") {\n\t\treturn s.decorateSourceLine(line)\n\t}\n\treturn line, nil\n}',
      132,
    );
    const context = [use, pretty, chain];
    const text = openingOver(
      "If I call r.Use(A) then r.Use(B), which one sees the request first, and where is the order of the middleware stack decided?",
      "conceptual",
      context,
    );
    // Use only checks, then stores what it is given: the order is decided in chain.
    expect(text).toMatch(/^The order of the middleware stack is decided in `chain` \(chain\.go:/);
    // decorateLine decides something too, but of nothing the question asks about.
    expect(text).toMatch(/Related: `Mux\.Use` \(mux\.go:94-99\)/);
    expect(text).not.toContain("banner.decorateLine");
  });

  it("names beside the runner-up a third definition that speaks of the question and decides something", () => {
    const next = symbol(
      "IntoIter.next",
      "src/lib.rs",
      "fn next(&mut self) -> Option<Result<DirEntry>> {\n    if self.opts.same_file_system {\n        self.root_device = Some(itry!(device_num(&self.start)));\n    }\n    self.handle_entry(dent)\n}",
      680,
    );
    const handle = symbol(
      "IntoIter.handle_entry",
      "src/lib.rs",
      "fn handle_entry(&mut self, mut dent: DirEntry) -> Option<Result<DirEntry>> {\n    let should_descend = dent.is_dir() && !self.skippable();\n    if should_descend && self.opts.same_file_system {\n        if itry!(self.is_same_file_system(&dent)) {\n            itry!(self.push(&dent));\n        }\n    }\n    Some(Ok(dent))\n}",
      840,
    );
    const predicate = symbol(
      "IntoIter.is_same_file_system",
      "src/lib.rs",
      "fn is_same_file_system(&mut self, dent: &DirEntry) -> Result<bool> {\n    let dent_device = device_num(dent.path())?;\n    Ok(self.root_device.map(|d| d == dent_device).unwrap_or(false))\n}",
      991,
    );
    const stack = symbol(
      "IntoIter.pop",
      "src/lib.rs",
      'fn pop(&mut self) {\n    self.stack_list.pop().expect("BUG: cannot pop from empty stack");\n    if self.opts.follow_links {\n        self.stack_path.pop();\n    }\n}',
      950,
    );
    const context = [next, handle, stack, predicate];
    const text = openingOver(
      "With same_file_system(true), how does the walker decide not to go into a directory that is a mount point of another disk?",
      "conceptual",
      context,
    );
    expect(text).toMatch(
      /Related: `IntoIter\.\w+` \(src\/lib\.rs:\d+-\d+\), `IntoIter\.\w+` \(src\/lib\.rs:\d+-\d+\)\.$/,
    );
    expect(text).toContain("`IntoIter.is_same_file_system` (src/lib.rs:991-");
    // pop decides something, but of nothing the question asks about.
    expect(text).not.toContain("IntoIter.pop");
  });

  it("names no third definition when none beyond the runner-up speaks of the question", () => {
    const decide = symbol(
      "Retry.get_backoff_time",
      "src/urllib3/util/retry.py",
      "def get_backoff_time(self) -> float:\n    consecutive_errors_len = len(self.history)\n    if consecutive_errors_len <= 1:\n        return 0\n    backoff_value = self.backoff_factor * (2 ** (consecutive_errors_len - 1))\n    return float(max(0, min(self.backoff_max, backoff_value)))",
      250,
    );
    const sleep = symbol(
      "Retry.sleep",
      "src/urllib3/util/retry.py",
      "def sleep(self, response=None):\n    if self.respect_retry_after_header and response:\n        slept = self.sleep_for_retry(response)\n        if slept:\n            return\n    self._sleep_backoff()",
      300,
    );
    const parse = symbol(
      "parse_url",
      "src/urllib3/util/url.py",
      "def parse_url(url):\n    if not url:\n        return Url()\n    source_url = url\n    if not _SCHEME_RE.search(url):\n        url = '//' + url",
      370,
    );
    const context = [decide, sleep, parse];
    const text = openingOver(
      "How long does urllib3 wait between retry attempts, and how is the backoff computed?",
      "conceptual",
      context,
    );
    expect(text).toContain("`Retry.get_backoff_time`");
    expect(text).toMatch(/Related: `Retry\.sleep` \([^)]*\)\.$/);
    expect(text).not.toContain("parse_url");
  });

  it("keeps a predicate on the setting the question writes as code", () => {
    const predicate = symbol(
      "IntoIter.is_same_file_system",
      "src/lib.rs",
      "fn is_same_file_system(&mut self, dent: &DirEntry) -> Result<bool> {\n    let dent_device = device_num(dent.path())?;\n    Ok(self.root_device.map(|d| d == dent_device).unwrap_or(false))\n}",
      1000,
    );
    const other = symbol(
      "IntoIter.push",
      "src/lib.rs",
      "fn push(&mut self, dent: &DirEntry) -> Result<()> {\n    if self.stack_list.len() - self.oldest_opened == self.opts.max_open {\n        self.stack_list[self.oldest_opened].close();\n    }\n}",
      900,
    );
    const context = [predicate, other];
    const text = openingOver(
      "With same_file_system(true), how does the walker decide not to go into a directory that is a mount point of another disk?",
      "conceptual",
      context,
    );
    expect(text).toMatch(/is decided in `IntoIter\.is_same_file_system`/);
  });
});

describe("deciding lines that answer nothing asked", () => {
  const terms = new Set(["compress", "deflat", "gzip"].map((t) => stem(t)));

  it.each([
    [
      "Go",
      "func encoderDeflate(w io.Writer, level int) io.Writer {\n\tdw, err := flate.NewWriter(w, level)\n\tif err != nil {\n\t\treturn nil\n\t}\n\treturn dw\n}",
    ],
    [
      "JavaScript",
      "function deflater(stream, level) {\n  const [dw, err] = open(stream, level);\n  if (err) {\n    return null;\n  }\n  return dw;\n}",
    ],
  ])(
    "leave a %s test of whether a call failed, and a bare hand-back, out of a conceptual answer",
    (_language, text) => {
      expect(decidingLines(text, terms)).toEqual([]);
      expect(decidingLines(text, terms, true).map((l) => l.text)).toContainEqual(
        expect.stringMatching(/^if \(?err\)?/),
      );
    },
  );
});

describe("a conceptual opening's related definition", () => {
  it("is never the lead's own method on another class", () => {
    const method = (owner: string, name: string, body: string, start: number) =>
      symbol(`${owner}.${name}`, "src/properties.ts", `${name}(data: Series): Scale {\n${body}\n}`, start);
    const color = method(
      "Color",
      "inferScale",
      "  if (isCategorical(data)) return new Nominal(data);\n  return new Continuous();",
      10,
    );
    const interval = method(
      "Interval",
      "inferScale",
      "  if (isCategorical(data)) return new Nominal(data);\n  return new Continuous();",
      30,
    );
    const property = method(
      "Property",
      "defaultScale",
      "  if (isNumeric(data)) return new Continuous();\n  return new Nominal();",
      50,
    );
    const context = [color, interval, property];
    const text = openingOver(
      "How is it decided whether a variable gets a nominal or a continuous scale?",
      "conceptual",
      context,
    );
    expect(text).toMatch(/is decided in `Color\.inferScale`/);
    expect(text).toContain("Related: `Property.defaultScale`");
  });
});

describe("a conceptual opening over doc comments written without `*`", () => {
  it("passes over a TypeScript getter and never quotes its signature", () => {
    const getter = symbol(
      "Options.followRedirect",
      "source/core/options.ts",
      [
        "/**",
        "Whether redirect responses should be followed automatically.",
        "",
        "Optionally, pass a function to decide based on the response object.",
        "@default true",
        "*/",
        "get followRedirect(): boolean | ((response: PlainResponse) => boolean) {",
        "  return this.#internals.followRedirect;",
        "}",
      ].join("\n"),
      2243,
    );
    const deciding = symbol(
      "isResponseOk",
      "source/core/response.ts",
      "export const isResponseOk = (response: PlainResponse): boolean => {\n  const {statusCode} = response;\n  const {followRedirect} = response.request.options;\n  const shouldFollow = typeof followRedirect === 'function' ? followRedirect(response) : followRedirect;\n  const limitStatusCode = shouldFollow ? 299 : 399;\n  return (statusCode >= 200 && statusCode <= limitStatusCode) || statusCode === 304;\n};",
      40,
    );
    const context = [getter, deciding];
    const text = openingOver(
      "Which status codes are accepted as a successful response when followRedirect is false? What decides that?",
      "conceptual",
      context,
    );
    expect(text).toMatch(/^`isResponseOk` \(source\/core\/response\.ts:40-46\)/);
    expect(text).not.toContain("get followRedirect()");
  });
});
