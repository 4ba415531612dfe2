/**
 * The build's file report in the browser: a copy of the inventory fixture with a file
 * over the size limit, a non-UTF-8 file, a vendored folder and a minified bundle. Its
 * card lists the skipped files with why and what to do; the admins' Files page counts
 * the files per class.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { AdminLoginPage } from "./pages/admin-page";
import { addRepositoryAndWait, RepositoriesPage } from "./pages/repositories-page";

test("the card and the admin page report skipped and classified files", async ({ page, request }) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "wayfinder-report-"));
  fs.cpSync(path.resolve("e2e/fixtures/inventory"), root, { recursive: true });
  fs.mkdirSync(path.join(root, "assets"));
  // Over the server's 1 MiB default: skipped, with its size and the limit.
  fs.writeFileSync(
    path.join(root, "assets/catalogue.ts"),
    `export const rows = [\n${"  1,\n".repeat(300_000)}];\n`,
  );
  fs.writeFileSync(
    path.join(root, "src/legacy.ts"),
    Buffer.from("// caf\xe9\nexport const x = 1;\n", "latin1"),
  );
  fs.mkdirSync(path.join(root, "vendor"));
  fs.writeFileSync(path.join(root, "vendor/left-pad.ts"), "export const leftPad = (s: string) => s;\n");
  fs.writeFileSync(path.join(root, "assets/bundle.js"), `!function(){${"var a=f(1);".repeat(2000)}}();`);
  const name = `report-${path.basename(root)}`;
  await addRepositoryAndWait(request, root, name);

  const repos = new RepositoriesPage(page);
  await repos.goto();
  const report = repos.card(name).getByTestId("repo-report");
  await expect(report).toContainText("2 files skipped · 1 vendored, 1 minified");
  await report.locator("summary").click();
  const tooLarge = report.locator('[data-testid=repo-skipped-file][data-reason="too-large"]');
  await expect(tooLarge).toContainText("assets/catalogue.ts: over the file size limit (1.4 MB, limit 1 MB).");
  await expect(tooLarge).toContainText("Raise WAYFINDER_MAX_FILE_BYTES to index it");
  await expect(report.locator('[data-testid=repo-skipped-file][data-reason="not-utf8"]')).toContainText(
    "src/legacy.ts: not UTF-8 text (first invalid byte on line 1). Convert it to UTF-8",
  );
  await expect(report.getByTestId("repo-classes")).toContainText("1 vendored · 1 minified");

  await AdminLoginPage.open(page, "/admin/files");
  const row = page.locator(`[data-testid=file-classes-row][data-repo-name="${name}"]`);
  await expect(row.locator("[data-class=vendored]")).toHaveText("1");
  await expect(row.locator("[data-class=minified]")).toHaveText("1");
  await expect(row.locator("[data-class=generated]")).toHaveText("0");
  const section = page.locator(`[data-testid=files-repository][data-repo-name="${name}"]`);
  await expect(section.getByTestId("files-classified")).toContainText("vendor/left-pad.ts");
  await expect(section.getByTestId("files-skipped")).toContainText("assets/catalogue.ts");
});
