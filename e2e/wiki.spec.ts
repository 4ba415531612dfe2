import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { addRepositoryAndWait, repositoryId } from "./pages/repositories-page";
import { SourcePage } from "./pages/source-page";
import { IssuesPage, WikiPage } from "./pages/wiki-page";

const PLANTED = path.resolve("lib/wiki/__fixtures__/planted");

/** The planted fixture (one of each finding), added through the API on first use. */
async function plantedRepository(request: APIRequestContext): Promise<string> {
  return repositoryId(request, "planted").catch(() => addRepositoryAndWait(request, PLANTED, "planted"));
}

test("the wiki goes from the overview to a folder to a file, with a diagram and links into the source", async ({
  page,
  request,
}) => {
  const id = await repositoryId(request, "shop");
  const wiki = new WikiPage(page);
  await wiki.goto(id);
  await expect(wiki.title).toHaveText("shop overview");
  await expect(wiki.content).toContainText(
    "A small order-processing service used by Wayfinder's end-to-end tests.",
  );
  await expect(wiki.content).toContainText("Python (6 files)");

  // Overview → folder, through the navigation tree.
  await wiki.navLink("dir/shop").click();
  await expect(page).toHaveURL(new RegExp(`/repos/${id}/wiki/dir/shop$`));
  await expect(wiki.title).toHaveText("shop/");
  await expect(wiki.content).toContainText("Card payments against the (fake) payment gateway.");

  // Folder → file, through the link the folder page puts on the file's name.
  await wiki.pageLink("shop/service.py").first().click();
  await expect(page).toHaveURL(new RegExp(`/repos/${id}/wiki/file/shop/service\\.py$`));
  await expect(wiki.title).toHaveText("shop/service.py");
  await expect(wiki.article).toHaveAttribute("data-kind", "file");
  await expect(wiki.content).toContainText("called by create_order in shop/api.py");
  // The call diagram is drawn from edges on the server, and signatures are highlighted by shiki.
  await expect(wiki.diagramSvg).toBeVisible();
  await expect(wiki.article.getByTestId("diagram-svg")).toContainText("OrderService.place_order");
  await expect(wiki.code.first().locator("span[style]").first()).toBeVisible();
  await expect(wiki.navLink("file/shop/service.py")).toHaveAttribute("aria-current", "page");
  await expect(wiki.modelBadge).toHaveCount(0);
  await expect(wiki.ask).toHaveAttribute(
    "href",
    `/repos/${id}?ask=${encodeURIComponent("What does shop/service.py do, and how is it used?")}`,
  );

  // Symbol → source view at its lines.
  await wiki.sourceLink("shop/service.py:14-22").click();
  const source = new SourcePage(page);
  await expect(source.path).toHaveText("shop/service.py");
  expect(await source.markedRange()).toEqual([14, 22]);
});

test("'Ask about this file' opens the chat with the question ready", async ({ page, request }) => {
  const id = await repositoryId(request, "shop");
  const wiki = new WikiPage(page);
  await wiki.goto(id, "file/shop/pricing.py");
  await wiki.ask.click();
  await expect(new ChatPage(page).input).toHaveValue("What does shop/pricing.py do, and how is it used?");
});

test("an unknown wiki page is a 404", async ({ page, request }) => {
  const id = await repositoryId(request, "shop");
  const response = await page.goto(`/repos/${id}/wiki/file/shop/nope.py`);
  expect(response?.status()).toBe(404);
  await expect(page.getByTestId("wiki-not-found")).toBeVisible();
});

test("the issues page lists findings with filters and links each to its source", async ({
  page,
  request,
}) => {
  const shop = await repositoryId(request, "shop");
  const issues = new IssuesPage(page);
  await issues.goto(shop);
  await expect(issues.root).toBeVisible();
  await expect(issues.empty).toContainText("No findings");

  const id = await plantedRepository(request);
  await issues.goto(id);
  await expect(issues.findings).toHaveCount(12);
  // High severity first.
  await expect(issues.findings.first()).toHaveAttribute("data-severity", "high");
  await expect(issues.findings.first()).toContainText("except: pass in load_settings");

  // Titles and lists agree, and details are rendered Markdown (code spans, linked citations).
  await issues.categoryFilter("import-cycle").click();
  const cycle = issues.findings.first();
  await expect(cycle).toContainText("Import cycle between 2 files");
  const detail = cycle.getByTestId("finding-detail");
  await expect(detail.locator("code")).toHaveText(["app/a.py", "app/b.py", "app/a.py"]);
  await expect(detail).not.toContainText("`");
  await issues.categoryFilter("call-cycle").click();
  await expect(issues.findings.first().getByTestId("finding-detail").locator("a").first()).toHaveAttribute(
    "href",
    /\/source\?path=app%2Fa\.py/,
  );
  await issues.goto(id);

  await issues.categoryFilter("swallowed-exception").click();
  await expect(page).toHaveURL(/category=swallowed-exception/);
  await expect(issues.findings).toHaveCount(5);
  await issues.severityFilter("medium").click();
  await expect(page).toHaveURL(/category=swallowed-exception&severity=medium/);
  await expect(issues.findings).toHaveCount(3);

  await issues.categoryFilter("module-state").click();
  await expect(issues.findings).toHaveCount(1);
  await expect(issues.findings.first()).toContainText("_registry");
  await issues.findings.first().getByTestId("finding-location").click();
  const source = new SourcePage(page);
  await expect(source.path).toHaveText("app/registry.py");
  expect(await source.markedRange()).toEqual([3, 3]);
});

test("a conceptual question leads with the code that defines it and its file's wiki page; an analytical one gets findings and a diagram", async ({
  page,
  request,
}) => {
  const shop = await repositoryId(request, "shop");
  const chat = new ChatPage(page);
  await chat.goto(shop);
  await chat.ask("What is the order service for and how does it fit in?", { mode: "conceptual" });
  const conceptual = await chat.answer(1);
  const firstPass = conceptual.passes.first();
  await firstPass.locator("summary").first().click();
  await expect(firstPass.locator(".timeline-added li").first()).toContainText("OrderService");
  await expect(
    firstPass.locator(".timeline-added li").filter({ hasText: "Wiki: shop/service.py" }),
  ).toHaveCount(1);

  const planted = await plantedRepository(request);
  await chat.goto(planted);
  await chat.ask("How well is the app package structured? Assess coupling, cycles and hotspots.", {
    mode: "analytical",
  });
  const analytical = await chat.answer(1);
  await expect(analytical.classificationMode).toHaveText(/analytical/i);
  await expect(analytical.text).toContainText("swallowed-exception");
  await expect(analytical.text).toContainText("god-function");
  await expect(analytical.diagramSvg).toBeVisible();
});
