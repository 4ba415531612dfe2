/**
 * A push webhook as a build trigger. The delivery is authenticated first (the
 * repository's secret and the forge's signature: lib/sources/webhook.ts), before
 * anything else is looked at: a wrong or missing signature is a bare 401 and changes
 * nothing. A push to the followed branch records the new head and asks for a build
 * (refresh.ts: one queued build per repository however many pushes arrive).
 */
import "server-only";
import { getSource, recordRemoteHead } from "../db/source-store.ts";
import { WayfinderError } from "../errors.ts";
import { verifyWebhookSignature, webhookSecret, type WebhookProvider } from "../sources/webhook.ts";
import { requestBuild, type BuildRequestOutcome } from "./refresh.ts";

interface PushPayload {
  ref?: unknown;
  after?: unknown;
  checkout_sha?: unknown;
  repository?: { default_branch?: unknown };
  project?: { default_branch?: unknown };
}

/** The JSON payload: the body itself, or GitHub's form encoding (`payload=<json>`). */
function payloadOf(headers: Headers, body: Buffer): PushPayload {
  const type = headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  const text =
    type === "application/x-www-form-urlencoded"
      ? (new URLSearchParams(body.toString("utf8")).get("payload") ?? "")
      : body.toString("utf8");
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === "object") return value as PushPayload;
  } catch {
    // reported below
  }
  throw new WayfinderError("bad_request:webhook", "The webhook payload is not JSON.");
}

function eventOf(headers: Headers): string {
  return (
    headers.get("x-github-event") ??
    headers.get("x-gitea-event") ??
    headers.get("x-forgejo-event") ??
    headers.get("x-gitlab-event") ??
    ""
  ).toLowerCase();
}

export type WebhookResult =
  | { provider: WebhookProvider; action: "pong" }
  | { provider: WebhookProvider; action: "ignored"; reason: string }
  | { provider: WebhookProvider; action: "received"; head: string; build: BuildRequestOutcome };

const ZERO_SHA = /^0+$/;

/** Authenticates and applies one webhook delivery (see the module comment). */
export async function handlePushWebhook(input: {
  repositoryId: string;
  headers: Headers;
  body: Buffer;
}): Promise<WebhookResult> {
  const provider = verifyWebhookSignature(input.headers, input.body, webhookSecret(input.repositoryId));
  if (!provider) throw new WayfinderError("unauthorized:webhook", "The webhook signature does not match.");
  const source = await getSource(input.repositoryId);
  if (!source) throw new WayfinderError("not_found:repository", "No such repository.");
  if (source.sourceKind !== "git") {
    throw new WayfinderError(
      "conflict:not_git",
      `"${source.name}" is a local folder; push webhooks apply to Git sources.`,
    );
  }
  const event = eventOf(input.headers);
  if (event === "ping") return { provider, action: "pong" };
  if (event !== "push" && event !== "push hook") {
    return { provider, action: "ignored", reason: `not a push event (${event || "no event header"})` };
  }
  const payload = payloadOf(input.headers, input.body);
  const ref = typeof payload.ref === "string" ? payload.ref : "";
  const head = typeof payload.after === "string" ? payload.after : "";
  const branch =
    source.gitBranch ??
    [payload.repository?.default_branch, payload.project?.default_branch].find((b) => typeof b === "string");
  if (!ref.startsWith("refs/heads/"))
    return { provider, action: "ignored", reason: `not a branch push (${ref || "no ref"})` };
  if (branch && ref !== `refs/heads/${branch}`) {
    return {
      provider,
      action: "ignored",
      reason: `push to ${ref.slice(11)}, not the followed branch ${branch}`,
    };
  }
  if (!/^[0-9a-f]{40,64}$/i.test(head) || ZERO_SHA.test(head)) {
    return { provider, action: "ignored", reason: "the branch was deleted or the push names no commit" };
  }
  await recordRemoteHead(source.id, head.toLowerCase());
  return {
    provider,
    action: "received",
    head: head.toLowerCase(),
    build: await requestBuild(source.id, head.toLowerCase()),
  };
}
