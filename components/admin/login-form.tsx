"use client";
/**
 * The admin sign-in: the token (printed at the server's first start, or by
 * `npm run wayfinder -- admin-token`) and an optional name that signs the change log.
 */
import { TokenSignInForm } from "@/components/auth/token-sign-in-form";

export function LoginForm({ next }: { next: string }) {
  return (
    <TokenSignInForm
      endpoint="/api/admin/login"
      next={next}
      tokenLabel="Admin token"
      help={
        <>
          Printed once when the server first started; <code>npm run wayfinder -- admin-token</code> shows it
          again.
        </>
      }
      nameHint="optional, shown in the change log"
      testId="login"
    />
  );
}
