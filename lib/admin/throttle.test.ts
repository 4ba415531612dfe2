/**
 * The admin-token throttle on a controlled clock: free failures, doubling locks with a
 * cap, forgetting after a quiet period, and bounded memory under many addresses.
 */
import { describe, expect, it } from "vitest";
import { AuthThrottle, clientKey } from "./throttle.ts";

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("AuthThrottle", () => {
  it("allows five failures, then locks for 1 s, 2 s, 4 s …", () => {
    const c = clock();
    const t = new AuthThrottle(c.now);
    for (let i = 0; i < 5; i++) {
      t.recordFailure("a");
      expect(t.retryAfterMs("a")).toBe(0);
    }
    t.recordFailure("a");
    expect(t.retryAfterMs("a")).toBe(1000);
    c.advance(1000);
    expect(t.retryAfterMs("a")).toBe(0);
    t.recordFailure("a");
    expect(t.retryAfterMs("a")).toBe(2000);
    c.advance(2000);
    t.recordFailure("a");
    expect(t.retryAfterMs("a")).toBe(4000);
  });

  it("caps a lock at 15 minutes and forgets a client after a quiet quarter of an hour", () => {
    const c = clock();
    const t = new AuthThrottle(c.now);
    for (let i = 0; i < 40; i++) t.recordFailure("a");
    expect(t.retryAfterMs("a")).toBe(15 * 60 * 1000);
    c.advance(15 * 60 * 1000 + 1);
    expect(t.retryAfterMs("a")).toBe(0);
    // Forgotten: the next failure is a first failure again.
    t.recordFailure("a");
    expect(t.retryAfterMs("a")).toBe(0);
  });

  it("a success clears the client; other clients are untouched", () => {
    const t = new AuthThrottle(clock().now);
    for (let i = 0; i < 7; i++) {
      t.recordFailure("a");
      t.recordFailure("b");
    }
    t.recordSuccess("a");
    expect(t.retryAfterMs("a")).toBe(0);
    expect(t.retryAfterMs("b")).toBeGreaterThan(0);
  });

  it("keeps at most 10 000 clients, dropping the oldest", () => {
    const t = new AuthThrottle(clock().now);
    for (let i = 0; i < 7; i++) t.recordFailure("first");
    expect(t.retryAfterMs("first")).toBeGreaterThan(0);
    for (let i = 0; i < 10_000; i++) t.recordFailure(`addr-${i}`);
    expect(t.retryAfterMs("first")).toBe(0);
    for (let i = 0; i < 7; i++) t.recordFailure("addr-9999");
    expect(t.retryAfterMs("addr-9999")).toBeGreaterThan(0);
  });
});

describe("clientKey", () => {
  it("is the first forwarded address, or 'unknown'", () => {
    const r = (h: Record<string, string>) => new Request("http://localhost/", { headers: h });
    expect(clientKey(r({ "x-forwarded-for": " 192.0.2.4 , 10.0.0.1" }))).toBe("192.0.2.4");
    expect(clientKey(r({}))).toBe("unknown");
  });
});
