/**
 * The SQLite/PostgreSQL split: the derived PostgreSQL schema and migrations stay in
 * step with the SQLite ones, placeholders translate, and FTS5 match expressions
 * become tsquery text PostgreSQL always accepts and that finds what FTS5 finds.
 * The round trips against a server run only with WAYFINDER_TEST_PG_URL.
 */
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ftsMatchExpression, ftsMatchToTsQuery, indexText, queryTerms } from "./tokenize.ts";
import { testPgAdminUrl } from "../../test-support/pg-test-db.ts";
import { PG_SEARCH_VECTOR_SQL, toPostgresPlaceholders } from "./dialect.ts";
import { listMigrations } from "./migrate.ts";
import { HOSTILE_QUERIES } from "../../test-support/hostile-queries.ts";

const root = path.resolve(__dirname, "..", "..");

describe("PostgreSQL schema and migrations", () => {
  it("prisma/postgres/schema.prisma is derived from prisma/schema.prisma and up to date", async () => {
    const { derivePostgresSchema } = (await import(
      path.join(root, "prisma", "derive-postgres-schema.mjs")
    )) as {
      derivePostgresSchema: (text: string) => string;
    };
    const derived = derivePostgresSchema(fs.readFileSync(path.join(root, "prisma", "schema.prisma"), "utf8"));
    expect(fs.readFileSync(path.join(root, "prisma", "postgres", "schema.prisma"), "utf8")).toBe(derived);
  });

  it("has a PostgreSQL migration of the same name for every SQLite migration", () => {
    const sqlite = listMigrations(path.join(root, "prisma", "migrations"));
    const postgres = listMigrations(path.join(root, "prisma", "postgres", "migrations"));
    expect(postgres).toEqual(sqlite);
    for (const name of postgres) {
      expect(fs.existsSync(path.join(root, "prisma", "postgres", "migrations", name, "migration.sql"))).toBe(
        true,
      );
    }
  });

  it("defines the search vector exactly as the dialect's integrity check recomputes it", () => {
    const init = fs.readFileSync(
      path.join(root, "prisma", "postgres", "migrations", "20261122000000_init", "migration.sql"),
      "utf8",
    );
    expect(init).toContain(PG_SEARCH_VECTOR_SQL);
  });
});

describe("toPostgresPlaceholders", () => {
  it("numbers ? outside quoted strings and identifiers", () => {
    expect(
      toPostgresPlaceholders(`SELECT "a?" FROM t WHERE x = ? AND y LIKE '?%' ESCAPE '\\' AND z IN (?, ?)`),
    ).toBe(`SELECT "a?" FROM t WHERE x = $1 AND y LIKE '?%' ESCAPE '\\' AND z IN ($2, $3)`);
    expect(toPostgresPlaceholders(`SELECT 'it''s ?', ?`)).toBe(`SELECT 'it''s ?', $1`);
  });
});

describe("ftsMatchToTsQuery", () => {
  it("turns OR-ed quoted phrases into tsquery alternatives", () => {
    expect(ftsMatchToTsQuery('"getuserbyid" OR "user"')).toBe("'getuserbyid' | 'user'");
    expect(ftsMatchToTsQuery('"a b" OR "near" OR "c"')).toBe("('a' <-> 'b') | 'near' | 'c'");
  });

  it("turns a quoted prefix query into a tsquery prefix", () => {
    expect(ftsMatchToTsQuery('"redirects" OR "redirect"*')).toBe("'redirects' | 'redirect':*");
  });

  it("treats bare words side by side as AND, like FTS5", () => {
    expect(ftsMatchToTsQuery("quokkaflux")).toBe("'quokkaflux'");
    expect(ftsMatchToTsQuery("build report")).toBe("('build' & 'report')");
  });

  it("returns null when nothing searchable is left", () => {
    expect(ftsMatchToTsQuery("")).toBeNull();
    expect(ftsMatchToTsQuery('"" OR "*"')).toBeNull();
  });
});

const adminUrl = testPgAdminUrl();

describe.runIf(adminUrl)("tsquery round trip (PostgreSQL, simple configuration)", () => {
  let client: pg.Client;
  const docs = [
    "export function getUserById(id: string) { return db.users.find(id) }",
    "def parse_config_v2(path):\n    raise ConfigError('bad config')",
    "class HTTPServerError extends Error {}",
    "render chart axis labels",
  ];

  beforeAll(async () => {
    client = new pg.Client({ connectionString: adminUrl! });
    await client.connect();
    await client.query("SET client_min_messages = warning");
    await client.query(
      `CREATE TEMP TABLE docs (id int, title text, path text, "searchText" text, v tsvector GENERATED ALWAYS AS (${PG_SEARCH_VECTOR_SQL}) STORED)`,
    );
    for (const [i, doc] of docs.entries()) {
      await client.query(`INSERT INTO docs (id, title, path, "searchText") VALUES ($1, '', 'src/x.ts', $2)`, [
        i + 1,
        indexText(doc),
      ]);
    }
  });

  afterAll(() => client?.end());

  async function search(question: string): Promise<number[]> {
    const match = ftsMatchExpression(queryTerms(question));
    const query = match && ftsMatchToTsQuery(match);
    if (!query) return [];
    const result = await client.query<{ id: number }>(
      `SELECT id FROM docs, to_tsquery('simple', $1) q WHERE v @@ q ORDER BY ts_rank('{0, 0.5, 0.75, 1.0}', v, q, 0) DESC, id`,
      [query],
    );
    return result.rows.map((r) => r.id);
  }

  it("finds camelCase code from split words and from the snake_case spelling", async () => {
    expect((await search("how do we get a user by id"))[0]).toBe(1);
    expect((await search("get_user_by_id"))[0]).toBe(1);
    expect((await search("ParseConfigV2 raises"))[0]).toBe(2);
    expect((await search("http server error"))[0]).toBe(3);
  });

  it("splits title and path at punctuation, as FTS5 does", async () => {
    const { rows } = await client.query<{ v: string }>(
      `SELECT (${PG_SEARCH_VECTOR_SQL})::text AS v FROM (SELECT 'OrderService.create' AS title, 'app/helpers.py' AS path, 'x' AS "searchText") t`,
    );
    expect(rows[0]?.v).toBe("'app':3B 'create':2A 'helpers':4B 'orderservice':1A 'py':5B 'x':6C");
  });

  it("never produces a tsquery syntax error, whatever the input", async () => {
    for (const input of HOSTILE_QUERIES) {
      for (const match of [ftsMatchExpression(queryTerms(input)), ftsMatchExpression([input])]) {
        const query = match && ftsMatchToTsQuery(match);
        if (!query) continue;
        await expect(client.query(`SELECT to_tsquery('simple', $1)`, [query])).resolves.toBeDefined();
      }
    }
  });

  it("handles a very long OR chain", async () => {
    const match = ftsMatchExpression(Array.from({ length: 2000 }, (_, i) => `t${i}`));
    const query = ftsMatchToTsQuery(match!);
    await expect(
      client.query(`SELECT count(*) FROM docs WHERE v @@ to_tsquery('simple', $1)`, [query]),
    ).resolves.toBeDefined();
  });
});
