/**
 * A real OpenID Connect provider for the sign-in specs (the `oidc-provider` package
 * with its development login pages: any login name, any password). Account `x` gets
 * the email x@example.test; names starting with `out-` get one at elsewhere.test, to
 * test WAYFINDER_OIDC_ALLOWED.
 */
import type { Server } from "node:http";
import Provider from "oidc-provider";

export interface LocalIdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop(): Promise<void>;
}

export async function startIdentityProvider(options: {
  port: number;
  redirectUri: string;
}): Promise<LocalIdentityProvider> {
  const issuer = `http://127.0.0.1:${options.port}`;
  const clientId = "wayfinder-e2e";
  const clientSecret = "e2e-client-secret-0123456789abcdef";
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    findAccount: async (_ctx, id) => ({
      accountId: id,
      claims: async () => ({
        sub: `sub-${id}`,
        email: `${id}@${id.startsWith("out-") ? "elsewhere.test" : "example.test"}`,
        email_verified: true,
        name: id,
      }),
    }),
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // Auth.js reads the profile from the ID token: put the requested claims in it.
    conformIdTokenClaims: false,
    cookies: { keys: ["e2e-cookie-key-0123456789abcdef"] },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
  });
  const server: Server = provider.listen(options.port);
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  return {
    issuer,
    clientId,
    clientSecret,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
