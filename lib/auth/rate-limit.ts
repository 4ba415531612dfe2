/**
 * Per-client limits on the expensive requests: questions (per minute) and index builds
 * (per hour). Over the limit a request gets 429 with Retry-After and does nothing.
 *
 * A client is the signed-in person where one is known (OIDC subject), else the first
 * X-Forwarded-For address (filled from the socket when absent; behind a proxy, let the
 * proxy set it). Counts live in each process's memory (rate-limiter-flexible), so with
 * several web instances each enforces its own share.
 */
import "server-only";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { clientKey } from "../admin/throttle.ts";
import { env } from "../env.ts";
import { WayfinderError } from "../errors.ts";
import type { Identity } from "./identity.ts";

export type LimitedAction = "question" | "build";

const WINDOW_SECONDS: Record<LimitedAction, number> = { question: 60, build: 60 * 60 };
const WHAT: Record<LimitedAction, string> = { question: "questions", build: "index builds" };

interface Limiters {
  points: Record<LimitedAction, number>;
  limiters: Record<LimitedAction, RateLimiterMemory>;
}

const globalForLimits = globalThis as unknown as { wayfinderRateLimits?: Limiters };

function limiters(): Limiters {
  const points = { question: env().WAYFINDER_RATE_QUESTIONS, build: env().WAYFINDER_RATE_BUILDS };
  const current = globalForLimits.wayfinderRateLimits;
  if (current && current.points.question === points.question && current.points.build === points.build)
    return current;
  const make = (action: LimitedAction) =>
    new RateLimiterMemory({ keyPrefix: action, points: points[action], duration: WINDOW_SECONDS[action] });
  return (globalForLimits.wayfinderRateLimits = {
    points,
    limiters: { question: make("question"), build: make("build") },
  });
}

/** Forgets every count (tests). */
export function resetRateLimits(): void {
  globalForLimits.wayfinderRateLimits = undefined;
}

export function rateLimitKey(request: Request, identity: Identity | null): string {
  return identity?.subject.startsWith("oidc:") ? identity.subject : `addr:${clientKey(request)}`;
}

/** Counts one `action` for the request's client; throws 429 with Retry-After past the limit. */
export async function consumeRateLimit(
  request: Request,
  identity: Identity | null,
  action: LimitedAction,
): Promise<void> {
  const { limiters: byAction, points } = limiters();
  try {
    await byAction[action].consume(rateLimitKey(request, identity));
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    throw new WayfinderError(
      `too_many_requests:${action}`,
      `Too many ${WHAT[action]} from this client (limit ${points[action]} per ${WINDOW_SECONDS[action] === 60 ? "minute" : "hour"}); try again in ${seconds} s.`,
      { retryAfterSeconds: seconds },
    );
  }
}
