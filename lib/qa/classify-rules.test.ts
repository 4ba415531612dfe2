import { describe, expect, it } from "vitest";

import { QUERY_MODE_LIST } from "../answerers/contract";
import { classifyByRules, extractScope, type QueryMode } from "./classify-rules";

// The six examples from the classifier design, with the mode each must get.
const DESIGN_EXAMPLES: [string, QueryMode][] = [
  ["Why am I getting sqlite3.OperationalError: readonly database after regeneration?", "diagnostic"],
  ["Trace how a request flows from the API endpoint to the database", "exploratory"],
  ["What are the architectural problems in the frontend code?", "analytical"],
  ["How does the authentication system work?", "conceptual"],
  ["What's wrong with the caching layer?", "analytical"],
  ["The auth endpoint returns 401 when it should return 200", "diagnostic"],
];

// Hand-labelled questions, balanced across modes: short, long, lower-case, with code,
// with paths and pasted bug reports. Every one must classify as labelled.
const LABELLED: [string, QueryMode][] = [
  // diagnostic
  ["Why does `load_config` raise KeyError: 'database' when the env var is set?", "diagnostic"],
  ["Why do I get PaymentDeclined: card declined by gateway when placing an order?", "diagnostic"],
  ["Why does charge_card raise PaymentDeclined?", "diagnostic"],
  ["getting a 500 from /api/sessions after upgrading prisma, what's going on", "diagnostic"],
  [
    "TypeError: Cannot read properties of undefined (reading 'map') in components/chat/MessageList.tsx",
    "diagnostic",
  ],
  [
    'Login fails after password reset\n\n### Steps to reproduce\n1. Reset the password\n2. Log in with the new one\n\n### Expected behavior\nThe user is logged in.\n\n```\nTraceback (most recent call last):\n  File "app/auth.py", line 88, in login\n    user = verify(token)\nValueError: token expired\n```',
    "diagnostic",
  ],
  ["The indexer crashes on files with a BOM", "diagnostic"],
  [
    "search returns no results for queries with uppercase letters, but it should be case-insensitive",
    "diagnostic",
  ],
  ["why is the embedding job stuck at 0% forever?", "diagnostic"],
  ["pytest fails with ModuleNotFoundError: No module named 'wayfinder' in CI only", "diagnostic"],
  [
    "After the migration, sessions are not persisted and users get logged out on every request. Is this a bug in lib/db/session.ts?",
    "diagnostic",
  ],
  ["Segfault in the tree-sitter wasm loader when parsing a 2MB file", "diagnostic"],
  ["Unexpected behaviour: `countTokens` gives different numbers for the same string", "diagnostic"],
  [
    "panic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\nmain.parse(...)\n\t/app/parser.go:42 +0x1d",
    "diagnostic",
  ],
  ["Error: ENOENT: no such file or directory, open '.wayfinder/index.db' — what causes this?", "diagnostic"],
  // exploratory
  ["Walk me through what happens when a user submits a question in the chat UI", "exploratory"],
  ["trace the indexing pipeline from the CLI command to the database writes", "exploratory"],
  ["How does `ask()` call the retriever and the model? Show the call chain.", "exploratory"],
  ["What's the execution order of the middleware in app/api/chat/route.ts?", "exploratory"],
  ["Follow the data flow of an embedding from the embedder to the vector store", "exploratory"],
  [
    "what happens after a file changes on disk — how does incremental re-indexing get triggered?",
    "exploratory",
  ],
  ["Which functions does `resolveGap` call, and in what order?", "exploratory"],
  ["Where is merge_core used?", "exploratory"],
  ["Show me the call sites of parseCitations", "exploratory"],
  ["Show me the path a request takes from the Next.js route handler to Prisma", "exploratory"],
  ["step by step, how is a session restored when a follow-up question arrives?", "exploratory"],
  ["how does the classifier's output flow into retrieval?", "exploratory"],
  ["Trace the lifecycle of an IndexGeneration from creation to activation", "exploratory"],
  ["What calls `truncateSource`, and where does its output end up?", "exploratory"],
  // analytical
  ["What are the biggest design weaknesses of lib/search?", "analytical"],
  ["Is the qa module too tightly coupled to the database layer?", "analytical"],
  ["assess code quality in the indexer package", "analytical"],
  ["Where is the technical debt concentrated in this repo?", "analytical"],
  ["Review the architecture of the wiki generator and suggest improvements", "analytical"],
  ["Are there circular dependencies between lib/qa and lib/llm?", "analytical"],
  ["Which files are hotspots with high fan-in and fan-out?", "analytical"],
  ["Evaluate how cohesive the components/chat folder is", "analytical"],
  ["what's wrong with the session management design?", "analytical"],
  ["How maintainable is the retrieval code? Any code smells?", "analytical"],
  ["Give me a picture of the overall structure and layering of the backend", "analytical"],
  ["What problems do you see in how errors are handled across the API routes?", "analytical"],
  // conceptual
  ["What does parse_config do?", "conceptual"],
  ["How do I add a new embedding provider?", "conceptual"],
  ["explain what CGRAG means in this project", "conceptual"],
  ["What is the purpose of the IndexGeneration table?", "conceptual"],
  ["How does the vector store abstraction work?", "conceptual"],
  ["what is `BudgetTracker` for", "conceptual"],
  ["Where is the default model configured?", "conceptual"],
  ["How do I run the benchmark?", "conceptual"],
  ["What options does the `wayfinder index` command accept?", "conceptual"],
  ["Explain the difference between the embedded and qdrant vector stores", "conceptual"],
  ["What does the offline evidence engine produce?", "conceptual"],
  ["Which languages does the parser support?", "conceptual"],
];

// Excerpts of real SWE-bench Lite bug reports (pasted as questions they are diagnostic).
const BUG_REPORTS = [
  `pairplot fails with hue_order not containing all hue values in seaborn 0.11.1
In seaborn < 0.11, one could plot only a subset of the values in the hue column, by passing a hue_order list containing only the desired values.
\`\`\`python
iris = sns.load_dataset("iris")\`
sns.pairplot(iris, hue="species", hue_order=["setosa", "versicolor"])
\`\`\`

This no longer works in 0.11.1. Passing a hue_order list that does not contain some of the values in the hue column raises a long, ugly error traceback. The first exception arises in seaborn/_core.py:
\`\`\`
TypeError: ufunc 'isnan' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''
\`\`\``,
  `Incorrect caching of skipif/xfail string condition evaluation
Version: pytest 5.4.3, current master

pytest caches the evaluation of the string in e.g. \`@pytest.mark.skipif("sys.platform == 'win32'")\`. However, the evaluation also depends on the item's globals, so the caching can lead to incorrect results.

Expected: \`test_should_skip\` is skipped, \`test_should_not_skip\` is not skipped.

Actual: both are skipped.`,
  `Uncertain about content/text vs iter_content(decode_unicode=True/False)
When requesting an application/json document, I'm seeing \`next(r.iter_content(16*1024, decode_unicode=True))\` returning bytes, whereas \`r.text\` returns unicode. My understanding was that both should return a unicode object.`,
];

describe("classifyByRules", () => {
  it.each(DESIGN_EXAMPLES)("classifies the design example %j as %s", (question, mode) => {
    expect(classifyByRules(question).mode).toBe(mode);
  });

  it("labels the labelled set with full accuracy and a balanced spread", () => {
    const counts = new Map<QueryMode, number>();
    const misses: string[] = [];
    for (const [question, mode] of LABELLED) {
      counts.set(mode, (counts.get(mode) ?? 0) + 1);
      const got = classifyByRules(question).mode;
      if (got !== mode) misses.push(`${mode} -> ${got}: ${question}`);
    }
    expect(misses).toEqual([]);
    for (const mode of QUERY_MODE_LIST) expect(counts.get(mode)).toBeGreaterThanOrEqual(10);
  });

  it.each(LABELLED)("classifies %j as %s", (question, mode) => {
    expect(classifyByRules(question).mode).toBe(mode);
  });

  it.each(BUG_REPORTS.map((r) => [r.split("\n")[0], r]))(
    "treats the pasted bug report %j as diagnostic",
    (_title, report) => {
      expect(classifyByRules(report).mode).toBe("diagnostic");
    },
  );

  it("lets an exception type outweigh a 'what is wrong with' phrasing", () => {
    expect(classifyByRules("What's wrong with my query? It raises TypeError").mode).toBe("diagnostic");
  });

  it("does not treat a design-rationale why-question as a failure", () => {
    expect(classifyByRules("Why does the indexer use tree-sitter?").mode).toBe("conceptual");
  });

  it("does not read 'stack trace' as a request to trace code", () => {
    const result = classifyByRules("how does retrieval work when the question contains a stack trace?");
    expect(result.mode).toBe("conceptual");
  });

  it("falls back to conceptual with low confidence when nothing matches", () => {
    const result = classifyByRules("hi");
    expect(result.mode).toBe("conceptual");
    expect(result.confidence).toBeLessThan(0.5);
    expect(result.reasoning).toMatch(/by default/);
  });

  it("is more confident when the signals agree than when modes compete", () => {
    const clear = classifyByRules(
      'Traceback (most recent call last):\n  File "a.py", line 3\nValueError: boom',
    );
    const mixed = classifyByRules("What's wrong with my query? It raises TypeError");
    expect(clear.confidence).toBeGreaterThan(mixed.confidence);
    expect(clear.confidence).toBeLessThanOrEqual(0.95);
  });

  it("names the signals it found in a single sentence", () => {
    const { reasoning } = classifyByRules("pytest fails with ModuleNotFoundError: No module named 'x'");
    expect(reasoning).toContain("ModuleNotFoundError");
    expect(reasoning).toContain('"fails"');
    expect(reasoning.trim().split(/(?<=\.)\s+(?=[A-Z])/)).toHaveLength(1);
  });

  it("mentions the competing mode when one scored", () => {
    const { reasoning } = classifyByRules(
      "What problems do you see in how errors are handled across the API routes?",
    );
    expect(reasoning).toMatch(/^Analytical because/);
    expect(reasoning).toMatch(/weaker diagnostic signals/);
  });
});

describe("extractScope", () => {
  it.each([
    ["What are the architectural problems in the frontend code?", "frontend"],
    ["Explain the retry logic in src/auth/", "src/auth/"],
    ["Why does lib/db/queries.ts:42 throw?", "lib/db/queries.ts"],
    ["assess code quality in the indexer package", "indexer"],
    ["Is the whole qa module too big?", "qa"],
    ["What's wrong with the caching layer?", "caching"],
    ["How is state shared in the backend?", "backend"],
    ["Critique the module boundaries between app and lib", null],
    ["How does the authentication flow work?", null],
    ["Why does https://example.com/api/users return 500?", null],
  ])("finds the scope of %j", (question, scope) => {
    expect(extractScope(question)).toBe(scope);
  });

  it("ignores absolute paths from a pasted traceback", () => {
    const report =
      'Crash\nTraceback (most recent call last):\n  File "/usr/lib/python3/site.py", line 1, in <module>\nKeyError: x';
    expect(extractScope(report)).toBeNull();
  });

  it("is reported on the classification", () => {
    expect(classifyByRules("Trace the request path in backend/api/routes.py").scope).toBe(
      "backend/api/routes.py",
    );
  });
});
