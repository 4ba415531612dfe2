/**
 * The client's address: the socket's (as stamped by the server) unless
 * WAYFINDER_TRUSTED_PROXIES names the proxies or a hop count; a forged stamp or
 * X-Forwarded-For changes nothing. (The stamp itself is checked through a real HTTP
 * server here, and through `next start` in e2e/client-address.spec.ts.)
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { parseEnv, parseTrustedProxies, resetEnvForTests } from "../env.ts";
import {
  clientAddress,
  installPeerStamp,
  normalizeAddress,
  PEER_HEADER,
  peerStamp,
  pickClient,
  UNKNOWN_ADDRESS,
} from "./client-address.ts";

const request = (headers: Record<string, string>) => new Request("http://localhost/api/qa", { headers });

function withProxies(value: string | undefined, run: () => void): void {
  const before = process.env.WAYFINDER_TRUSTED_PROXIES;
  if (value === undefined) delete process.env.WAYFINDER_TRUSTED_PROXIES;
  else process.env.WAYFINDER_TRUSTED_PROXIES = value;
  resetEnvForTests();
  try {
    run();
  } finally {
    if (before === undefined) delete process.env.WAYFINDER_TRUSTED_PROXIES;
    else process.env.WAYFINDER_TRUSTED_PROXIES = before;
    resetEnvForTests();
  }
}
afterAll(() => resetEnvForTests());

describe("WAYFINDER_TRUSTED_PROXIES", () => {
  it("is a hop count or a list of addresses and CIDRs, and refuses anything else", () => {
    expect(parseTrustedProxies(undefined)).toEqual({ kind: "none" });
    expect(parseTrustedProxies("0")).toEqual({ kind: "none" });
    expect(parseTrustedProxies("2")).toEqual({ kind: "hops", hops: 2 });
    expect(parseTrustedProxies("10.0.0.0/8, 192.0.2.1,::1,fd00::/8")).toEqual({
      kind: "addresses",
      entries: [
        { address: "10.0.0.0", prefix: 8 },
        { address: "192.0.2.1", prefix: null },
        { address: "::1", prefix: null },
        { address: "fd00::", prefix: 8 },
      ],
    });
    for (const bad of ["proxy.internal", "10.0.0.0/33", "1.2.3.4/x", "99"])
      expect(() => parseEnv({ WAYFINDER_TRUSTED_PROXIES: bad }), bad).toThrow(/WAYFINDER_TRUSTED_PROXIES/);
  });
});

describe("normalizeAddress", () => {
  it("reads IPv4-mapped IPv6 as IPv4, drops ports, and calls anything else unknown", () => {
    expect(normalizeAddress("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(normalizeAddress("203.0.113.7:51234")).toBe("203.0.113.7");
    expect(normalizeAddress("[2001:DB8::1]:443")).toBe("2001:db8::1");
    expect(normalizeAddress("evil\nline")).toBe(UNKNOWN_ADDRESS);
    expect(normalizeAddress("")).toBe(UNKNOWN_ADDRESS);
  });
});

describe("pickClient", () => {
  const peer = "10.0.0.2";
  it("is the peer without trusted proxies, whatever the header says", () => {
    expect(pickClient(peer, ["198.51.100.9"], { kind: "none" })).toBe(peer);
  });
  it("counts hops from the right, and never goes past the leftmost entry", () => {
    const chain = ["203.0.113.1", "198.51.100.7", "10.0.0.1"];
    expect(pickClient(peer, chain, { kind: "hops", hops: 1 })).toBe("10.0.0.1");
    expect(pickClient(peer, chain, { kind: "hops", hops: 2 })).toBe("198.51.100.7");
    expect(pickClient(peer, chain, { kind: "hops", hops: 9 })).toBe("203.0.113.1");
  });
});

describe("clientAddress", () => {
  it("is the stamped socket address; a forged X-Forwarded-For is ignored without trusted proxies", () => {
    withProxies(undefined, () => {
      expect(clientAddress(request({ [PEER_HEADER]: peerStamp("192.0.2.10") }))).toBe("192.0.2.10");
      expect(
        clientAddress(request({ [PEER_HEADER]: peerStamp("192.0.2.10"), "x-forwarded-for": "198.51.100.1" })),
      ).toBe("192.0.2.10");
    });
  });

  it("refuses a stamp it did not make, and knows no address without one", () => {
    withProxies("1", () => {
      expect(clientAddress(request({ [PEER_HEADER]: "192.0.2.10 forged-nonce" }))).toBe(UNKNOWN_ADDRESS);
      expect(clientAddress(request({ "x-forwarded-for": "198.51.100.1" }))).toBe(UNKNOWN_ADDRESS);
    });
  });

  it("believes the header as far as trusted proxies go", () => {
    const via = (peer: string, forwarded: string) =>
      clientAddress(request({ [PEER_HEADER]: peerStamp(peer), "x-forwarded-for": forwarded }));
    withProxies("10.0.0.0/8", () => {
      // The proxy appended the real client after what the client claimed.
      expect(via("10.0.0.5", "198.51.100.66, 203.0.113.20")).toBe("203.0.113.20");
      expect(via("10.0.0.5", "203.0.113.20, 10.1.1.1")).toBe("203.0.113.20");
      // A peer that is no trusted proxy is the client, whatever it forwards.
      expect(via("203.0.113.50", "198.51.100.66")).toBe("203.0.113.50");
    });
    withProxies("1", () => expect(via("10.0.0.5", "198.51.100.66, 203.0.113.20")).toBe("203.0.113.20"));
  });

  it("is stamped on every request by a real HTTP server, over any header the client sent", async () => {
    installPeerStamp();
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      seen.push(clientAddress({ headers }));
      res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const sent: Record<string, string>[] = [
        {},
        { [PEER_HEADER]: "203.0.113.1 x", "x-forwarded-for": "203.0.113.2" },
      ];
      for (const headers of sent) await fetch(`http://127.0.0.1:${port}/`, { headers });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(seen).toEqual(["127.0.0.1", "127.0.0.1"]);
  });
});
