import { describe, expect, it } from "vitest";

import {
  type CitationLookup,
  markUnverifiedCitations,
  parseCitations,
  UNVERIFIED_MARK,
  verifyCitations,
} from "./citations";

const FILES: Record<string, number> = { "backend/api/deps.py": 80, "lib/store.ts": 120, "README.md": 30 };
const SYMBOLS: Record<string, { qualifiedId: string; startLine: number; endLine: number }[]> = {
  "backend/api/deps.py": [
    { qualifiedId: "backend/api/deps.py::get_db", startLine: 10, endLine: 25 },
    { qualifiedId: "backend/api/deps.py::reset_db", startLine: 40, endLine: 52 },
  ],
  "lib/store.ts": [
    { qualifiedId: "lib/store.ts::SessionStore", startLine: 5, endLine: 100 },
    { qualifiedId: "lib/store.ts::SessionStore.save", startLine: 30, endLine: 45 },
    { qualifiedId: "lib/store.ts::SessionStore.save#2", startLine: 50, endLine: 60 },
  ],
};

function lookup(): CitationLookup & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    fileLines(path) {
      calls.push(path);
      return FILES[path] ?? null;
    },
    symbolsAt(path, start, end) {
      return (SYMBOLS[path] ?? []).filter((s) => s.startLine <= end && s.endLine >= start);
    },
  };
}

function verify(text: string) {
  return verifyCitations(parseCitations(text), lookup());
}

describe("parseCitations", () => {
  it("reads every supported form with its offset", () => {
    const text =
      "See deps.py:10-20, [lib/a.ts:5], `lib/b.ts:7-9`, lib/c.ts#L3-L4, lib/d.ts#L8, src/e.py:12:5 and f.go:3–6.";
    const found = parseCitations(text);
    expect(found.map(({ raw, path, startLine, endLine }) => ({ raw, path, startLine, endLine }))).toEqual([
      { raw: "deps.py:10-20", path: "deps.py", startLine: 10, endLine: 20 },
      { raw: "[lib/a.ts:5]", path: "lib/a.ts", startLine: 5, endLine: 5 },
      { raw: "`lib/b.ts:7-9`", path: "lib/b.ts", startLine: 7, endLine: 9 },
      { raw: "lib/c.ts#L3-L4", path: "lib/c.ts", startLine: 3, endLine: 4 },
      { raw: "lib/d.ts#L8", path: "lib/d.ts", startLine: 8, endLine: 8 },
      { raw: "src/e.py:12:5", path: "src/e.py", startLine: 12, endLine: 12 },
      { raw: "f.go:3–6", path: "f.go", startLine: 3, endLine: 6 },
    ]);
    for (const c of found) expect(text.slice(c.index, c.index + c.raw.length)).toBe(c.raw);
  });

  it("ignores URLs, clock times, hosts with ports and Windows drive paths", () => {
    const text =
      "Open https://github.com/o/r/blob/main/x.py#L10-L20 at 10:30 on localhost:3000 or example.com:8080; C:\\src\\w.py:3 too.";
    expect(parseCitations(text)).toEqual([]);
  });

  it("skips locations inside fenced code blocks", () => {
    const text =
      "The error is raised in deps.py:12.\n```\nFile deps.py:40, in get_db\n```\nSee also lib/a.ts:3.";
    expect(parseCitations(text).map((c) => c.raw)).toEqual(["deps.py:12", "lib/a.ts:3"]);
  });

  it("keeps an inverted range as written so verification can reject it", () => {
    expect(parseCitations("deps.py:20-10")[0]).toMatchObject({ startLine: 20, endLine: 10 });
  });

  it("records the code name written right before a citation", () => {
    const text =
      "`get_db` (deps.py:10-20) opens it; reset_db() in deps.py:40 clears it; the cache (deps.py:1) is global; see SessionStore at lib/store.ts:5.";
    expect(parseCitations(text).map((c) => c.namedSymbol)).toEqual([
      "get_db",
      "reset_db",
      null,
      "SessionStore",
    ]);
  });

  it("does not take the previous citation as a name", () => {
    expect(parseCitations("(deps.py:10-20, deps.py:40-41)").map((c) => c.namedSymbol)).toEqual([null, null]);
  });

  it("treats a Markdown link around a citation as part of it", () => {
    const [c] = parseCitations("[README.md:3](https://example.com/readme) explains it");
    expect(c?.raw).toBe("[README.md:3](https://example.com/readme)");
  });
});

describe("verifyCitations", () => {
  it("verifies a citation whose file and lines exist and reports the innermost symbol", () => {
    const [r] = verify("lib/store.ts:32-40");
    expect(r).toMatchObject({ verified: true, reason: null, symbol: "lib/store.ts::SessionStore.save" });
  });

  it("verifies a name at any of its overloads", () => {
    expect(verify("`SessionStore.save` (lib/store.ts:52-58)")[0]).toMatchObject({
      verified: true,
      symbol: "lib/store.ts::SessionStore.save#2",
    });
    expect(verify("`SessionStore.save` (lib/store.ts:70-72)")[0]).toMatchObject({
      verified: false,
      reason: "SessionStore.save is at lines 30-45, not 70-72",
    });
  });

  it("rejects files outside the index and lines past the end", () => {
    expect(verify("nope.py:1")[0]).toMatchObject({ verified: false, reason: "file not in index" });
    expect(verify("backend/api/deps.py:90-95")[0]).toMatchObject({
      verified: false,
      reason: "lines 90-95 past end of file (80 lines)",
    });
  });

  it("rejects inverted ranges and line zero", () => {
    expect(verify("backend/api/deps.py:20-10")[0]?.reason).toBe("inverted line range 20-10");
    expect(verify("backend/api/deps.py:0")[0]?.reason).toBe("line numbers start at 1");
  });

  it.each([
    ["../secrets.py:1", "path leaves the repository"],
    ["/etc/app.py:1", "absolute path"],
    ["~/app.py:1", "absolute path"],
    ["backend\\api\\deps.py:1", "backslash path"],
  ])("never verifies or looks up the unsafe path %j", (text, reason) => {
    const l = lookup();
    const [r] = verifyCitations(parseCitations(text), l);
    expect(r).toMatchObject({ verified: false, reason });
    expect(l.calls).toEqual([]);
  });

  it("accepts ./ as the repository root", () => {
    expect(verify("./README.md:2")[0]).toMatchObject({
      path: "README.md",
      raw: "./README.md:2",
      verified: true,
    });
  });

  it("checks a named symbol against the cited lines", () => {
    const [good, moved, missing, variable] = verify(
      "`get_db` (backend/api/deps.py:12-20); `reset_db` (backend/api/deps.py:10-20); `CacheStore` (backend/api/deps.py:10-20); `_db_instances` (backend/api/deps.py:5)",
    );
    expect(good).toMatchObject({ verified: true, symbol: "backend/api/deps.py::get_db" });
    expect(moved).toMatchObject({ verified: false, reason: "reset_db is at lines 40-52, not 10-20" });
    expect(missing).toMatchObject({ verified: false, reason: "no symbol CacheStore at these lines" });
    // Variables are not indexed symbols, so naming one cannot be judged wrong.
    expect(variable).toMatchObject({ verified: true, reason: null, symbol: null });
  });

  it("names the symbol holding the cited lines, and a whole file as such", () => {
    // Lines 1-120 overlap SessionStore.save, but a whole file is not that method.
    expect(verify("lib/store.ts:1-120")[0]).toMatchObject({ verified: true, symbol: null, wholeFile: true });
    // Lines spanning two functions name neither.
    expect(verify("backend/api/deps.py:12-45")[0]).toMatchObject({ symbol: null, wholeFile: false });
    expect(verify("lib/store.ts:31-33")[0]).toMatchObject({
      symbol: "lib/store.ts::SessionStore.save",
      wholeFile: false,
    });
  });

  it("matches a method by its short name inside a qualified id", () => {
    expect(verify("save() in lib/store.ts:30-45")[0]).toMatchObject({
      verified: true,
      symbol: "lib/store.ts::SessionStore.save",
    });
  });
});

describe("markUnverifiedCitations", () => {
  it("marks only unverified citations and leaves the rest of the text intact", () => {
    const text = "Opened in backend/api/deps.py:10-20 and closed in [nope.py:3]; see lib/store.ts:500.";
    const marked = markUnverifiedCitations(text, verify(text));
    expect(marked).toBe(
      `Opened in backend/api/deps.py:10-20 and closed in [nope.py:3]${UNVERIFIED_MARK}; see lib/store.ts:500${UNVERIFIED_MARK}.`,
    );
  });

  it("is idempotent and ignores results that no longer match the text", () => {
    const text = "See nope.py:3.";
    const results = verify(text);
    const once = markUnverifiedCitations(text, results);
    expect(markUnverifiedCitations(once, results)).toBe(once);
    expect(markUnverifiedCitations("Different text entirely.", results)).toBe("Different text entirely.");
  });

  it("puts the mark after a whole Markdown link", () => {
    const text = "[nope.md:3](https://example.com) says so";
    expect(markUnverifiedCitations(text, verify(text))).toBe(
      `[nope.md:3](https://example.com)${UNVERIFIED_MARK} says so`,
    );
  });
});
