import { describe, expect, it } from "vitest";
import { extractAnchors } from "../search/anchors.ts";
import { decidingWeight, focusQuery, matchedWindow, scoreSpans } from "./focus.ts";

// A job runner in the shape of real retry code: the wait is computed in one function,
// the rest of the file schedules and logs.
const RETRY = `class RetryJob:
    def __init__(self, job, max_retries=25):
        self.job = job
        self.max_retries = max_retries

    def run(self):
        try:
            self.job.perform()
        except Exception as error:
            self.handle_failure(error)

    def handle_failure(self, error):
        count = self.job.retry_count + 1
        if count > self.max_retries:
            log.error("job %s exhausted its retries", self.job.id)
            return
        self.job.schedule(delay=self.delay_for(count))

    def delay_for(self, count):
        # exponential backoff with jitter: how long to wait before the next attempt
        return (count ** 4) + 15 + (random.random() * 10 * (count + 1))

    def describe(self):
        return f"RetryJob({self.job.id})"
`.split("\n");

function spansOf(lines: string[]) {
  const starts = lines.flatMap((l, i) => (/^\s+def (\w+)/.test(l) ? [i + 1] : []));
  return starts.map((start, i) => ({
    startLine: start,
    endLine: (starts[i + 1] ?? lines.length + 1) - 1,
    name: /def (\w+)/.exec(lines[start - 1] ?? "")?.[1] ?? "",
  }));
}

function rank(question: string, lines: string[]): string[] {
  const query = focusQuery(question, extractAnchors(question));
  return scoreSpans(
    spansOf(lines).map((span) => ({ span, lines })),
    query,
  ).map((s) => s.span.name);
}

describe("scoreSpans", () => {
  it("ranks the function that computes what is asked above its callers", () => {
    const ranked = rank("How long does a failed job wait before it is retried (the backoff delay)?", RETRY);
    expect(ranked[0]).toBe("delay_for");
  });

  it("ranks the raise or log site of a quoted message first", () => {
    const ranked = rank('My worker logs "exhausted its retries" after a few failures, why?', RETRY);
    expect(ranked[0]).toBe("handle_failure");
  });

  it("ranks a symbol the question names by name", () => {
    const ranked = rank("What does `describe` return for a job?", RETRY);
    expect(ranked[0]).toBe("describe");
  });

  it("gives nothing a score when the question shares no word with the code", () => {
    const query = focusQuery("compile the stylesheet", extractAnchors("compile the stylesheet"));
    const scored = scoreSpans(
      spansOf(RETRY).map((span) => ({ span, lines: RETRY })),
      query,
    );
    expect(scored.every((s) => s.score === 0)).toBe(true);
  });

  it("finds a message whose values the code fills in from its literal pieces", () => {
    const lines = [
      "def __repr__(self):",
      '    return "{}, grouped over {!r}\\n{!r} groups with labels {}.".format(',
      "        type(self).__name__, self._unique_coord.name, self._unique_coord.size, labels)",
      "",
      "def map(self, func):",
      "    # apply func to each group of the dataset",
      "    return self._combine(func(group) for group in self._iter_grouped())",
    ];
    const spans = [
      { startLine: 1, endLine: 3, name: "__repr__" },
      { startLine: 5, endLine: 7, name: "map" },
    ];
    const question = `Trailing whitespace in the text of a group:\n"DatasetGroupBy, grouped over 'letters' "`;
    const scored = scoreSpans(
      spans.map((span) => ({ span, lines })),
      focusQuery(question, extractAnchors(question)),
    );
    expect(scored[0]?.span.name).toBe("__repr__");
    expect(scored[0]?.matched).toContain(2);
  });
});

/** Lines that do work unrelated to any question below (a long function's other steps). */
function busyWork(count: number, indent: string, statement: (i: number) => string): string[] {
  return Array.from({ length: count }, (_, i) => indent + statement(i));
}

/** A file of named functions, each given as its lines, and their spans. */
function fileOf(functions: [string, string[]][]) {
  const lines: string[] = [];
  const spans = functions.map(([name, body]) => {
    const startLine = lines.length + 1;
    lines.push(...body, "");
    return { startLine, endLine: startLine + body.length - 1, name };
  });
  return { lines, spans };
}

function rankFile(question: string, file: ReturnType<typeof fileOf>): string[] {
  return scoreSpans(
    file.spans.map((span) => ({ span, lines: file.lines })),
    focusQuery(question, extractAnchors(question)),
  ).map((s) => s.span.name);
}

// A connection pool's driver: one block of a long function decides what is asked; the
// rest of it opens, retries and releases. Short helpers share a word of the question.
const SEE_OTHER = [
  "        target = response.get_redirect_location()",
  "        if response.status == 303 and verb != 'HEAD':",
  "            # a See Other answer to a POST is fetched with GET and no payload",
  "            verb, payload = 'GET', None",
];
const POOL_HELPERS: [string, string[]][] = [
  [
    "redirect_location",
    ["    def redirect_location(self, response):", "        return response.headers.get('location')"],
  ],
  [
    "post_form",
    ["    def post_form(self, url, fields):", "        return self.urlopen('POST', url, encode(fields))"],
  ],
  ["close", ["    def close(self):", "        self.slots.clear()"]],
  ["__enter__", ["    def __enter__(self):", "        return self"]],
];
const URLOPEN: [string, string[]] = [
  "urlopen",
  [
    "    def urlopen(self, verb, url, payload=None, **kw):",
    ...busyWork(60, "        ", (i) => `slot_${i} = self.slots.acquire(url, attempt=${i})`),
    ...SEE_OTHER,
    ...busyWork(80, "        ", (i) => `self.slots.release(slot_${i}, keep=${i % 2})`),
    "        return self.urlopen(verb, target, payload, **kw)",
  ],
];
const SEE_OTHER_QUESTION =
  "Why does a POST become a GET after a 303 See Other redirect, and what happens to its payload?";

// A router's ServeHTTP: the trailing-slash redirect is one branch among many steps.
const ROUTER = fileOf([
  [
    "ServeHTTP",
    [
      "func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {",
      ...busyWork(100, "\t", (i) => `ctx${i} := r.pool.Get(req.Context(), ${i})`),
      '\tif r.strictSlash && !strings.HasSuffix(req.URL.Path, "/") {',
      "\t\t// a route registered with a trailing slash redirects the path without one",
      '\t\thttp.Redirect(w, req, req.URL.Path+"/", http.StatusMovedPermanently)',
      "\t\treturn",
      "\t}",
      ...busyWork(100, "\t", (i) => `r.pool.Put(ctx${i})`),
      "}",
    ],
  ],
  [
    "cleanPath",
    [
      "// cleanPath returns the canonical path of p, keeping its trailing slash.",
      "func cleanPath(p string) string {",
      "\treturn path.Clean(p)",
      "}",
    ],
  ],
  ["Redirect", ["func (r *Route) Redirect() bool {", "\treturn r.redirect", "}"]],
  [
    "StrictSlash",
    ["func (r *Router) StrictSlash(value bool) *Router {", "\tr.strictSlash = value", "\treturn r", "}"],
  ],
  ["Handler", ["func (r *Route) Handler() http.Handler {", "\treturn r.handler", "}"]],
]);

describe("scoreSpans on long functions", () => {
  it("ranks a long function by the block that answers, above short functions sharing a word", () => {
    expect(rankFile(SEE_OTHER_QUESTION, fileOf([URLOPEN, ...POOL_HELPERS]))[0]).toBe("urlopen");
  });

  it("ranks a long Go handler by its redirect branch, above short functions sharing some of its words", () => {
    const slash =
      "Why does a path without its trailing slash get a permanent redirect to the one with the slash?";
    expect(rankFile(slash, ROUTER)[0]).toBe("ServeHTTP");
  });

  it("keeps a short function that matches throughout above a long one holding the same words", () => {
    const seeOther: [string, string[]] = [
      "see_other",
      ["    def see_other(self, response, verb, payload):", ...SEE_OTHER],
    ];
    expect(rankFile(SEE_OTHER_QUESTION, fileOf([URLOPEN, seeOther, ...POOL_HELPERS]))[0]).toBe("see_other");
  });
});

describe("matchedWindow", () => {
  it("is the densest run of matching lines of a file without symbols, not its first line", () => {
    const config = [
      "# frozen_string_literal: true",
      "",
      "defaults:",
      "  concurrency: 10",
      "  queues: [default]",
      "",
      "retry:",
      "  max_attempts: 25",
      "  backoff: exponential",
      "  wait_seconds: 15",
      "",
      "logging:",
      "  level: info",
    ];
    const question = "How many attempts before a failed job stops being retried, and how long is the wait?";
    const window = matchedWindow(config, focusQuery(question, extractAnchors(question)));
    expect(window).not.toBeNull();
    expect(window?.startLine).toBeGreaterThanOrEqual(6);
    expect(window?.endLine).toBeLessThanOrEqual(12);
  });

  it("is null when no line matches", () => {
    const q = "render the sidebar";
    expect(matchedWindow(["a: 1", "b: 2"], focusQuery(q, extractAnchors(q)))).toBeNull();
  });
});

describe("decidingWeight", () => {
  const question = "How does the shedder decide to drop a request while the cpu is hot?";
  const query = focusQuery(question, extractAnchors(question));
  // A Go method: its signature and comment name the words, its conditions decide.
  const go = [
    "// stillHot reports whether the shedder dropped a request recently (cpu hot).",
    "func (as *shedder) stillHot(cpu int64) bool {",
    "\tif !as.droppedRecently.True() {",
    "\t\treturn false",
    "\t}",
    "\thot := time.Since(as.dropTime) < coolOff",
    "\t// the cpu is not read here",
    "\treturn hot",
    "}",
  ];

  it("weighs the question's words on condition and formula lines of the body, each once", () => {
    const body = decidingWeight(go, 3, go.length, query);
    expect(body).toBeGreaterThan(0);
    // The signature and the doc comment count only when read as body.
    expect(decidingWeight(go, 1, go.length, query)).toBeGreaterThan(body);
  });

  it("leaves out comments and lines that only call or assign", () => {
    const plain = ["fn run() {", "    // if the cpu is hot, drop", "    let request = next();", "}"];
    expect(decidingWeight(plain, 2, plain.length, query)).toBe(0);
  });
});
