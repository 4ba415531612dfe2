/**
 * One log line per API call: method, path, status, duration, who (role and how they
 * signed in, never a token) and the client's address as limits count it (the socket's,
 * or what trusted proxies say; never an untrusted X-Forwarded-For). Never the body or the query string, so
 * no question text, token or search term reaches the log.
 */
import "server-only";
import { clientAddress } from "./client-address.ts";
import { env } from "../env.ts";
import type { Identity } from "./identity.ts";

export function requestLogLine(
  request: Request,
  status: number,
  ms: number,
  identity: Identity | null,
): string {
  const path = new URL(request.url).pathname;
  const who = identity ? `${identity.role}/${identity.via}` : "-";
  // The URL parser percent-encodes control characters, so a path cannot forge log lines.
  const safePath = path.slice(0, 300);
  return `[wayfinder] api ${request.method} ${safePath} ${status} ${Math.round(ms)}ms who=${who} client=${clientAddress(request)}`;
}

export function logRequest(request: Request, status: number, ms: number, identity: Identity | null): void {
  const level = env().WAYFINDER_LOG_LEVEL;
  if (level !== "info" && level !== "debug") return;
  console.log(requestLogLine(request, status, ms, identity));
}
