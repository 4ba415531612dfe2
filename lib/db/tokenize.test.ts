import { createClient, type Client } from "@libsql/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MAX_WORD_LENGTH,
  STOPWORDS,
  forEachWord,
  contentTerms,
  fileTermCounts,
  ftsMatchExpression,
  indexText,
  repositoryTermSalt,
  termKey,
  queryTerms,
  splitIdentifier,
  stem,
} from "./tokenize.ts";
import { HOSTILE_QUERIES } from "../../test-support/hostile-queries.ts";

describe("splitIdentifier", () => {
  it.each([
    ["getUserById", ["get", "user", "by", "id"]],
    ["HTTPServerError", ["http", "server", "error"]],
    ["parse_config_v2", ["parse", "config", "v2"]],
    ["__init__", ["init"]],
    ["XMLHttpRequest", ["xml", "http", "request"]],
    ["snake_case_name", ["snake", "case", "name"]],
    ["SCREAMING_CONST", ["screaming", "const"]],
    ["int32ToString", ["int32", "to", "string"]],
    ["HTTP2Server", ["http2", "server"]],
    ["V8Engine", ["v8", "engine"]],
    ["getIDs", ["get", "ids"]],
    ["parseURLsFrom", ["parse", "urls", "from"]],
    ["isASet", ["is", "a", "set"]],
    ["kebab-case", ["kebab", "case"]],
    ["$scope", ["scope"]],
    ["plain", ["plain"]],
    ["ÄrgerDaten", ["ärger", "daten"]],
    ["__", []],
    ["", []],
  ])("%s", (word, parts) => {
    expect(splitIdentifier(word)).toEqual(parts);
  });
});

describe("indexText", () => {
  it("writes each splitting identifier whole and then as parts", () => {
    expect(indexText("user = getUserById(id)")).toBe("user getuserbyid get user by id id");
  });

  it("joins snake_case into the same whole form as camelCase", () => {
    const camel = indexText("getUserById").split(" ");
    const snake = indexText("get_user_by_id").split(" ");
    expect(snake).toEqual(camel);
  });

  it("splits dotted names, keeps numbers, lowercases", () => {
    expect(indexText("os.path.join returned HTTP 404 in v3.14")).toBe(
      "os path join returned http 404 in v3 14",
    );
  });

  it("does not repeat a word that does not split", () => {
    expect(indexText("Error _private")).toBe("error private");
  });

  it("drops over-long blobs but keeps their neighbours", () => {
    const blob = "A".repeat(MAX_WORD_LENGTH + 1);
    expect(indexText(`before ${blob} after`)).toBe("before after");
  });

  it("keeps non-Latin words", () => {
    expect(indexText("ошибка: データ 読み込み")).toBe("ошибка データ 読み込み");
  });

  it("produces only characters FTS5 keeps as token characters, plus spaces", () => {
    const out = indexText(`x = a->b; y["k"] = f(*args, **kw) // ${"#"}!@%^&*()+=[]{}|\\:;'<>,.?/~\``);
    expect(out).toMatch(/^[\p{L}\p{N}\p{M} ]*$/u);
  });
});

describe("fileTermCounts", () => {
  it("counts exactly the words indexText writes for the path and the text", () => {
    const path = "src/user_store.py";
    const content =
      "class UserStore:\n    def getUserById(self, user_id):  # user lookup\n        return self.users[user_id]\n";
    const words = indexText(`${path}\n${content}`).split(" ");
    const counts = fileTermCounts(path, content);
    expect(counts.length).toBe(words.length);
    const expected = new Map<string, number>();
    for (const w of words) expected.set(w, (expected.get(w) ?? 0) + 1);
    expect(new Map(counts.terms.map((t, i) => [t, counts.counts[i]]))).toEqual(expected);
    expect(counts.counts[counts.terms.indexOf("user")]).toBe(6);
  });

  it("keys a word differently per repository, the same within one", () => {
    const a = repositoryTermSalt("repo-a");
    const b = repositoryTermSalt("repo-b");
    expect(termKey("redirect", a)).toBe(termKey("redirect", a));
    expect(termKey("redirect", a)).not.toBe(termKey("redirect", b));
    expect(termKey("redirect", a)).not.toBe(termKey("redirects", a));
    expect(Number.isInteger(termKey("redirect", a))).toBe(true);
    expect(Math.abs(termKey("redirect", a))).toBeLessThanOrEqual(2 ** 31);
  });
});

describe("forEachWord", () => {
  it("survives a visitor that tokenizes other text (no shared regex state)", () => {
    const seen: string[] = [];
    forEachWord("alpha beta gamma", (parts) => {
      indexText("interleaved text here");
      seen.push(parts.join(""));
    });
    expect(seen).toEqual(["alpha", "beta", "gamma"]);
  });
});

describe("queryTerms", () => {
  it("drops stopwords, splits identifiers, dedupes in order", () => {
    expect(queryTerms("Why does getUserById throw when the user is null?")).toEqual([
      "getuserbyid",
      "user",
      "id",
      "throw",
      "null",
    ]);
  });

  it("keeps domain words from bug reports and drops setup noise", () => {
    const terms = queryTerms("Steps to reproduce: import the parser in Python, error: Timeout exceeded");
    expect(terms).toEqual(["parser", "error", "timeout", "exceeded"]);
  });

  it("keeps an identifier's whole form even when all its parts are stopwords", () => {
    expect(queryTerms("what does get_it do")).toEqual(["getit"]);
  });

  it("caps the number of terms", () => {
    const text = Array.from({ length: 200 }, (_, i) => `word${i}`).join(" ");
    expect(queryTerms(text, 10)).toHaveLength(10);
    expect(queryTerms(text)).toHaveLength(64);
  });

  it("returns nothing for pure stopwords or punctuation", () => {
    expect(queryTerms("what is the ?!")).toEqual([]);
    expect(queryTerms("")).toEqual([]);
  });

  it("keeps 'error' and drops 'python'", () => {
    expect(STOPWORDS.has("error")).toBe(false);
    expect(STOPWORDS.has("python")).toBe(true);
  });
});

describe("contentTerms", () => {
  it("drops the scaffolding of a prose question and keeps what it is about", () => {
    expect(
      contentTerms(
        "What is the semantic relationship between the ASCII-only encoding parameter and the architectural design of the JSON provider?",
      ),
    ).toEqual(["ascii", "encoding", "parameter", "json", "provider"]);
    expect(contentTerms("How does the session mechanism ensure the cookie expires?")).toEqual([
      "session",
      "cookie",
      "expires",
    ]);
  });

  it("keeps whole identifiers, and the terms of a question made only of scaffolding", () => {
    expect(contentTerms("the designPattern registry")).toEqual(["designpattern", "registry"]);
    expect(contentTerms("architectural rationale")).toEqual(["architectural", "rationale"]);
  });
});

describe("ftsMatchExpression", () => {
  it("ORs quoted terms", () => {
    expect(ftsMatchExpression(["getuserbyid", "user"])).toBe('"getuserbyid" OR "user"');
  });

  it("returns null when nothing searchable is left", () => {
    expect(ftsMatchExpression([])).toBeNull();
    expect(ftsMatchExpression(['"', "*", "-", "()"])).toBeNull();
  });

  it("neutralises FTS5 operators and quotes", () => {
    expect(ftsMatchExpression(['a"b', "NEAR", "c*", "-d", "col:e", "(f)"])).toBe(
      '"a b" OR "near" OR "c" OR "d" OR "col e" OR "f"',
    );
  });

  it("adds single-word prefixes as prefix queries, never a phrase or an operator", () => {
    expect(ftsMatchExpression(["redirects"], ["redirect", "two words", 'x"*'])).toBe(
      '"redirects" OR "redirect"* OR "x"*',
    );
  });
});

describe("stem", () => {
  it("brings a word's forms together", () => {
    expect(["redirects", "redirected", "redirect"].map(stem)).toEqual(["redirect", "redirect", "redirect"]);
    expect(stem("Dispatching")).toBe("dispatch");
  });
});

describe("FTS5 round trip (SQLite, unicode61)", () => {
  let db: Client;

  beforeAll(async () => {
    db = createClient({ url: ":memory:" });
    await db.execute("CREATE VIRTUAL TABLE docs USING fts5(body, tokenize = 'unicode61')");
    const docs = [
      "export function getUserById(id: string) { return db.users.find(id) }",
      "def parse_config_v2(path):\n    raise ConfigError('bad config')",
      "class HTTPServerError extends Error {}",
      "render chart axis labels",
    ];
    for (const doc of docs) {
      await db.execute({ sql: "INSERT INTO docs(body) VALUES (?)", args: [indexText(doc)] });
    }
  });

  afterAll(() => db.close());

  async function search(question: string): Promise<number[]> {
    const match = ftsMatchExpression(queryTerms(question));
    if (!match) return [];
    const result = await db.execute({
      sql: "SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY bm25(docs)",
      args: [match],
    });
    return result.rows.map((r) => Number(r.rowid));
  }

  it("finds other forms of a word through a stem prefix", async () => {
    const plain = ftsMatchExpression(["label"]);
    const stemmed = ftsMatchExpression(["label"], [stem("labelled")]);
    const count = async (match: string | null) =>
      Number(
        (await db.execute({ sql: "SELECT count(*) AS n FROM docs WHERE docs MATCH ?", args: [match] }))
          .rows[0]?.n,
      );
    expect(await count(plain)).toBe(0);
    expect(await count(stemmed)).toBe(1);
  });

  it("finds camelCase code from split words and from the snake_case spelling", async () => {
    expect((await search("how do we get a user by id"))[0]).toBe(1);
    expect((await search("get_user_by_id"))[0]).toBe(1);
    expect((await search("ParseConfigV2 raises"))[0]).toBe(2);
    expect((await search("http server error"))[0]).toBe(3);
  });

  it("never produces an FTS5 syntax error, whatever the input", async () => {
    // The harness does notice syntax errors: raw input like this is rejected by FTS5.
    await expect(
      db.execute({ sql: "SELECT count(*) FROM docs WHERE docs MATCH ?", args: ['"unbalanced'] }),
    ).rejects.toThrow();
    for (const input of HOSTILE_QUERIES) {
      for (const match of [ftsMatchExpression(queryTerms(input)), ftsMatchExpression([input])]) {
        if (match === null) continue;
        await expect(
          db.execute({ sql: "SELECT count(*) FROM docs WHERE docs MATCH ?", args: [match] }),
        ).resolves.toBeDefined();
      }
    }
  });

  it("handles a very long OR chain", async () => {
    const terms = Array.from({ length: 2000 }, (_, i) => `t${i}`);
    const match = ftsMatchExpression(terms);
    expect(match).not.toBeNull();
    await expect(
      db.execute({ sql: "SELECT count(*) FROM docs WHERE docs MATCH ?", args: [match] }),
    ).resolves.toBeDefined();
  });
});
