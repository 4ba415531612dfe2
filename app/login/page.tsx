/**
 * /login: the team access token (token mode) or the identity provider's sign-in (oidc
 * mode); open mode has nothing to sign in to. A signed-in visitor goes straight on.
 */
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AccessTokenForm } from "@/components/auth/access-token-form";
import { OidcSignIn } from "@/components/auth/oidc-sign-in";
import { accessConfig } from "@/lib/auth/config";
import { OIDC_PROVIDER_ID } from "@/lib/auth/oidc";
import { pageIdentity, safeReturnPath } from "@/lib/auth/page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in", robots: { index: false } };

/** Auth.js error codes, said plainly (anything else is a generic failure). */
const SIGN_IN_ERRORS: Record<string, string> = {
  AccessDenied: "This account may not sign in to this server.",
  Configuration: "Sign-in is not configured correctly on this server; tell whoever runs it.",
  Verification: "The sign-in link is no longer valid; try again.",
};

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const query = await searchParams;
  const next = safeReturnPath(query.next);
  const config = accessConfig();
  if (config.mode === "open" || (await pageIdentity())) redirect(next);
  const error =
    typeof query.error === "string" ? (SIGN_IN_ERRORS[query.error] ?? "Sign-in failed; try again.") : null;
  return (
    <section className="narrow-block" data-testid="login-page">
      <h1>Sign in</h1>
      <p className="muted">This Wayfinder server is for its team only.</p>
      {error ? (
        <p className="field-error" role="alert" data-testid="login-error">
          {error}
        </p>
      ) : null}
      {config.oidc ? (
        <OidcSignIn providerId={OIDC_PROVIDER_ID} providerName={config.oidc.name} next={next} />
      ) : (
        <AccessTokenForm next={next} />
      )}
    </section>
  );
}
