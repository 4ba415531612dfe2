/**
 * The build's file report as people read it: a repository with a file over the size
 * limit, a non-UTF-8 file, a file whose parse runs past its budget, and vendored,
 * minified and generated files. The repository view (GET /api/repos, which the card
 * polls) and the card itself list the skipped and unparsed files with why and what to
 * do; the admins' report (GET /api/admin/files, /admin/files) counts files per class.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileReports } from "@/components/admin/file-reports";
import { RepositoryCard } from "@/components/repos/repository-card";
import type { RepositoryFileReport } from "@/lib/admin/file-reports";
import { ensureAdminToken } from "@/lib/auth/admin-token";
import type { RepositoryView } from "@/lib/db/ui-queries";
import { indexRepository } from "@/lib/builds/build";
import { callChain, latin1Source, minifiedLine } from "@/test-support/pathological";
import { setupTempEnv, type TempEnv } from "@/test-support/temp-env";
import { GET as listRepositories } from "../../repos/route";
import { GET as fileReports } from "./route";

let t: TempEnv;
beforeAll(async () => {
  t = await setupTempEnv();
  delete process.env.ADMIN_TOKEN;
  const root = t.makeRepo(
    {
      "shop/app.py": "def main():\n    return total()\n\n\ndef total():\n    return 1\n",
      "shop/huge.py": `# a table\nROWS = [\n${"    (1, 2, 3),\n".repeat(20_000)}]\n`,
      "shop/latin1.py": latin1Source(),
      "shop/chain.js": callChain(20_000).replace(/\)\./g, ")\n  ."),
      "web/chart.js": minifiedLine(64 * 1024),
      "third_party/left_pad.py": "def left_pad(s, n):\n    return s.rjust(n)\n",
      "shop/parser.c": "/* A Bison parser, made by GNU Bison 3.8. */\nint yyparse(void) { return 0; }\n",
    },
    "shop-report",
  );
  await indexRepository(root, {
    maxFileBytes: 256 * 1024,
    parseBudget: { baseSeconds: 0.5, secondsPerMb: 0 },
  });
});
afterAll(async () => {
  await t?.cleanup();
});

async function repositoryView(): Promise<RepositoryView> {
  const response = await listRepositories(new Request("http://localhost/api/repos"), {
    params: Promise.resolve({}),
  });
  expect(response.status).toBe(200);
  const { repositories } = (await response.json()) as { repositories: RepositoryView[] };
  expect(repositories).toHaveLength(1);
  return repositories[0] as RepositoryView;
}

describe("the build's file report", () => {
  it("reaches the repository view with each skipped and unparsed file's reason", async () => {
    const report = (await repositoryView()).active?.stats.report;
    expect(report?.skipped).toEqual({ "too-large": 1, "not-utf8": 1 });
    expect(report?.skippedFiles).toEqual([
      { path: "shop/huge.py", reason: "too-large", detail: "293 KB, limit 256 KB" },
      { path: "shop/latin1.py", reason: "not-utf8", detail: "first invalid byte on line 1" },
    ]);
    expect(report?.unparsedFiles).toEqual([{ path: "shop/chain.js", reason: "timeout: over 0.5 s" }]);
    expect(report?.unparsedCount).toBe(1);
    expect(report?.fileClasses).toEqual({ vendored: 1, minified: 1, generated: 1 });
  });

  it("is shown on the repository card: the file, why, and what to do", async () => {
    const view = await repositoryView();
    const html = renderToStaticMarkup(
      createElement(
        QueryClientProvider,
        { client: new QueryClient() },
        createElement(RepositoryCard, { repository: view, canManage: false }),
      ),
    );
    const text = html.replace(/<[^>]+>/g, "");
    expect(text).toContain("2 files skipped · 1 file indexed as text · 1 vendored, 1 generated, 1 minified");
    expect(text).toContain(
      "shop/huge.py: over the file size limit (293 KB, limit 256 KB). Raise WAYFINDER_MAX_FILE_BYTES to index it",
    );
    expect(text).toContain(
      "shop/latin1.py: not UTF-8 text (first invalid byte on line 1). Convert it to UTF-8",
    );
    expect(text).toContain(
      "shop/chain.js: its parse took too long (over 0.5 s). If it is generated or third-party code, mark it linguist-generated",
    );
    expect(html).toContain('data-reason="too-large"');
  });

  it("gives admins the counts per class and the classified files with the rule that decided", async () => {
    const response = await fileReports(
      new Request("http://localhost/api/admin/files", {
        headers: { authorization: `Bearer ${ensureAdminToken().token}` },
      }),
      { params: Promise.resolve({}) },
    );
    expect(response.status).toBe(200);
    const { repositories } = (await response.json()) as { repositories: RepositoryFileReport[] };
    const [repository] = repositories;
    expect(repository?.report?.fileClasses).toEqual({ vendored: 1, minified: 1, generated: 1 });
    expect(repository?.classified).toEqual([
      { path: "shop/parser.c", fileClass: "generated", reason: "content: parser tables" },
      {
        path: "web/chart.js",
        fileClass: "minified",
        reason: expect.stringMatching(/^content: 1 of 1 lines are over 500 characters/),
      },
      { path: "third_party/left_pad.py", fileClass: "vendored", reason: "path: a third-party folder" },
    ]);
    const text = renderToStaticMarkup(createElement(FileReports, { repositories })).replace(/<[^>]+>/g, " ");
    expect(text).toMatch(/shop-report\s+5\s+1\s+1\s+1\s+0\s+2\s+1/); // files, vendored, generated, minified, documentation, skipped, as text
    expect(text).toContain("Raise WAYFINDER_MAX_FILE_BYTES");
  });
});
