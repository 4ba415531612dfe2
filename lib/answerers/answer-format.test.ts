import { describe, expect, it } from "vitest";

import { createAnswerStreamFilter, parseModelOutput } from "./answer-format";
import { MAX_GAP_LENGTH, MAX_GAPS, normalizeGap, parseGapTarget } from "./gap-format";

const FENCE = "```";

describe("parseModelOutput: tagged replies", () => {
  it("splits a well-formed reply into answer and gaps", () => {
    const out = parseModelOutput(`<answer>
The error occurs because the cached connection is stale.
</answer>

<missing>
- The implementation of get_db() in backend/src/oya/api/deps.py
- How promote_staging_to_production() handles the database file
- What invalidates the _db_instances cache
</missing>`);
    expect(out.format).toBe("tags");
    expect(out.missingSection).toBe(true);
    expect(out.answer).toBe("The error occurs because the cached connection is stale.");
    expect(out.gaps).toEqual([
      "The implementation of get_db() in backend/src/oya/api/deps.py",
      "How promote_staging_to_production() handles the database file",
      "What invalidates the _db_instances cache",
    ]);
  });

  it("accepts any tag case, drops prose around the tags and dedupes gaps", () => {
    const out = parseModelOutput(`Sure! Here is my answer:
<ANSWER>The auth module checks tokens.</ANSWER>
<Missing>
1. UserModel in models/user.py
2) the database connection handler
• \`UserModel\` in models/user.py
</missing>
Hope this helps!`);
    expect(out.answer).toBe("The auth module checks tokens.");
    expect(out.gaps).toEqual(["UserModel in models/user.py", "the database connection handler"]);
  });

  it("handles an unclosed answer and an unclosed missing section at the end of the stream", () => {
    const out = parseModelOutput(
      "<answer>Partial answer that never closes\n<missing>\n- get_db in deps.py\n- I think that's all",
    );
    expect(out.answer).toBe("Partial answer that never closes");
    expect(out.gaps).toEqual(["get_db in deps.py"]);
  });

  it("unwraps tags fenced as XML by mistake but keeps code blocks inside the answer", () => {
    const out = parseModelOutput(
      `${FENCE}xml\n<answer>\nIt works via \`verify\`:\n${FENCE}python\nx = 1\n${FENCE}\n</answer>\n<missing>\n* \`verify_token\` in auth/verify.py\n</missing>\n${FENCE}`,
    );
    expect(out.answer).toBe(`It works via \`verify\`:\n${FENCE}python\nx = 1\n${FENCE}`);
    expect(out.gaps).toEqual(["verify_token in auth/verify.py"]);
  });

  it("keeps a code block that closes right before an unclosed missing tag", () => {
    const out = parseModelOutput(
      `<answer>See:\n${FENCE}ts\nrun();\n${FENCE}\n<missing>\n- run in src/run.ts`,
    );
    expect(out.answer).toBe(`See:\n${FENCE}ts\nrun();\n${FENCE}`);
    expect(out.gaps).toEqual(["run in src/run.ts"]);
  });

  it("reads the answer even when the missing block comes first", () => {
    const out = parseModelOutput("<missing>- parse in a.py</missing>\n<answer>The parser is lazy.</answer>");
    expect(out.answer).toBe("The parser is lazy.");
    expect(out.gaps).toEqual(["parse in a.py"]);
  });

  it("falls back to prose outside an empty answer tag", () => {
    const out = parseModelOutput(
      "The loader retries three times.\n<answer></answer>\n<missing>NONE</missing>",
    );
    expect(out.answer).toBe("The loader retries three times.");
    expect(out.gaps).toEqual([]);
  });

  it("treats a legacy MISSING header after a closed answer as the missing section", () => {
    const out = parseModelOutput("<answer>Done.</answer>\nMISSING:\n- helper in util.py");
    expect(out).toMatchObject({ answer: "Done.", gaps: ["helper in util.py"], missingSection: true });
  });

  it("keeps a 'Missing …' heading inside the answer when a missing tag follows", () => {
    const out = parseModelOutput(
      "<answer>Missing values are dropped.\n## Missing pieces\nNone.</answer>\n<missing>\n- N/A\n</missing>",
    );
    expect(out.answer).toBe("Missing values are dropped.\n## Missing pieces\nNone.");
    expect(out.gaps).toEqual([]);
  });

  it("never leaves tag markup in the answer", () => {
    const out = parseModelOutput("<answer>one <answer>two</answer></answer><missing></missing></missing>");
    expect(out.answer).not.toMatch(/<\/?\s*(?:answer|missing)/i);
    expect(out.answer).toBe("one two");
  });
});

describe("parseModelOutput: reasoning blocks", () => {
  it("drops think and reasoning blocks wherever they appear", () => {
    const out = parseModelOutput(
      "<think>Maybe <missing> is needed?</think>\n<answer>Uses a pool.</answer>\n<missing>- pool in db.py</missing>\n<reasoning>Mostly enough.</reasoning>",
    );
    expect(out).toEqual({
      answer: "Uses a pool.",
      gaps: ["pool in db.py"],
      format: "tags",
      missingSection: true,
    });
  });

  it("drops an unclosed reasoning block at the end", () => {
    expect(parseModelOutput("The answer.\n<reasoning>cut off").answer).toBe("The answer.");
  });
});

describe("parseModelOutput: legacy headers", () => {
  it("parses ANSWER/MISSING with the NONE instruction in the header", () => {
    const out = parseModelOutput(`ANSWER:
The auth system works by verifying tokens
and checking permissions.

MISSING (or "NONE" if nothing needed):
NONE`);
    expect(out).toEqual({
      answer: "The auth system works by verifying tokens\nand checking permissions.",
      gaps: [],
      format: "legacy",
      missingSection: true,
    });
  });

  it("parses bold and Markdown-heading headers", () => {
    const out = parseModelOutput("**ANSWER:**\nText here.\n\n## Missing\n- `Foo.bar` in src/foo.ts\n- none");
    expect(out.answer).toBe("Text here.");
    expect(out.gaps).toEqual(["Foo.bar in src/foo.ts"]);
  });

  it("reads inline content after headers and splits an inline list of targets", () => {
    const out = parseModelOutput("ANSWER: inline answer\nMISSING: verify_user(); SessionStore class");
    expect(out.answer).toBe("inline answer");
    expect(out.gaps).toEqual(["verify_user()", "SessionStore class"]);
  });

  it("does not split a single prose gap on its commas", () => {
    const out = parseModelOutput("ANSWER: x\nMISSING: how tokens are refreshed, cached and revoked");
    expect(out.gaps).toEqual(["how tokens are refreshed, cached and revoked"]);
  });

  it("does not mistake a sentence starting with 'Missing' for a header", () => {
    const out = parseModelOutput("Missing files are skipped by the walker.\nThat is the whole story.");
    expect(out.format).toBe("none");
    expect(out.answer).toBe("Missing files are skipped by the walker.\nThat is the whole story.");
  });

  it("reports a reply with no sections as the whole answer and no gaps", () => {
    expect(parseModelOutput("  Just a plain answer.  ")).toEqual({
      answer: "Just a plain answer.",
      gaps: [],
      format: "none",
      missingSection: false,
    });
  });

  it("notes a missing section that is present but empty", () => {
    const out = parseModelOutput("ANSWER:\nDone.\nMISSING:\n");
    expect(out.missingSection).toBe(true);
    expect(out.gaps).toEqual([]);
  });
});

describe("parseModelOutput: gap lines", () => {
  it.each([
    ["NONE"],
    ["None."],
    ["nothing"],
    ["N/A"],
    ["- none"],
    ["NONE - the context already covers the question"],
    ["No additional context needed."],
    ["Nothing else is missing"],
  ])("reads %j as no gaps", (body) => {
    expect(parseModelOutput(`<answer>a</answer><missing>\n${body}\n</missing>`).gaps).toEqual([]);
  });

  it("drops introductions and sign-offs around a list", () => {
    const out = parseModelOutput(
      "<answer>a</answer><missing>\nThe following would help:\n- load_env in config.py\nLet me know if you need more.\n</missing>",
    );
    expect(out.gaps).toEqual(["load_env in config.py"]);
  });

  it("drops unbulleted prose lines when there are no bullets", () => {
    const out = parseModelOutput(
      "<answer>a</answer><missing>\nget_db in deps.py\nI think that's all.\n</missing>",
    );
    expect(out.gaps).toEqual(["get_db in deps.py"]);
  });

  it("caps overly long lines at a word boundary", () => {
    const long = `the place where ${"retries and backoff ".repeat(30)}are configured`;
    const [gap] = parseModelOutput(`<answer>a</answer><missing>- ${long}</missing>`).gaps;
    expect(gap?.length).toBeLessThanOrEqual(MAX_GAP_LENGTH);
    expect(long.startsWith(gap ?? "-")).toBe(true);
    expect(gap?.endsWith(" ")).toBe(false);
  });

  it("dedupes gaps that differ only in wording of the same target", () => {
    const out = parseModelOutput(
      "<answer>a</answer><missing>\n- The `get_db()` function in deps.py\n- get_db in deps.py\n- GET_DB in deps.py.\n</missing>",
    );
    expect(out.gaps).toEqual(["The get_db() function in deps.py"]);
  });

  it(`keeps at most ${MAX_GAPS} gaps`, () => {
    const body = Array.from({ length: 15 }, (_, i) => `- fn_${i} in mod_${i}.py`).join("\n");
    expect(parseModelOutput(`<answer>a</answer><missing>${body}</missing>`).gaps).toHaveLength(MAX_GAPS);
  });
});

describe("normalizeGap", () => {
  it.each([
    ["The `get_db()` function in deps.py", "get_db in deps.py"],
    ["get_db in deps.py", "get_db in deps.py"],
    ["the implementation of get_db() in backend/api/deps.py", "get_db in backend/api/deps.py"],
    ["definition of `SessionStore`", "sessionstore"],
    ["class SessionStore", "sessionstore"],
    ["verify_user()", "verify_user"],
    ['"backend/api/deps.py"', "backend/api/deps.py"],
    ["The database connection handler.", "database connection handler"],
  ])("maps %j to %j", (gap, key) => {
    expect(normalizeGap(gap)).toBe(key);
  });

  it("keeps the wording of a request that only mentions a file", () => {
    expect(normalizeGap("what invalidates the cache in deps.py")).toBe(
      "what invalidates the cache in deps.py",
    );
    expect(normalizeGap("what invalidates the cache in deps.py")).not.toBe(
      normalizeGap("how retries work in deps.py"),
    );
  });
});

describe("parseGapTarget", () => {
  it.each([
    [
      "get_db in backend/api/deps.py",
      { kind: "symbol-in-file", symbol: "get_db", path: "backend/api/deps.py" },
    ],
    ["`Foo.bar` in src/foo.ts", { kind: "symbol-in-file", symbol: "Foo.bar", path: "src/foo.ts" }],
    ["The `get_db()` function in deps.py", { kind: "symbol-in-file", symbol: "get_db", path: "deps.py" }],
    ["get_db defined in deps.py", { kind: "symbol-in-file", symbol: "get_db", path: "deps.py" }],
    [
      "get_db (backend/api/deps.py)",
      { kind: "symbol-in-file", symbol: "get_db", path: "backend/api/deps.py" },
    ],
    [
      "backend/api/deps.py::get_db",
      { kind: "symbol-in-file", symbol: "get_db", path: "backend/api/deps.py" },
    ],
    ["module::Class.method", { kind: "symbol-in-file", symbol: "Class.method", path: "module" }],
    ["ClassName in some/module.py", { kind: "symbol-in-file", symbol: "ClassName", path: "some/module.py" }],
    ["path/to/file.py", { kind: "file", symbol: null, path: "path/to/file.py" }],
    ["deps.py", { kind: "file", symbol: null, path: "deps.py" }],
    ["the file lib/qa/", { kind: "file", symbol: null, path: "lib/qa/" }],
    ["what invalidates the cache in deps.py", { kind: "file", symbol: null, path: "deps.py" }],
    ["main.go", { kind: "file", symbol: null, path: "main.go" }],
    ["src/lib.rs", { kind: "file", symbol: null, path: "src/lib.rs" }],
    ["Foo.java", { kind: "file", symbol: null, path: "Foo.java" }],
    ["App.tsx", { kind: "file", symbol: null, path: "App.tsx" }],
    ["README.md", { kind: "file", symbol: null, path: "README.md" }],
    ["verify_user()", { kind: "function", symbol: "verify_user", path: null }],
    ["function verify_user", { kind: "function", symbol: "verify_user", path: null }],
    ["class SessionStore", { kind: "function", symbol: "SessionStore", path: null }],
    ["method Foo.save", { kind: "function", symbol: "Foo.save", path: null }],
    ["SessionStore class", { kind: "function", symbol: "SessionStore", path: null }],
    [
      "How promote_staging_to_production() handles the database file",
      { kind: "function", symbol: "promote_staging_to_production", path: null },
    ],
    ["What invalidates the _db_instances cache", { kind: "fuzzy", symbol: null, path: null }],
    ["the file that handles X", { kind: "fuzzy", symbol: null, path: null }],
    ["authentication", { kind: "fuzzy", symbol: null, path: null }],
    ["how errors reach the user", { kind: "fuzzy", symbol: null, path: null }],
  ])("reads %j", (gap, target) => {
    expect(parseGapTarget(gap)).toEqual(target);
  });
});

// Replies the stream filter must agree with the parser on, whatever the chunking.
const STREAM_SAMPLES = [
  "<answer>\nThe cache is per process.\n</answer>\n<missing>\n- get_db in deps.py\n</missing>",
  `${FENCE}xml\n<answer>\nUses \`verify\`:\n${FENCE}py\nx = 1\n${FENCE}\n</answer>\n<missing>\n- a in b.py\n</missing>\n${FENCE}`,
  "Sure! Here is my answer:\n<ANSWER>Checks tokens.</ANSWER>\n<missing>\n1. UserModel in models/user.py\n</missing>\nHope this helps!",
  "<answer>Partial answer that never closes\n<missing>\n- get_db in deps.py",
  'ANSWER:\nThe auth system verifies tokens.\n\nMISSING (or "NONE" if nothing needed):\nNONE',
  "**ANSWER:**\nText here, with a < b and 3 <= 4.\n\n## Missing\n- `Foo.bar` in src/foo.ts",
  "Just a plain answer.\nMissing files are skipped.\nDone.",
  "ANSWER: inline\nMISSING: verify_user()",
  "<answer>x < y holds <b>bold</b></answer><missing>None.</missing>",
  "<answer>Cut off mid-tag.</ans",
  "<think>\nThe user wants <answer> tags.\n</think>\n<answer>Real answer.</answer>\n<missing>NONE</missing>\n<reasoning>Enough context.</reasoning>",
  "Plain answer without tags.\r\nSecond line.\r\n<reasoning>The context was sufficient.</reasoning>",
  "Ends with a comparison: a <",
];

function streamInChunks(text: string, sizes: number[]): string {
  const filter = createAnswerStreamFilter();
  let out = "";
  let at = 0;
  let i = 0;
  while (at < text.length) {
    const size = sizes[i++ % sizes.length] ?? 1;
    out += filter.push(text.slice(at, at + size));
    at += size;
  }
  return out + filter.end();
}

describe("createAnswerStreamFilter", () => {
  it.each(STREAM_SAMPLES)("matches the parsed answer for every two-way split of %j", (text) => {
    const expected = parseModelOutput(text).answer;
    for (let cut = 0; cut <= text.length; cut++) {
      const filter = createAnswerStreamFilter();
      const out = filter.push(text.slice(0, cut)) + filter.push(text.slice(cut)) + filter.end();
      expect(out.trimEnd(), `split at ${cut}`).toBe(expected);
    }
  });

  it.each(STREAM_SAMPLES)("matches the parsed answer when streamed in uneven chunks: %j", (text) => {
    const expected = parseModelOutput(text).answer;
    for (const sizes of [[1], [2, 3], [5, 1, 7], [11]]) {
      expect(streamInChunks(text, sizes).trimEnd()).toBe(expected);
    }
  });

  it("copes with a tag split across deltas and never emits tag text", () => {
    const filter = createAnswerStreamFilter();
    const pieces = ["<ans", "wer>Hello", " world</an", "swer><mis", "sing>- secret in x.py", "</missing>"];
    const emitted = pieces.map((p) => filter.push(p));
    emitted.push(filter.end());
    expect(emitted.join("")).toBe("Hello world");
    for (const piece of emitted) expect(piece).not.toMatch(/[<>]|secret/);
  });

  it("streams answer text before the reply is complete", () => {
    const filter = createAnswerStreamFilter();
    filter.push("<answer>");
    expect(filter.push("The first sentence. ")).toBe("The first sentence. ");
    expect(filter.push("Second")).toBe("Second");
  });

  it("emits nothing after the missing section starts, even across later deltas", () => {
    const filter = createAnswerStreamFilter();
    expect(filter.push("Answer text.\n<missing>\n")).toBe("Answer text.\n");
    expect(filter.push("- a in b.py\n</missing>\nMore prose")).toBe("");
    expect(filter.end()).toBe("");
  });

  it("holds a line that may be a MISSING header only until it is decided", () => {
    const filter = createAnswerStreamFilter();
    expect(filter.push("ANSWER:\nAll good.\nMiss")).toBe("All good.\n");
    expect(filter.push("ing values are fine.\n")).toBe("Missing values are fine.\n");
  });

  it("drops a dangling partial tag at the end of the stream", () => {
    const filter = createAnswerStreamFilter();
    const out = filter.push("<answer>Done.</ans") + filter.end();
    expect(out).toBe("Done.");
    expect(parseModelOutput("<answer>Done.</ans").answer).toBe("Done.");
  });
});
