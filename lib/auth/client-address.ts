/**
 * The address a request comes from, for rate limits, the wrong-token throttle and the
 * request log: the TCP peer's, unless WAYFINDER_TRUSTED_PROXIES says which
 * X-Forwarded-For entries to believe (a hop count, or the proxies' addresses and CIDRs).
 *
 * Route handlers and the proxy never see the socket. `next start` fills X-Forwarded-For
 * from it only when the request has none, so a client that sends its own hides its
 * address there. The server therefore stamps every request with its peer address as
 * Node's HTTP server parses it (the `http.server.request.start` diagnostics channel,
 * subscribed by instrumentation.ts at start), in a header that carries a random
 * per-process nonce: a client cannot forge the stamp, and a request without a valid one
 * (one that reached a handler some other way) has no known address.
 */
import { randomBytes } from "node:crypto";
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import net from "node:net";
import { env, type Env, type TrustedProxies } from "../env.ts";

export const PEER_HEADER = "x-wayfinder-peer";
/** What a request without a known address is counted and logged as. */
export const UNKNOWN_ADDRESS = "unknown";

interface PeerState {
  nonce: string;
  installed: boolean;
}

// On globalThis: instrumentation and the route bundles are separate module graphs in one process.
const globalForPeer = globalThis as unknown as { wayfinderPeer?: PeerState };

function peerState(): PeerState {
  return (globalForPeer.wayfinderPeer ??= { nonce: randomBytes(18).toString("base64url"), installed: false });
}

/** An address as compared and logged: IPv4-mapped IPv6 as IPv4, anything that is no address as unknown. */
export function normalizeAddress(value: string | undefined | null): string {
  let text = (value ?? "").trim();
  // Some proxies add the port: "[::1]:8080", "203.0.113.7:51234".
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed?.[1]) text = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(":"));
  if (text.toLowerCase().startsWith("::ffff:") && net.isIPv4(text.slice(7))) text = text.slice(7);
  return net.isIP(text) ? text.toLowerCase() : UNKNOWN_ADDRESS;
}

/** The header value that vouches, in this process, that a request came from `address`. */
export function peerStamp(address: string): string {
  return `${normalizeAddress(address)} ${peerState().nonce}`;
}

/** Stamps every request this process's HTTP server parses with its peer address (once per process). */
export function installPeerStamp(): void {
  const state = peerState();
  if (state.installed) return;
  state.installed = true;
  subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: net.Socket };
    request.headers[PEER_HEADER] = peerStamp(socket.remoteAddress ?? "");
  });
}

/** The stamped peer address, or null when the header is missing or not this process's. */
function peerAddress(header: string | null): string | null {
  if (!header) return null;
  const space = header.lastIndexOf(" ");
  if (space < 0 || header.slice(space + 1) !== peerState().nonce) return null;
  return normalizeAddress(header.slice(0, space));
}

let trustCache: { env: Env; list: net.BlockList } | undefined;

function trustedList(e: Env, trusted: Extract<TrustedProxies, { kind: "addresses" }>): net.BlockList {
  if (trustCache?.env === e) return trustCache.list;
  const list = new net.BlockList();
  for (const { address, prefix } of trusted.entries) {
    const family = net.isIPv6(address) ? "ipv6" : "ipv4";
    if (prefix === null) list.addAddress(address, family);
    else list.addSubnet(address, prefix, family);
  }
  trustCache = { env: e, list };
  return list;
}

function isTrusted(list: net.BlockList, address: string): boolean {
  const family = net.isIPv6(address) ? "ipv6" : net.isIPv4(address) ? "ipv4" : null;
  return family !== null && list.check(address, family);
}

/**
 * The client among the peer and the X-Forwarded-For entries (left to right, each proxy
 * appending the address it was reached from): the peer itself; with N trusted hops, the
 * entry N places left of the peer; with trusted addresses, the first address from the
 * right that is not a trusted proxy.
 */
export function pickClient(
  peer: string,
  forwarded: string[],
  trusted: TrustedProxies,
  list?: net.BlockList,
): string {
  if (trusted.kind === "none") return peer;
  const chain = [...forwarded, peer];
  if (trusted.kind === "hops") return chain[Math.max(0, chain.length - 1 - trusted.hops)] ?? peer;
  let at = chain.length - 1;
  while (at > 0 && list && isTrusted(list, chain[at] ?? "")) at--;
  return chain[at] ?? peer;
}

/** The address a request is counted and logged under (see the header of this module). */
export function clientAddress(request: { headers: Pick<Headers, "get"> }): string {
  const peer = peerAddress(request.headers.get(PEER_HEADER));
  if (peer === null) return UNKNOWN_ADDRESS;
  const e = env();
  const trusted = e.trustedProxies;
  if (trusted.kind === "none") return peer;
  const forwarded = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .slice(-64)
    .map(normalizeAddress);
  return pickClient(
    peer,
    forwarded,
    trusted,
    trusted.kind === "addresses" ? trustedList(e, trusted) : undefined,
  );
}
