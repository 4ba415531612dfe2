/**
 * The planted-secrets repository (test-support/planted-secrets.ts: more than forty
 * forms of secret inside ordinary files, secret files skipped by name or by content, and
 * lookalikes that are no secret) indexed by the real indexer into a real database, then
 * searched, asked about, browsed and dumped: no secret, nor a piece of one, is
 * searchable, citable or shown anywhere, while the code around them and every
 * lookalike still are.
 *
 * Covered: lexical and hybrid search, the chat (POST /api/qa, the whole stream:
 * answer, citations, snippets), the source view's reader (every file's stored text),
 * the wiki (GET /api/repos/[id]/wiki for every page), the MCP endpoint (search,
 * read_span, wiki_page and ask through the SDK's client over HTTP), the admins'
 * secrets report, and every text column of every table of the database.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { snapshotOf, visibleIn } from "@/lib/db/snapshot";
import { getFileContent } from "@/lib/db/index-reads";
import { listWikiPages } from "@/lib/db/wiki-store";
import { env } from "@/lib/env";
import { indexRepository } from "@/lib/builds/build";
import type { BuildStats } from "@/lib/builds/types";
import { hybridSearch, lexicalSearch } from "@/lib/search/hybrid";
import { plantedSecretsRepository } from "@/test-support/planted-secrets";
import { startServer, type TestServer } from "@/test-support/qa-http";
import { setupTempEnv, type TempEnv } from "@/test-support/temp-env";
import { POST as mcp } from "./mcp/route";
import { GET as secretsReport } from "./admin/secrets/route";
import { POST as ask } from "./qa/route";
import { GET as wiki } from "./repos/[id]/wiki/route";
import { ensureAdminToken } from "@/lib/auth/admin-token";

const planted = plantedSecretsRepository();
/** Every string that must appear nowhere: each secret, a piece of it, and each secret file's value. */
const FORBIDDEN = [
  ...planted.secrets.flatMap((s) => [s.value, s.fragment]),
  ...planted.secretFiles.map((f) => f.value),
];

let t: TempEnv;
let repositoryId: string;
let generationId: string;
let stats: BuildStats;

function leaks(text: string): string[] {
  return FORBIDDEN.filter((secret) => text.includes(secret));
}

beforeAll(async () => {
  t = await setupTempEnv();
  const root = t.makeRepo(planted.files, "planted-secrets");
  const result = await indexRepository(root, { name: "planted" });
  repositoryId = result.repository.id;
  generationId = result.stats.generationId;
  stats = result.stats;
});
afterAll(async () => t?.cleanup());

describe("a repository with planted secrets", () => {
  it("was indexed with every secret file skipped and every secret redacted, and the code kept", async () => {
    expect(planted.secrets.length).toBeGreaterThanOrEqual(40);
    expect(stats.secrets.skippedFiles).toBe(planted.secretFiles.length);
    expect(stats.secrets.redactions).toBe(planted.secrets.length);
    expect(stats.skipped.secret).toBe(planted.secretFiles.length);
    // Not vacuous: the files are there, their code is searchable, the markers are in place.
    const orders = await lexicalSearch(generationId, "place_order");
    expect(orders.map((h) => h.path)).toContain("shop/orders.py");
    expect(await getFileContent(generationId, "shop/settings.py")).toContain(
      'GITHUB_TOKEN = "[redacted github secret]"',
    );
  });

  it("finds no secret through lexical or hybrid search", async () => {
    for (const secret of planted.secrets) {
      for (const query of [secret.value, secret.fragment, `${secret.form} ${secret.path}`]) {
        const hits = [
          ...(await lexicalSearch(generationId, query, { limit: 50 })),
          ...(await hybridSearch(repositoryId, generationId, query, { limit: 50 })),
        ];
        expect(leaks(JSON.stringify(hits)), `${secret.form}: ${query.slice(0, 30)}`).toEqual([]);
      }
    }
  });

  it("never stores a secret in a file's text (what the source view and citations read)", async () => {
    const files = await (
      await db()
    ).file.findMany({
      where: visibleIn(await snapshotOf(generationId)),
      select: { path: true },
    });
    expect(files.length).toBeGreaterThanOrEqual(30);
    for (const secretFile of planted.secretFiles)
      expect(files.map((f) => f.path)).not.toContain(secretFile.path);
    for (const file of files) {
      expect(leaks((await getFileContent(generationId, file.path)) ?? ""), file.path).toEqual([]);
    }
  });

  it("keeps every lookalike visible: placeholders, references, certificates, public keys, signatures, examples", async () => {
    for (const lookalike of planted.lookalikes) {
      const text = (await getFileContent(generationId, lookalike.path)) ?? "";
      expect(text, `${lookalike.form}: ${lookalike.text.slice(0, 40)}`).toContain(lookalike.text);
    }
    const hits = await lexicalSearch(generationId, "bert-base-uncased tokenizer_model", { limit: 5 });
    expect(hits.map((h) => h.path)).toContain("shop/lookalikes.py");
  });

  it("shows no secret on any wiki page", async () => {
    const pages = await listWikiPages(generationId);
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages) {
      const response = await wiki(
        new Request(`http://localhost/api/repos/${repositoryId}/wiki?slug=${encodeURIComponent(page.slug)}`),
        { params: Promise.resolve({ id: repositoryId }) },
      );
      expect(response.status, page.slug).toBe(200);
      expect(leaks(await response.text()), page.slug).toEqual([]);
    }
  });

  it("answers questions about the secrets without citing or showing one", async () => {
    const questions = [
      "What is the GITHUB_TOKEN in shop/settings.py?",
      "What does database_url return and what is DATABASE_URL?",
      "Show me SIGNING_KEY in shop/keys.py",
      "Which aws_secret_access_key does config/aws.ini use?",
      "What is the slack bot_token in config/chat.yaml?",
      "Where does notifyOrder post, what is WEBHOOK?",
      "What is STRIPE_KEY used by chargeCard?",
      "How does scripts/deploy.sh push, with which credentials?",
      "Which npm _authToken does the README give?",
      "What is AnthropicKey in svc/client.go?",
      "What token is in ci/gitlab.toml?",
      "What is in .env and deploy/id_rsa?",
      "What are ADMIN_PASSWORD, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in shop/settings.py?",
      "Show LEGACY_KEY and EDGE_KEY in shop/keys.py",
      "What is the password and db_password in config/app.yaml, and the tls private_key?",
      "Which password and apiKey does config/settings.json hold?",
      "What is DEPLOY_KEY and API_KEY in svc/src/lib.rs?",
      "What is legacy_key and db_password in native/auth.c?",
      "What are $password, db_password and SECRET_KEY in web/config.php?",
      "Show the PuTTY key in docs/putty.txt and the release key in docs/signing.md",
    ];
    for (const [i, question] of questions.entries()) {
      const response = await ask(
        new Request("http://localhost/api/qa", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            id: `planted-${i}`,
            messages: [{ id: `m-${i}`, role: "user", parts: [{ type: "text", text: question }] }],
            trigger: "submit-message",
            repositoryId,
          }),
        }),
      );
      expect(response.status, question).toBe(200);
      const stream = await response.text();
      expect(stream, question).toContain('"type":"finish"');
      expect(leaks(stream), question).toEqual([]);
    }
  });

  it("gives MCP clients no secret through search, read_span, wiki_page or ask", async () => {
    let server: TestServer | undefined;
    const client = new Client({ name: "planted-secrets", version: "1.0.0" });
    try {
      server = await startServer(async (request) => mcp(request));
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`)));
      const results: unknown[] = [];
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name, arguments: { repository: repositoryId, ...args } });
        results.push(result);
        return result;
      };
      for (const secret of planted.secrets) {
        for (const mode of ["lexical", "hybrid"]) await call("search", { query: secret.fragment, mode });
        await call("read_span", { path: secret.path });
      }
      for (const file of planted.secretFiles) {
        const refused = await call("read_span", { path: file.path });
        expect(refused.isError, file.path).toBe(true);
      }
      for (const page of await listWikiPages(generationId)) await call("wiki_page", { page: page.slug });
      await call("ask", { question: "What is the GITHUB_TOKEN and the DATABASE_URL in shop/settings.py?" });
      await call("ask", { question: "Show me SIGNING_KEY in shop/keys.py and the STRIPE_KEY of chargeCard" });
      await call("ask", {
        question: "What are ADMIN_PASSWORD and AWS_ACCESS_KEY_ID, and what is in config/app.yaml?",
      });
      const text = JSON.stringify(results);
      expect(text).toContain("[redacted github secret]");
      expect(leaks(text)).toEqual([]);
    } finally {
      await client.close();
      await server?.close();
    }
  });

  it("lists what was kept out for admins, by path and line, never by value", async () => {
    const response = await secretsReport(
      new Request("http://localhost/api/admin/secrets", {
        headers: { authorization: `Bearer ${ensureAdminToken().token}` },
      }),
    );
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(leaks(text)).toEqual([]);
    const body = JSON.parse(text) as {
      repositories: { secrets: { items: { path: string; line: number | null }[] } }[];
    };
    const items = body.repositories[0]?.secrets.items ?? [];
    expect(items).toContainEqual(expect.objectContaining({ path: "shop/settings.py", line: 2 }));
    expect(items).toContainEqual(expect.objectContaining({ path: ".env", line: null }));
  });

  it("holds no secret in any text column of any table", async () => {
    const client = await db();
    const tables =
      env().databaseKind === "postgres"
        ? (
            await client.$queryRawUnsafe<{ name: string }[]>(
              "SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = current_schema()",
            )
          ).map((r) => r.name)
        : (
            await client.$queryRawUnsafe<{ name: string }[]>(
              "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_data' AND name NOT LIKE '%_idx' AND name NOT LIKE '%_docsize' AND name NOT LIKE '%_config'",
            )
          ).map((r) => r.name);
    expect(tables).toEqual(
      expect.arrayContaining(["Blob", "Chunk", "File", "Symbol", "WikiPage", "Message"]),
    );
    let rows = 0;
    for (const table of tables) {
      // PostgreSQL rows leave as JSON text, so columns the client cannot decode
      // (tsvector, name) are read too.
      const all =
        env().databaseKind === "postgres"
          ? await client.$queryRawUnsafe<{ row: string }[]>(
              `SELECT row_to_json(t)::text AS row FROM "${table}" t`,
            )
          : await client.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM "${table}"`);
      rows += all.length;
      const text = JSON.stringify(all, (_key, value: unknown) =>
        typeof value === "bigint" ? String(value) : value,
      );
      expect(leaks(text), table).toEqual([]);
    }
    expect(rows).toBeGreaterThan(100);
  });
});
