/**
 * Slows down guessing of the admin token. Failed token checks (login form and bearer
 * header) are counted per client; past a few free failures each further one locks the
 * client out for a doubling time (1 s, 2 s, 4 s … up to 15 minutes), and a locked client
 * gets 429 with Retry-After before its token is even checked. A correct token clears
 * the count; a quiet quarter of an hour forgets it.
 *
 * The count lives in this process's memory: with several web instances each keeps its
 * own (a guesser gains at most a factor of the instance count). The client is the first
 * `X-Forwarded-For` address, which Next.js fills from the socket when the header is
 * absent; behind a proxy that appends it, put the proxy in front of every instance.
 */
import "server-only";
import { WayfinderError } from "../errors.ts";

const FREE_FAILURES = 5;
const MAX_LOCK_MS = 15 * 60 * 1000;
const FORGET_AFTER_MS = 15 * 60 * 1000;
/** Bounds memory under a flood of distinct (spoofed) addresses: the oldest entries go first. */
const MAX_CLIENTS = 10_000;

interface ClientState {
  failures: number;
  lastFailureAt: number;
  lockedUntil: number;
}

export class AuthThrottle {
  private readonly clients = new Map<string, ClientState>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Milliseconds the client must still wait (0 = may try now). */
  retryAfterMs(client: string): number {
    const state = this.current(client);
    return state ? Math.max(0, state.lockedUntil - this.now()) : 0;
  }

  recordFailure(client: string): void {
    const now = this.now();
    const state = this.current(client) ?? { failures: 0, lastFailureAt: now, lockedUntil: 0 };
    state.failures++;
    state.lastFailureAt = now;
    if (state.failures > FREE_FAILURES) {
      state.lockedUntil = now + Math.min(MAX_LOCK_MS, 1000 * 2 ** (state.failures - FREE_FAILURES - 1));
    }
    // Re-insert so Map order stays oldest-failure first for eviction.
    this.clients.delete(client);
    this.clients.set(client, state);
    while (this.clients.size > MAX_CLIENTS) {
      const oldest = this.clients.keys().next().value;
      if (oldest === undefined) break;
      this.clients.delete(oldest);
    }
  }

  recordSuccess(client: string): void {
    this.clients.delete(client);
  }

  private current(client: string): ClientState | undefined {
    const state = this.clients.get(client);
    if (state && this.now() - state.lastFailureAt > FORGET_AFTER_MS && this.now() >= state.lockedUntil) {
      this.clients.delete(client);
      return undefined;
    }
    return state;
  }
}

const globalForThrottle = globalThis as unknown as { wayfinderAuthThrottle?: AuthThrottle };

/** The process-wide throttle (kept on globalThis so route bundles share one). */
export function authThrottle(): AuthThrottle {
  return (globalForThrottle.wayfinderAuthThrottle ??= new AuthThrottle());
}

/** Forgets every client (tests that exercise wrong tokens on purpose). */
export function resetAuthThrottle(): void {
  globalForThrottle.wayfinderAuthThrottle = new AuthThrottle();
}

/** Who a request comes from, for throttling. */
export function clientKey(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || "unknown";
}

/** Throws 429 when the request's client is locked out. */
export function assertNotThrottled(request: Request): void {
  const waitMs = authThrottle().retryAfterMs(clientKey(request));
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    throw new WayfinderError(
      "too_many_requests:admin",
      `Too many wrong admin tokens from this address; try again in ${seconds} s.`,
      { retryAfterSeconds: seconds },
    );
  }
}
