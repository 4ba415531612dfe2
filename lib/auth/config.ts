/**
 * Who may use this server, decided once from the environment: the access mode
 * (`open`, `token`, `oidc`), who manages repositories, whether share links are public,
 * and under which folders repositories may be added over HTTP.
 *
 * Without WAYFINDER_ACCESS the mode follows the address the server listens on: `open`
 * only on loopback (one person on their own machine), `token` on any other address,
 * so a server reachable from a network never starts open by accident (a process
 * that cannot tell its address counts as reachable).
 */
import "server-only";
import { env, type Env } from "../env.ts";

export type AccessMode = "open" | "token" | "oidc";

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** the provider's name on the sign-in button */
  name: string;
  /** emails and @domains allowed to sign in (empty: anyone the provider accepts) */
  allowed: string[];
}

export interface AccessConfig {
  mode: AccessMode;
  /** how the mode was chosen */
  modeSource: "WAYFINDER_ACCESS" | "loopback" | "network";
  /** the host the web server listens on, when known */
  listenHost: string | null;
  /** who may add, re-index, remove and schedule repositories */
  repoManagers: "admins" | "readers";
  /** share links open to anyone holding them (else to readers only) */
  publicShares: boolean;
  /** folders repositories may be added under over HTTP; null: anywhere (open mode without a setting) */
  repoRoots: string[] | null;
  /** emails or OIDC subjects with the admin role (oidc) */
  admins: string[];
  oidc: OidcSettings | null;
}

/**
 * The host given to `next start` / `next dev` (`-H`, `--hostname`), read from this
 * process's arguments; Next.js listens on every interface (0.0.0.0) without one.
 * Null outside a Next.js server (the CLI, tests).
 */
export function listenHostFromArgs(argv: readonly string[] = process.argv): string | null {
  const command = argv.findIndex((a) => a === "start" || a === "dev");
  if (command < 0 || !/next(\.js)?$|[\\/]next[\\/]dist[\\/]bin[\\/]next$/.test(argv[command - 1] ?? ""))
    return null;
  for (let i = command + 1; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "-H" || arg === "--hostname") return argv[i + 1] ?? null;
    const inline = /^(?:-H|--hostname)=(.+)$/.exec(arg);
    if (inline?.[1]) return inline[1];
  }
  return "0.0.0.0";
}

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

export function resolveAccessConfig(e: Env, listenHost: string | null): AccessConfig {
  const [mode, modeSource]: [AccessMode, AccessConfig["modeSource"]] = e.WAYFINDER_ACCESS
    ? [e.WAYFINDER_ACCESS, "WAYFINDER_ACCESS"]
    : listenHost !== null && isLoopbackHost(listenHost)
      ? ["open", "loopback"]
      : ["token", "network"];
  let oidc: OidcSettings | null = null;
  if (mode === "oidc") {
    const missing = (
      [
        ["WAYFINDER_OIDC_ISSUER", e.WAYFINDER_OIDC_ISSUER],
        ["WAYFINDER_OIDC_CLIENT_ID", e.WAYFINDER_OIDC_CLIENT_ID],
        ["WAYFINDER_OIDC_CLIENT_SECRET", e.WAYFINDER_OIDC_CLIENT_SECRET],
      ] as const
    ).filter(([, v]) => !v);
    if (missing.length > 0)
      throw new Error(
        `Invalid environment:\n  WAYFINDER_ACCESS=oidc needs ${missing.map(([k]) => k).join(", ")}`,
      );
    oidc = {
      issuer: e.WAYFINDER_OIDC_ISSUER as string,
      clientId: e.WAYFINDER_OIDC_CLIENT_ID as string,
      clientSecret: e.WAYFINDER_OIDC_CLIENT_SECRET as string,
      name: e.WAYFINDER_OIDC_NAME,
      allowed: e.oidcAllowed,
    };
  }
  return {
    mode,
    modeSource,
    listenHost,
    repoManagers: e.WAYFINDER_REPO_MANAGERS ?? (mode === "open" ? "readers" : "admins"),
    publicShares: e.WAYFINDER_PUBLIC_SHARES,
    repoRoots: e.repoRoots.length > 0 ? e.repoRoots : mode === "open" ? null : [],
    admins: e.admins,
    oidc,
  };
}

let cached: { env: Env; config: AccessConfig } | undefined;

/** The access configuration of this process (recomputed when the environment is re-read, as tests do). */
export function accessConfig(): AccessConfig {
  const e = env();
  if (cached?.env !== e) cached = { env: e, config: resolveAccessConfig(e, listenHostFromArgs()) };
  return cached.config;
}

/** One line for the server log at start: the mode and why. */
export function describeAccess(config: AccessConfig): string {
  const why =
    config.modeSource === "WAYFINDER_ACCESS"
      ? "set by WAYFINDER_ACCESS"
      : config.modeSource === "loopback"
        ? "the server listens on loopback only"
        : `the server listens on ${config.listenHost ?? "an address it cannot tell"}; set WAYFINDER_ACCESS to choose`;
  return `[wayfinder] access: ${config.mode} (${why}); repositories managed by ${config.repoManagers}; share links ${config.publicShares ? "public" : "for readers"}`;
}

/**
 * A warning line when open mode (no sign-in at all) is set on a server that listens
 * beyond loopback: anyone who reaches the port reads, asks and manages repositories.
 */
export function openAccessWarning(config: AccessConfig): string | null {
  if (config.mode !== "open" || config.listenHost === null || isLoopbackHost(config.listenHost)) return null;
  return `[wayfinder] warning: access is open (no sign-in) while the server listens on ${config.listenHost}: anyone who reaches the port can read, ask and manage repositories. Set WAYFINDER_ACCESS=token or oidc, or listen on 127.0.0.1.`;
}
