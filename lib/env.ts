/**
 * The only reader of process.env. Everything configurable from the environment is
 * declared and validated here once; a bad value fails fast with a clear message.
 */
import net from "node:net";
import path from "node:path";
import { z } from "zod";

const boolish = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off"])
  .transform((v) => ["1", "true", "yes", "on"].includes(v));

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  WAYFINDER_HOME: z.string().min(1).default(".wayfinder"),
  DATABASE_URL: z.string().min(1).optional(),
  QDRANT_URL: z.url().optional(),
  QDRANT_API_KEY: z.string().optional(),
  LLM_PROVIDER: z.enum(["none", "openai", "anthropic", "openai-compatible"]).optional(),
  LLM_MODEL: z.string().min(1).optional(),
  LLM_BASE_URL: z.url().optional(),
  LLM_API_KEY: z.string().optional(),
  OPENAI_API_KEY: z.string().optional(),
  ANTHROPIC_API_KEY: z.string().optional(),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
  EMBEDDING_PROVIDER: z
    .enum(["associations", "hashing", "openai", "openai-compatible"])
    .default("associations"),
  EMBEDDING_MODEL: z.string().optional(),
  /** vector size of EMBEDDING_MODEL when it is not one the app knows */
  EMBEDDING_DIMENSIONS: z.coerce.number().int().min(8).max(8192).optional(),
  ADMIN_TOKEN: z.string().min(16, "ADMIN_TOKEN must be at least 16 characters").optional(),
  WAYFINDER_MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(1024 * 1024),
  WAYFINDER_MAX_QUESTION_CHARS: z.coerce.number().int().min(100).max(200_000).default(60_000),
  WAYFINDER_LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  WAYFINDER_INDEX_WORKERS: z.coerce.number().int().min(1).max(16).optional(),
  /** worker threads that parse files during a build (0: parse in the build's thread); default: cores, up to 4 */
  WAYFINDER_PARSE_THREADS: z.coerce.number().int().min(0).max(32).optional(),
  WAYFINDER_EMBEDDINGS: boolish.default(true),
  /** folders with bench corpus bundles, `path.delimiter`-separated (`npm run bench -- --corpus`) */
  WAYFINDER_BENCH_CORPUS: z.string().optional(),
  /** spawn: each web instance starts a worker process per build; external: web instances
   * only queue builds and a separate `wayfinder worker` process claims and runs them */
  WAYFINDER_INDEX_WORKER: z.enum(["spawn", "external"]).default("spawn"),
  /** Folders (separated by ":") under which the web app may add repositories; unset: any folder in
   * open mode, none otherwise. */
  WAYFINDER_REPO_ROOTS: z.string().optional(),
  /** Who may use the app (lib/auth/config.ts): unset picks open on loopback, token elsewhere. */
  WAYFINDER_ACCESS: z.enum(["open", "token", "oidc"]).optional(),
  /** The team access token of token mode (else generated into WAYFINDER_HOME/access-token). */
  WAYFINDER_ACCESS_TOKEN: z
    .string()
    .min(16, "WAYFINDER_ACCESS_TOKEN must be at least 16 characters")
    .optional(),
  /** Who may add, re-index and remove repositories: admins, or every reader. */
  WAYFINDER_REPO_MANAGERS: z.enum(["admins", "readers"]).optional(),
  /** Share links readable by anyone holding the link, not only by signed-in readers. */
  WAYFINDER_PUBLIC_SHARES: boolish.default(false),
  /** OpenID Connect sign-in (oidc mode). */
  WAYFINDER_OIDC_ISSUER: z.url().optional(),
  WAYFINDER_OIDC_CLIENT_ID: z.string().min(1).optional(),
  WAYFINDER_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  WAYFINDER_OIDC_NAME: z.string().min(1).max(60).default("single sign-on"),
  /** Who may sign in (emails, or @domain for a whole domain; separated by commas); unset: anyone the provider accepts. */
  WAYFINDER_OIDC_ALLOWED: z.string().optional(),
  /** Signed-in users (emails or OIDC subjects, separated by commas) who are admins. */
  WAYFINDER_ADMINS: z.string().optional(),
  /** Key of Auth.js session cookies (else generated into WAYFINDER_HOME/auth-secret). */
  AUTH_SECRET: z.string().min(32, "AUTH_SECRET must be at least 32 characters").optional(),
  /** Questions per minute and index builds per hour, per client. */
  WAYFINDER_RATE_QUESTIONS: z.coerce.number().int().min(1).max(100_000).default(30),
  WAYFINDER_RATE_BUILDS: z.coerce.number().int().min(1).max(100_000).default(20),
  /** Which forwarding headers to believe: the proxies' addresses or CIDRs (comma-separated), or a hop count. */
  WAYFINDER_TRUSTED_PROXIES: z.string().optional(),
  /** Key the per-repository push-webhook secrets are derived from; unset: the admin token. */
  WAYFINDER_WEBHOOK_SECRET: z
    .string()
    .min(16, "WAYFINDER_WEBHOOK_SECRET must be at least 16 characters")
    .optional(),
  /** How often each web instance or worker looks for repositories whose poll is due. */
  WAYFINDER_POLL_TICK_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Longest a git fetch or ls-remote may take before it is stopped. */
  WAYFINDER_GIT_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(3600).default(300),
});

export type RawEnv = z.infer<typeof schema>;

export interface Env extends RawEnv {
  /** Absolute data directory (SQLite file, vectors, admin token). */
  home: string;
  databaseUrl: string;
  databaseKind: "sqlite" | "postgres";
  llmProvider: "none" | "openai" | "anthropic" | "openai-compatible";
  /** CGRAG_* overrides of the engine configuration, keys lower-cased without the prefix. */
  cgragOverrides: Record<string, string>;
  /** Absolute folders the web app may add repositories under (empty: see WAYFINDER_REPO_ROOTS). */
  repoRoots: string[];
  /** Lists of WAYFINDER_ADMINS and WAYFINDER_OIDC_ALLOWED, lower-cased. */
  admins: string[];
  oidcAllowed: string[];
  /** WAYFINDER_TRUSTED_PROXIES parsed: none (the socket's address counts), a hop count, or addresses and CIDRs. */
  trustedProxies: TrustedProxies;
}

export type TrustedProxies =
  | { kind: "none" }
  | { kind: "hops"; hops: number }
  | { kind: "addresses"; entries: { address: string; prefix: number | null }[] };

/** `2`, or `10.0.0.0/8, 192.168.1.7, ::1` (addresses and CIDRs). */
export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  const text = (value ?? "").trim();
  if (!text) return { kind: "none" };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 32)
      throw new Error(`Invalid environment:\n  WAYFINDER_TRUSTED_PROXIES: ${hops} hops is more than 32`);
    return hops === 0 ? { kind: "none" } : { kind: "hops", hops };
  }
  const entries = text
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)
    .map((entry) => {
      const [address = "", prefixText] = entry.split("/");
      const family = net.isIP(address);
      const prefix = prefixText === undefined ? null : Number(prefixText);
      const maxPrefix = family === 6 ? 128 : 32;
      if (!family || (prefix !== null && !(Number.isInteger(prefix) && prefix >= 0 && prefix <= maxPrefix)))
        throw new Error(
          `Invalid environment:\n  WAYFINDER_TRUSTED_PROXIES: "${entry}" is neither an address, a CIDR range nor a hop count`,
        );
      return { address, prefix };
    });
  return { kind: "addresses", entries };
}

function inferProvider(raw: RawEnv): Env["llmProvider"] {
  if (raw.LLM_PROVIDER) return raw.LLM_PROVIDER;
  if (raw.LLM_BASE_URL) return "openai-compatible";
  if (raw.ANTHROPIC_API_KEY) return "anthropic";
  if (raw.OPENAI_API_KEY) return "openai";
  return "none";
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  const raw = result.data;
  const home = path.resolve(raw.WAYFINDER_HOME);
  const databaseUrl = raw.DATABASE_URL ?? `file:${path.join(home, "wayfinder.db")}`;
  const databaseKind = isPostgresUrl(databaseUrl) ? "postgres" : "sqlite";
  const cgragOverrides: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key.startsWith("CGRAG_") && value !== undefined) cgragOverrides[key.slice(6).toLowerCase()] = value;
  }
  const repoRoots = (raw.WAYFINDER_REPO_ROOTS ?? "")
    .split(path.delimiter)
    .map((p) => p.trim())
    .filter(Boolean);
  const relative = repoRoots.find((p) => !path.isAbsolute(p));
  if (relative)
    throw new Error(`Invalid environment:\n  WAYFINDER_REPO_ROOTS: ${relative} is not an absolute path`);
  return {
    ...raw,
    home,
    databaseUrl,
    databaseKind,
    llmProvider: inferProvider(raw),
    cgragOverrides,
    repoRoots,
    admins: commaList(raw.WAYFINDER_ADMINS),
    oidcAllowed: commaList(raw.WAYFINDER_OIDC_ALLOWED),
    trustedProxies: parseTrustedProxies(raw.WAYFINDER_TRUSTED_PROXIES),
  };
}

function commaList(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
}

/** DATABASE_URL selects PostgreSQL with a postgres:// or postgresql:// URL; anything else is SQLite. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/** host:port/database of a PostgreSQL URL, without credentials (for messages and logs). */
export function describePostgresUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || "5432"}${u.pathname}`;
  } catch {
    return "the configured server";
  }
}

let cached: Env | undefined;

/** Validated environment, parsed on first use. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** For tests that change the environment between cases. */
export function resetEnvForTests(): void {
  cached = undefined;
}

/** The environment for a child process of ours (CLI workers, the Prisma CLI), with overrides. */
export function childProcessEnv(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...overrides };
}

/**
 * The environment for git: the caller's own (credential helpers, SSH agent and keys,
 * GIT_ASKPASS, GIT_CONFIG_* all keep working), but never an interactive prompt — a
 * server has nobody to type a password — and no Git LFS downloads (pointer files are
 * indexed as the small text files they are).
 */
export function gitProcessEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_TERMINAL_PROMPT: "0",
    GCM_INTERACTIVE: "never",
    GIT_LFS_SKIP_SMUDGE: "1",
    GIT_SSH_COMMAND: process.env.GIT_SSH_COMMAND ?? "ssh -o BatchMode=yes",
  };
}
