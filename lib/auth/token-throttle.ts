/**
 * Slows down guessing of the admin and team tokens. Wrong tokens (the login forms and
 * bearer headers) are counted per client address; past a few free failures each further
 * one locks the client out for a doubling time (1 s, 2 s, 4 s … up to 15 minutes), and a
 * locked client gets 429 with Retry-After before its token is even checked. A correct
 * token clears the count; a quiet quarter of an hour forgets it.
 *
 * The client is the address the request came from (lib/auth/client-address.ts: the
 * socket's, or what WAYFINDER_TRUSTED_PROXIES says to believe), so a forged
 * X-Forwarded-For starts no fresh count. The counts live in the database's limit store
 * (lib/db/limit-store.ts): shared by every instance on PostgreSQL, per process on SQLite.
 */
import "server-only";
import { clientAddress } from "./client-address.ts";
import { createLimiter, forgetLimits, limitEpoch, limitKey, type Limiter } from "../db/limit-store.ts";
import { env } from "../env.ts";
import { WayfinderError } from "../errors.ts";

export const FREE_FAILURES = 5;
const MAX_LOCK_SECONDS = 15 * 60;
const FORGET_AFTER_SECONDS = 15 * 60;

interface Throttle {
  url: string;
  epoch: number;
  /** failures in the last quarter of an hour, per client */
  failures: Limiter;
  /** lock-outs: a blocked key is locked until its block ends */
  locks: Limiter;
}

const globalForThrottle = globalThis as unknown as { wayfinderAuthThrottle?: Throttle };

function throttle(): Throttle {
  const url = env().databaseUrl;
  const epoch = limitEpoch();
  const current = globalForThrottle.wayfinderAuthThrottle;
  if (current?.url === url && current.epoch === epoch) return current;
  return (globalForThrottle.wayfinderAuthThrottle = {
    url,
    epoch,
    failures: createLimiter({
      name: "token-failures",
      points: 1_000_000,
      durationSeconds: FORGET_AFTER_SECONDS,
    }),
    locks: createLimiter({ name: "token-lock", points: 1, durationSeconds: 1 }),
  });
}

/** Forgets every count (tests that send wrong tokens on purpose). */
export function resetAuthThrottle(): void {
  forgetLimits();
}

/** How long a client is locked out after its `failures`-th wrong token (0: not at all). */
export function lockSeconds(failures: number): number {
  return failures > FREE_FAILURES ? Math.min(MAX_LOCK_SECONDS, 2 ** (failures - FREE_FAILURES - 1)) : 0;
}

const keyOf = (request: Request) => limitKey(`addr:${clientAddress(request)}`);

/** Milliseconds the request's client must still wait (0 = may try now). */
export async function retryAfterMs(request: Request): Promise<number> {
  const { locks } = throttle();
  const lock = await locks.get(keyOf(request));
  return lock && lock.consumedPoints > locks.points ? lock.msBeforeNext : 0;
}

/** Counts a wrong token from the request's client, locking it out past the free failures. */
export async function recordTokenFailure(request: Request): Promise<void> {
  const { failures, locks } = throttle();
  const key = keyOf(request);
  const count = await failures.consume(key);
  const seconds = lockSeconds(count.consumedPoints);
  if (seconds > 0) await locks.block(key, seconds);
}

/** A correct token clears the client's count (read first: most clients have none, and a read is cheaper than two deletes). */
export async function recordTokenSuccess(request: Request): Promise<void> {
  const { failures, locks } = throttle();
  const key = keyOf(request);
  if (await failures.get(key)) await Promise.all([failures.delete(key), locks.delete(key)]);
}

/** Throws 429 when the request's client is locked out. */
export async function assertNotThrottled(request: Request): Promise<void> {
  const waitMs = await retryAfterMs(request);
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    throw new WayfinderError(
      "too_many_requests:admin",
      `Too many wrong tokens from this address; try again in ${seconds} s.`,
      { retryAfterSeconds: seconds },
    );
  }
}
