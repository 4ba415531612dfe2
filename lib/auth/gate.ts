/**
 * What a path needs before any route or page runs (proxy.ts): deny by default, so a
 * new page or API route is never open by accident; handlers and pages then make their
 * own exact check (lib/auth/guards.ts). Public: the sign-in pages and endpoints, the
 * health check, static files (mermaid's browser build included), share links when
 * WAYFINDER_PUBLIC_SHARES is on, and repository webhooks (authenticated by their
 * signature, not by a person).
 */
import type { Access } from "./guards.ts";

const PUBLIC_PATHS = [
  /^\/login$/,
  /^\/admin\/login$/,
  /^\/api\/auth(\/.*)?$/,
  /^\/api\/access\/(login|logout)$/,
  /^\/api\/admin\/(login|logout)$/,
  /^\/api\/health$/,
  /^\/api\/repos\/[^/]+\/hook$/,
  /^\/_next\//,
  /^\/vendor\/mermaid\//,
  /^\/(favicon\.ico|robots\.txt)$/,
];

export function pathAccess(pathname: string, options: { publicShares: boolean }): Access {
  if (PUBLIC_PATHS.some((pattern) => pattern.test(pathname))) return "public";
  if (options.publicShares && /^\/s\/[^/]+$/.test(pathname)) return "public";
  if (/^\/admin(\/|$)/.test(pathname) || /^\/api\/admin\//.test(pathname)) return "admin";
  return "reader";
}

export function isApiPath(pathname: string): boolean {
  return pathname === "/api" || pathname.startsWith("/api/");
}
