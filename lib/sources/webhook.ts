/**
 * Who may send a push webhook, for GitHub, Gitea/Forgejo and GitLab. Each repository
 * has its own secret, derived from a server key (WAYFINDER_WEBHOOK_SECRET, else the
 * admin token) and the repository id, so no secret is stored in the database and every
 * web instance computes the same one. A request is authenticated by the secret alone —
 * an HMAC-SHA256 of the raw body (GitHub's X-Hub-Signature-256, Gitea's and Forgejo's
 * X-*-Signature) or GitLab's X-Gitlab-Token — before anything else is looked at
 * (lib/builds/push-webhook.ts applies a delivery once it is verified).
 */
import "server-only";
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { ensureAdminToken } from "../auth/admin-token.ts";
import { env } from "../env.ts";

export type WebhookProvider = "github" | "gitea" | "gitlab";

/** The secret to configure in the forge's webhook settings for this repository. */
export function webhookSecret(repositoryId: string): string {
  const key = env().WAYFINDER_WEBHOOK_SECRET ?? ensureAdminToken().token;
  return createHmac("sha256", key)
    .update(`wayfinder-webhook|${repositoryId}`)
    .digest("base64url")
    .slice(0, 40);
}

/** Constant-time comparison of two strings of any length (both are hashed first). */
function same(a: string, b: string): boolean {
  return timingSafeEqual(createHash("sha256").update(a).digest(), createHash("sha256").update(b).digest());
}

/** Which forge signed the request with this secret, or null when nothing it sent matches. */
export function verifyWebhookSignature(
  headers: Headers,
  body: Buffer,
  secret: string,
): WebhookProvider | null {
  const hmac = createHmac("sha256", secret).update(body).digest("hex");
  const forgeHeader = headers.get("x-gitea-signature") ?? headers.get("x-forgejo-signature");
  if (forgeHeader !== null) return same(forgeHeader.trim().toLowerCase(), hmac) ? "gitea" : null;
  const hub = headers.get("x-hub-signature-256");
  if (hub !== null) {
    const ok = same(hub.trim().toLowerCase(), `sha256=${hmac}`);
    return ok ? (headers.has("x-gitea-event") || headers.has("x-forgejo-event") ? "gitea" : "github") : null;
  }
  const token = headers.get("x-gitlab-token");
  if (token !== null) return same(token, secret) ? "gitlab" : null;
  return null;
}
