/**
 * Browser side of OIDC sign-in and sign-out through Auth.js: fetch a CSRF token, post
 * the action, and follow the URL Auth.js answers with (asked for as JSON with
 * X-Auth-Return-Redirect, so the page navigates itself and no form posts off-site).
 */
async function authAction(path: string, fields: Record<string, string>): Promise<string> {
  const csrf = (await (await fetch("/api/auth/csrf", { cache: "no-store" })).json()) as {
    csrfToken?: string;
  };
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" },
    body: new URLSearchParams({ ...fields, csrfToken: csrf.csrfToken ?? "" }),
  });
  const body = (await response.json().catch(() => null)) as { url?: string } | null;
  if (!response.ok || !body?.url) throw new Error(`The sign-in service answered ${response.status}.`);
  return body.url;
}

export async function oidcSignIn(providerId: string, callbackUrl: string): Promise<void> {
  window.location.assign(await authAction(`/api/auth/signin/${providerId}`, { callbackUrl }));
}

export async function oidcSignOut(): Promise<void> {
  await authAction("/api/auth/signout", { callbackUrl: "/login" });
}
