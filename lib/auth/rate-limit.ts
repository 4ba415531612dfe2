/**
 * Per-client limits on the expensive requests: questions (per minute) and index builds
 * (per hour). Over the limit a request gets 429 with Retry-After and does nothing.
 * Every way in counts against the same limit: each /api/qa question and each MCP `ask`
 * call (one per call, also inside a JSON-RPC batch), each build a route starts.
 *
 * A client is the signed-in person where one is known (OIDC subject), else the address
 * the request came from (client-address.ts: the socket's, or what trusted proxies say).
 * The counters live in the database's limit store (lib/db/limit-store.ts): shared by every
 * instance on PostgreSQL, per process on SQLite.
 */
import "server-only";
import {
  createLimiter,
  forgetLimits,
  limitEpoch,
  limitKey,
  RateLimiterRes,
  type Limiter,
} from "../db/limit-store.ts";
import { env } from "../env.ts";
import { WayfinderError } from "../errors.ts";
import { clientAddress } from "./client-address.ts";
import type { Identity } from "./identity.ts";

export type LimitedAction = "question" | "build";

const WINDOW_SECONDS: Record<LimitedAction, number> = { question: 60, build: 60 * 60 };
const WHAT: Record<LimitedAction, string> = { question: "questions", build: "index builds" };

interface Limiters {
  key: string;
  limiters: Record<LimitedAction, Limiter>;
}

const globalForLimits = globalThis as unknown as { wayfinderRateLimits?: Limiters };

function limiters(): Limiters {
  const e = env();
  const points = { question: e.WAYFINDER_RATE_QUESTIONS, build: e.WAYFINDER_RATE_BUILDS };
  const key = `${e.databaseUrl}|${points.question}|${points.build}|${limitEpoch()}`;
  const current = globalForLimits.wayfinderRateLimits;
  if (current?.key === key) return current;
  const make = (action: LimitedAction) =>
    createLimiter({ name: action, points: points[action], durationSeconds: WINDOW_SECONDS[action] });
  return (globalForLimits.wayfinderRateLimits = {
    key,
    limiters: { question: make("question"), build: make("build") },
  });
}

/** Forgets every count (tests). */
export function resetRateLimits(): void {
  forgetLimits();
}

export function rateLimitKey(request: Request, identity: Identity | null): string {
  return limitKey(
    identity?.subject.startsWith("oidc:") ? identity.subject : `addr:${clientAddress(request)}`,
  );
}

/** Counts one `action` for the request's client; throws 429 with Retry-After past the limit. */
export async function consumeRateLimit(
  request: Request,
  identity: Identity | null,
  action: LimitedAction,
): Promise<void> {
  const limiter = limiters().limiters[action];
  try {
    await limiter.consume(rateLimitKey(request, identity));
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    throw new WayfinderError(
      `too_many_requests:${action}`,
      `Too many ${WHAT[action]} from this client (limit ${limiter.points} per ${WINDOW_SECONDS[action] === 60 ? "minute" : "hour"}); try again in ${seconds} s.`,
      { retryAfterSeconds: seconds },
    );
  }
}
