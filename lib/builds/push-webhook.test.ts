/**
 * Push webhooks and refresh settings over real HTTP, with a real Git remote: a commit
 * pushed to a bare repository, the forge's signed delivery posted to the route, the
 * queued build run by a worker. Bad or missing signatures get 401 and change nothing;
 * a burst of pushes queues one build.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as hook } from "../../app/api/repos/[id]/hook/route.ts";
import { GET as getSchedule, PUT as putSchedule } from "../../app/api/repos/[id]/schedule/route.ts";
import { getGeneration, listGenerations } from "../db/generations.ts";
import { requireRepository } from "../db/repositories.ts";
import { getSource } from "../db/source-store.ts";
import { resetEnvForTests } from "../env.ts";
import { indexRepository } from "./build.ts";
import { startIndexWorker } from "./worker.ts";
import { makeGitRemote, type GitRemoteFixture } from "../../test-support/git-remote.ts";
import { startServer, type TestServer } from "../../test-support/qa-http.ts";
import { setupTempEnv, type TempEnv } from "../../test-support/temp-env.ts";
import { registerGitRepository } from "../sources/checkout.ts";
import { webhookSecret } from "../sources/webhook.ts";

const ADMIN = "test-admin-token-0123456789";
let t: TempEnv;
let server: TestServer;

beforeAll(async () => {
  t = await setupTempEnv();
  process.env.WAYFINDER_INDEX_WORKER = "external";
  process.env.ADMIN_TOKEN = ADMIN;
  resetEnvForTests();
  server = await startServer(async (request, url) => {
    const match = /^\/api\/repos\/([^/]+)\/(hook|schedule)$/.exec(url.pathname);
    if (!match) return new Response("not found", { status: 404 });
    const context = { params: Promise.resolve({ id: decodeURIComponent(match[1]!) }) };
    if (match[2] === "hook") return hook(request, context);
    return request.method === "PUT" ? putSchedule(request, context) : getSchedule(request, context);
  });
});
afterAll(async () => {
  delete process.env.WAYFINDER_INDEX_WORKER;
  delete process.env.ADMIN_TOKEN;
  await server?.close();
  await t?.cleanup();
});

async function gitRepository(name: string): Promise<{ id: string; remote: GitRemoteFixture }> {
  const remote = makeGitRemote(t.base, name, { "app.py": "def start():\n    return 0\n" });
  const repository = await registerGitRepository({ url: remote.bare, branch: "main" });
  await indexRepository(repository.id);
  return { id: repository.id, remote };
}

function pushPayload(head: string, ref = "refs/heads/main") {
  return JSON.stringify({ ref, before: "0".repeat(40), after: head, repository: { default_branch: "main" } });
}

function deliver(id: string, body: string, headers: Record<string, string>) {
  return fetch(`${server.url}/api/repos/${id}/hook`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
}

const sign = (secret: string, body: string) => createHmac("sha256", secret).update(body).digest("hex");
const github = (id: string, body: string, event = "push") => ({
  "x-github-event": event,
  "x-hub-signature-256": `sha256=${sign(webhookSecret(id), body)}`,
});

async function runQueuedBuilds(): Promise<number> {
  return (await startIndexWorker({ once: true, log: () => undefined }).done).built;
}

async function activeCommit(id: string) {
  const repository = await requireRepository(id);
  return (await getGeneration(repository.activeGenerationId!))?.commitSha;
}

describe("POST /api/repos/<id>/hook", () => {
  it("a signed GitHub push queues a build of the pushed commit", async () => {
    const { id, remote } = await gitRepository("hooked");
    const head = remote.push({
      "app.py": "def start():\n    return 1\n\n\ndef pushed_feature():\n    return 2\n",
    });
    const body = pushPayload(head);
    const response = await deliver(id, body, github(id, body));
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({
      provider: "github",
      action: "received",
      head,
      build: { queued: true, generation: 2 },
    });
    expect(await runQueuedBuilds()).toBe(1);
    expect(await activeCommit(id)).toBe(head);
  });

  it("refuses a bad or missing signature with 401 and queues nothing", async () => {
    const { id, remote } = await gitRepository("forged");
    const head = remote.push({ "app.py": "def start():\n    return 9\n" });
    const body = pushPayload(head);
    const before = await listGenerations(id, 10);
    const attempts: Record<string, string>[] = [
      { "x-github-event": "push", "x-hub-signature-256": `sha256=${sign("not-the-secret", body)}` },
      { "x-github-event": "push", "x-hub-signature-256": `sha256=${sign(webhookSecret(id), `${body} `)}` },
      {
        "x-github-event": "push",
        "x-hub-signature-256": `sha256=${sign(webhookSecret("other-repo"), body)}`,
      },
      { "x-gitlab-event": "Push Hook", "x-gitlab-token": "guess" },
      { "x-gitea-event": "push", "x-gitea-signature": "00" },
      { "x-github-event": "push" },
    ];
    for (const headers of attempts) {
      const response = await deliver(id, body, headers);
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(await response.json()).toEqual({
        error: { code: "unauthorized:webhook", message: "The webhook signature does not match." },
      });
    }
    expect(await listGenerations(id, 10)).toEqual(before);
    expect((await getSource(id))?.remoteHeadSha).not.toBe(head);
    // Unknown repositories cannot be probed without a valid signature either.
    expect((await deliver("nope", body, github(id, body))).status).toBe(401);
  });

  it("takes GitLab's token and Gitea's signature, answers pings and ignores other branches", async () => {
    const { id, remote } = await gitRepository("forges");
    const ping = JSON.stringify({ zen: "Keep it logically awesome." });
    expect(await (await deliver(id, ping, github(id, ping, "ping"))).json()).toMatchObject({
      action: "pong",
    });

    const feature = remote.push({ "f.py": "x = 1\n" }, "feature work", "feature");
    const other = pushPayload(feature, "refs/heads/feature");
    const ignored = await deliver(id, other, github(id, other));
    expect(await ignored.json()).toMatchObject({
      action: "ignored",
      reason: expect.stringMatching(/not the followed branch main/),
    });

    const head = remote.push({ "app.py": "def start():\n    return 3\n" });
    const body = pushPayload(head);
    const gitlab = await deliver(id, body, {
      "x-gitlab-event": "Push Hook",
      "x-gitlab-token": webhookSecret(id),
    });
    expect(await gitlab.json()).toMatchObject({
      provider: "gitlab",
      action: "received",
      build: { queued: true },
    });
    const gitea = await deliver(id, body, {
      "x-gitea-event": "push",
      "x-gitea-signature": sign(webhookSecret(id), body),
    });
    expect(await gitea.json()).toMatchObject({
      provider: "gitea",
      action: "received",
      build: { queued: false, reason: "already-queued" },
    });
    expect(await runQueuedBuilds()).toBe(1);
    expect(await activeCommit(id)).toBe(head);
  });

  it("queues one build however many pushes arrive at once", async () => {
    const { id, remote } = await gitRepository("burst-hook");
    const heads = [1, 2, 3, 4, 5].map((i) => remote.push({ "app.py": `def start():\n    return ${i}\n` }));
    const responses = await Promise.all(
      heads.map((h) => {
        const body = pushPayload(h);
        return deliver(id, body, github(id, body));
      }),
    );
    expect(responses.map((r) => r.status)).toEqual([202, 202, 202, 202, 202]);
    const queued = (await listGenerations(id, 20)).filter((g) => g.status === "queued");
    expect(queued).toHaveLength(1);
    expect(await runQueuedBuilds()).toBe(1);
    // The one build fetched the branch as it is now: the last push.
    expect(await activeCommit(id)).toBe(heads[4]);
    expect(await runQueuedBuilds()).toBe(0);
  });

  it("refuses pushes for a folder repository and payloads that are not JSON", async () => {
    const root = t.makeRepo({ "a.py": "x = 1\n" });
    const { repository } = await indexRepository(root);
    const body = pushPayload("a".repeat(40));
    const folder = await deliver(repository.id, body, github(repository.id, body));
    expect(folder.status).toBe(409);
    const { id } = await gitRepository("garbled");
    const garbled = "{not json";
    const response = await deliver(id, garbled, github(id, garbled));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: "bad_request:webhook" } });
  });
});

describe("PUT /api/repos/<id>/schedule", () => {
  const put = (id: string, body: unknown, token: string | null = ADMIN) =>
    fetch(`${server.url}/api/repos/${id}/schedule`, {
      method: "PUT",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });

  it("is an admin action that sets the poll interval and shows the webhook", async () => {
    const { id } = await gitRepository("scheduled");
    expect((await put(id, { pollMinutes: 5 }, null)).status).toBe(401);
    expect((await put(id, { pollMinutes: 5 }, "wrong-token-wrong-token")).status).toBe(401);
    expect((await fetch(`${server.url}/api/repos/${id}/schedule`)).status).toBe(401);

    const response = await put(id, { pollMinutes: 5 });
    expect(response.status).toBe(200);
    const settings = await response.json();
    expect(settings).toMatchObject({
      pollMinutes: 5,
      source: { kind: "git", branch: "main" },
      webhook: { path: `/api/repos/${id}/hook`, secret: webhookSecret(id) },
    });
    expect(new Date(settings.nextPollAt).getTime()).toBeGreaterThan(Date.now() + 4 * 60_000);
    const read = await fetch(`${server.url}/api/repos/${id}/schedule`, {
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    expect(await read.json()).toMatchObject({ pollMinutes: 5 });
    expect(await (await put(id, { pollMinutes: null })).json()).toMatchObject({
      pollMinutes: null,
      nextPollAt: null,
    });
  });

  it("refuses bad intervals and folder repositories with clear messages", async () => {
    const { id } = await gitRepository("bad-schedule");
    for (const [body, message] of [
      [{ pollMinutes: 0 }, /at most once a minute/],
      [{ pollMinutes: 1.5 }, /whole number/],
      [{ pollMinutes: "5" }, /number of minutes or null/],
      [{ pollMinutes: 100_000 }, /at least once a week/],
    ] as const) {
      const response = await put(id, body);
      expect(response.status).toBe(400);
      expect((await response.json()).error.message).toMatch(message);
    }
    const root = t.makeRepo({ "b.py": "y = 2\n" });
    const { repository } = await indexRepository(root);
    const folder = await put(repository.id, { pollMinutes: 5 });
    expect(folder.status).toBe(409);
    expect((await folder.json()).error.message).toMatch(/local folder/);
  });
});
