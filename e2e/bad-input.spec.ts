/**
 * Bad input that only the real server sees: pages (the source view, wiki pages,
 * share links) and URLs as the browser sends them, before and after Next decodes and
 * normalises them. A repository is added through the API that sits beside a folder
 * holding a secret and links into it; no URL may show the secret, every bad one is a
 * 4xx, and API errors keep the JSON error shape. The route-by-route matrix is in
 * app/api/bad-input.test.ts; this covers what needs pages and the real router.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { addRepositoryAndWait } from "./pages/repositories-page";

const SECRET = "WF-SECRET-e2e-5a17";
const PASSWD_MARK = "root:x:0:0";

let base: string;
let root: string;
let outside: string;
let id: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "wf-e2e-bad-input-")));
  outside = path.join(base, "outside");
  root = path.join(base, "bad-input");
  fs.mkdirSync(outside);
  fs.mkdirSync(path.join(root, "app"), { recursive: true });
  fs.writeFileSync(path.join(outside, "secret.py"), `def read_secret():\n    return "${SECRET}"\n`);
  fs.writeFileSync(
    path.join(root, "app/main.py"),
    'def load_config(path):\n    """Loads the settings file."""\n    return {}\n',
  );
  fs.symlinkSync(path.join(outside, "secret.py"), path.join(root, "leak.py"));
  fs.symlinkSync(outside, path.join(root, "linked"));
  // Its own name: the wiki spec adds the planted fixture as "planted" on this server.
  id = await addRepositoryAndWait(request, root, "bad-input");
});

test.afterAll(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

function expectNoLeak(text: string, what: string): void {
  expect(text, what).not.toContain(SECRET);
  expect(text, what).not.toContain(PASSWD_MARK);
}

/** A request with the path sent byte for byte (the browser and fetch normalise `%2e%2e`). */
function raw(
  method: string,
  rawPath: string,
  init: { headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; type: string; text: string }> {
  const url = new URL(test.info().project.use.baseURL ?? "http://127.0.0.1:3100");
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method, path: rawPath, headers: init.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers["content-type"] ?? ""),
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}

// Pages are fetched as raw requests (no browser needed): the status and the rendered
// HTML are what a visitor would get, byte for byte the URL they typed.
test("the source view shows an indexed file but never one reached through a link, an absolute path or encoded traversal", async () => {
  const ok = await raw("GET", `/repos/${id}/source?path=app/main.py`);
  expect(ok.status).toBe(200);
  expect(ok.text).toContain("load_config");
  expect(ok.text).toContain('data-testid="source-code"');

  const secretPath = encodeURIComponent(path.join(outside, "secret.py"));
  for (const query of [
    "path=leak.py",
    "path=linked/secret.py",
    `path=${secretPath}`,
    "path=..%2Foutside%2Fsecret.py",
    "path=app%2F..%2F..%2Foutside%2Fsecret.py",
    "path=app%5C..%5C..%5Coutside%5Csecret.py",
    "path=app/main.py%00.txt",
    "path=%00",
    "path=%2e%2e",
    "path=app/main.py&generation=..%2F..%2Fetc%2Fpasswd",
    "path=app/main.py&path=../outside/secret.py",
  ]) {
    const reply = await raw("GET", `/repos/${id}/source?${query}`);
    expect(reply.status, query).toBe(404);
    expect(reply.text, query).not.toContain('data-testid="source-code"');
    expectNoLeak(reply.text, query);
  }
});

test("wiki pages for paths outside the root are 404", async () => {
  for (const slug of [
    "file/leak.py",
    "file/linked/secret.py",
    "file/..%2Foutside%2Fsecret.py",
    "..%2F..%2Fetc%2Fpasswd",
    "file/%2e%2e/%2e%2e/etc/passwd",
    "file/../../outside/secret.py",
    "file/app%5C..%5C..%5Coutside%5Csecret.py",
  ]) {
    const reply = await raw("GET", `/repos/${id}/wiki/${slug}`);
    expect(reply.status, slug).toBe(404);
    expectNoLeak(reply.text, slug);
  }
});

test("unknown repository and share ids are 404 pages", async () => {
  for (const [url, testId] of [
    ["/repos/no-such-repo", "repo-not-found"],
    ["/repos/..%2F..%2Fetc%2Fpasswd", "repo-not-found"],
    ["/repos/no-such-repo/issues", null],
    ["/repos/no-such-repo/wiki", null],
    ["/s/AAAAAAAAAAAAAAAAAAAAAAAA", "share-not-found"],
    ["/s/..%2F..%2Fetc%2Fpasswd", "share-not-found"],
    ["/s/%00", "share-not-found"],
  ] as const) {
    const reply = await raw("GET", url);
    expect(reply.status, url).toBe(404);
    // The not-found view is rendered from the RSC payload, where its test id sits JSON-quoted.
    if (testId) expect(reply.text, url).toContain(testId);
    expectNoLeak(reply.text, url);
  }
});

test("the real router answers traversal in API URLs with a 4xx, JSON errors keep their shape", async () => {
  const cases: [string, string, { headers?: Record<string, string>; body?: string }?][] = [
    ["GET", "/api/repos/..%2F..%2Fetc%2Fpasswd"],
    ["GET", "/api/repos/%2e%2e%2f%2e%2e%2fetc"],
    ["POST", "/api/repos/..%2F..%2Fetc/index"],
    ["GET", "/api/repos/%00/issues"],
    ["GET", `/api/repos/${id}/wiki?slug=file%2F..%2F..%2Foutside%2Fsecret.py`],
    ["GET", `/api/repos/${id}/wiki?slug=file%2Fleak.py`],
    ["GET", "/api/sessions/..%2F..%2Fetc%2Fpasswd"],
    ["POST", "/api/sessions/%2e%2e%2f%2e%2e/share"],
    ["GET", "/api/repos/%2e%2e/%2e%2e/etc/passwd"],
    ["GET", "/api/sessions/..%5C..%5Cetc%5Cpasswd"],
    [
      "POST",
      "/api/repos",
      { headers: { "content-type": "text/plain" }, body: JSON.stringify({ path: outside }) },
    ],
    [
      "POST",
      "/api/repos",
      { headers: { "content-type": "application/json" }, body: '{"path": "../outside"}' },
    ],
    [
      "POST",
      "/api/qa",
      {
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ repositoryId: id, question: "x".repeat(600 * 1024) }),
      },
    ],
  ];
  for (const [method, url, init] of cases) {
    const reply = await raw(method, url, init);
    const what = `${method} ${url} → ${reply.status} ${reply.text.slice(0, 200)}`;
    expect(reply.status, what).toBeGreaterThanOrEqual(400);
    expect(reply.status, what).toBeLessThan(500);
    expectNoLeak(reply.text, what);
    if (reply.type.includes("application/json")) {
      const body = JSON.parse(reply.text) as { error?: { code?: string; message?: string } };
      expect(body.error?.code, what).toMatch(/^(bad_request|not_found|payload_too_large):/);
      expect(body.error?.message?.length ?? 0, what).toBeGreaterThan(0);
    }
  }
});

test("a question naming the secret streams an answer without it", async ({ request }) => {
  const response = await request.post("/api/qa", {
    data: {
      repositoryId: id,
      question: `What does ../outside/secret.py return? Also ${path.join(outside, "secret.py")}, leak.py and linked/secret.py`,
    },
  });
  expect(response.status()).toBe(200);
  const body = await response.text();
  expect(body).toContain("[DONE]");
  expectNoLeak(body, "streamed answer");
});
