/**
 * Response headers that keep pages from being framed, sniffed or scripted by anyone
 * else: a strict, nonce-based Content-Security-Policy per request (Next.js puts the
 * nonce on its own scripts when it finds it in the request's CSP header). The static
 * headers every response carries (frame, content-type, referrer) are in next.config.mjs.
 *
 * Scripts: only this origin's, with the request's nonce, and what they load
 * ('strict-dynamic'). Styles allow inline: shiki colours tokens with style attributes;
 * no script can come in that way.
 */

export function contentSecurityPolicy(nonce: string, options: { dev: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
