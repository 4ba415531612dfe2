/**
 * The wrong-token throttle: free failures, doubling locks with a cap, a correct token
 * clearing the count, each address counted on its own, and forgetting after a quiet
 * quarter of an hour (on a controlled clock, with the in-process store SQLite uses).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PEER_HEADER, peerStamp } from "./client-address.ts";
import {
  assertNotThrottled,
  lockSeconds,
  recordTokenFailure,
  recordTokenSuccess,
  resetAuthThrottle,
  retryAfterMs,
} from "./token-throttle.ts";

const from = (address: string, forwarded?: string) =>
  new Request("http://localhost/api/admin/login", {
    headers: { [PEER_HEADER]: peerStamp(address), ...(forwarded ? { "x-forwarded-for": forwarded } : {}) },
  });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: 1_000_000 });
  resetAuthThrottle();
});
afterEach(() => vi.useRealTimers());

describe("lockSeconds", () => {
  it("allows five failures, then doubles from 1 s up to 15 minutes", () => {
    expect([1, 5, 6, 7, 8, 9, 15, 16, 40].map(lockSeconds)).toEqual([0, 0, 1, 2, 4, 8, 512, 900, 900]);
  });
});

describe("the throttle", () => {
  it("locks a client after five wrong tokens for 1 s, then 2 s, 4 s …", async () => {
    const a = from("192.0.2.4");
    for (let i = 0; i < 5; i++) {
      await recordTokenFailure(a);
      expect(await retryAfterMs(a)).toBe(0);
    }
    await recordTokenFailure(a);
    expect(await retryAfterMs(a)).toBe(1000);
    await expect(assertNotThrottled(a)).rejects.toMatchObject({ code: "too_many_requests:admin" });
    vi.advanceTimersByTime(1000);
    expect(await retryAfterMs(a)).toBe(0);
    await recordTokenFailure(a);
    expect(await retryAfterMs(a)).toBe(2000);
    vi.advanceTimersByTime(2000);
    await recordTokenFailure(a);
    expect(await retryAfterMs(a)).toBe(4000);
  });

  it("counts each socket address on its own, whatever X-Forwarded-For claims", async () => {
    for (let i = 0; i < 6; i++) await recordTokenFailure(from("192.0.2.5", `198.51.100.${i}`));
    expect(await retryAfterMs(from("192.0.2.5", "203.0.113.99"))).toBe(1000);
    expect(await retryAfterMs(from("192.0.2.6"))).toBe(0);
  });

  it("clears the count on a correct token, and forgets a quiet client after 15 minutes", async () => {
    const b = from("192.0.2.7");
    for (let i = 0; i < 5; i++) await recordTokenFailure(b);
    await recordTokenSuccess(b);
    await recordTokenFailure(b);
    expect(await retryAfterMs(b)).toBe(0);
    for (let i = 0; i < 4; i++) await recordTokenFailure(b);
    vi.advanceTimersByTime(15 * 60 * 1000 + 1);
    await recordTokenFailure(b);
    expect(await retryAfterMs(b)).toBe(0);
  });
});
