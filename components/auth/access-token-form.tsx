"use client";
/** The sign-in of token mode: the team access token, entered once per browser (the server keeps a signed, httpOnly cookie). */
import { TokenSignInForm } from "./token-sign-in-form";

export function AccessTokenForm({ next }: { next: string }) {
  return (
    <TokenSignInForm
      endpoint="/api/access/login"
      next={next}
      tokenLabel="Access token"
      help="Your team's token for this server; ask whoever runs it."
      nameHint="optional"
      testId="access"
    />
  );
}
