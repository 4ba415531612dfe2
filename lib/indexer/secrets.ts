/**
 * Secrets never enter the index. Discovery calls this for every file before its text
 * is stored, parsed, chunked or embedded, so nothing downstream (search, chat,
 * citations, the source view, the wiki, MCP) can show one:
 *
 * - well-known secret files (`.env`, private keys and keystores, cloud and package
 *   manager credentials, …) are skipped by name;
 * - inside every other file, secretlint's recommended rule set (AWS, GCP, GitHub,
 *   GitLab, Slack, Stripe, OpenAI, Anthropic, npm, private keys, database URLs with
 *   passwords, basic-auth URLs, …; maintained upstream) finds secrets, and each one is
 *   replaced by a marker naming its kind, keeping the file's line count so every line
 *   number (citations, symbols) still holds.
 *
 * What was skipped or redacted is reported by path, line and rule, never by value.
 */
import { lintSource } from "@secretlint/core";
import { secretLintProfiler } from "@secretlint/profiler";
import { rules as recommendedRules } from "@secretlint/secretlint-rule-preset-recommend";
import type { SecretLintCoreConfig } from "@secretlint/types";

// secretlint's profiler is on by default and keeps a performance mark per rule and file
// for the life of the process: hundreds of megabytes over a large repository.
secretLintProfiler.setEnabled(false);

/** Names of files that hold credentials by convention: never read into the index. */
const SECRET_FILE_NAMES: RegExp[] = [
  /^\.env(\..+)?$/i, // .env, .env.local, .env.production …
  /^\.?envrc$/i,
  /^id_(rsa|dsa|ecdsa|ed25519)(_sk)?$/, // SSH private keys (the .pub halves are fine)
  /\.(pem|key|p12|pfx|jks|keystore|kdbx|ppk|asc|gpg|age)$/i,
  /^credentials(\.json|\.yml|\.yaml|\.xml)?$/i, // AWS, gcloud, generic
  /^(client_secrets?|service[-_]?account([-_].*)?)\.json$/i,
  /^\.(netrc|pgpass|npmrc|pypirc|htpasswd|git-credentials|dockercfg)$/i,
  /^secrets?\.(json|ya?ml|toml|env|ini)$/i,
  /\.tfvars(\.json)?$/i,
  /^terraform\.tfstate(\.backup)?$/i,
];
/** Templates of those files document the names, not the values. */
const TEMPLATE = /\.(example|sample|template|dist)$/i;

export interface SecretItem {
  path: string;
  /** 1-based line of a redaction; null for a skipped file */
  line: number | null;
  /** the secretlint rule (e.g. "github") or "secret-file" */
  rule: string;
  action: "skipped" | "redacted";
}

export interface SecretReport {
  skippedFiles: number;
  redactedFiles: number;
  redactions: number;
  byRule: Record<string, number>;
  /** the first items, for the admins' list */
  items: SecretItem[];
}

export const MAX_REPORTED_SECRETS = 500;

export function emptySecretReport(): SecretReport {
  return { skippedFiles: 0, redactedFiles: 0, redactions: 0, byRule: {}, items: [] };
}

/** Is this repository path a well-known secret file? */
export function isSecretFile(relativePath: string): boolean {
  const base = relativePath.slice(relativePath.lastIndexOf("/") + 1);
  return !TEMPLATE.test(base) && SECRET_FILE_NAMES.some((pattern) => pattern.test(base));
}

const RULE_PREFIX = "@secretlint/secretlint-rule-";

/** The recommended preset's rules, less the one that obeys `secretlint-disable` comments: a repository must not switch detection off. */
const config: SecretLintCoreConfig = {
  rules: recommendedRules
    .filter((rule) => rule.meta.id !== `${RULE_PREFIX}filter-comments`)
    .map((rule) => ({ id: rule.meta.id, rule })),
};

/** Characters a token is made of: a reported range that stops inside one is extended to its end. */
const TOKEN_CHAR = /[A-Za-z0-9+/=_.~-]/;

function extendToTokenEnd(content: string, end: number): number {
  let at = end;
  while (at < content.length && TOKEN_CHAR.test(content[at] ?? "")) at++;
  return at;
}

export interface Redaction {
  line: number;
  rule: string;
}

export interface RedactedText {
  content: string;
  redactions: Redaction[];
}

/** The marker a secret is replaced with: its kind, and the newlines it spanned. */
export function redactionMarker(rule: string, spanned: string): string {
  const newlines = spanned.split("\n").length - 1;
  return `[redacted ${rule} secret]${"\n".repeat(newlines)}`;
}

/** Finds the secrets in one file's text and replaces each with a marker (line numbers kept). */
export async function redactSecrets(relativePath: string, content: string): Promise<RedactedText> {
  const result = await lintSource({
    source: { filePath: `/repository/${relativePath}`, content, contentType: "text" },
    options: { config, maskSecrets: true, noPhysicFilePath: false },
  });
  const ranges = result.messages
    // Some rules report a range that starts at the key name and stops short of the value's end.
    .map((m) => ({
      start: m.range[0],
      end: extendToTokenEnd(content, m.range[1]),
      rule: m.ruleId.replace(RULE_PREFIX, ""),
    }))
    .filter((r) => r.end > r.start)
    .sort((a, b) => a.start - b.start);
  if (ranges.length === 0) return { content, redactions: [] };
  // Overlapping findings (a key inside a connection string …) become one redaction.
  const merged: typeof ranges = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range.start < last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  const redactions: Redaction[] = [];
  let out = "";
  let at = 0;
  let line = 1;
  for (const range of merged) {
    const before = content.slice(at, range.start);
    const secret = content.slice(range.start, range.end);
    line += before.split("\n").length - 1;
    redactions.push({ line, rule: range.rule });
    out += before + redactionMarker(range.rule, secret);
    line += secret.split("\n").length - 1;
    at = range.end;
  }
  return { content: out + content.slice(at), redactions };
}

/** Adds one file's outcome to a build's report. */
export function recordSecrets(
  report: SecretReport,
  relativePath: string,
  outcome: { skipped: true } | { redactions: Redaction[] },
): void {
  const add = (item: SecretItem) => {
    report.byRule[item.rule] = (report.byRule[item.rule] ?? 0) + 1;
    if (report.items.length < MAX_REPORTED_SECRETS) report.items.push(item);
  };
  if ("skipped" in outcome) {
    report.skippedFiles++;
    add({ path: relativePath, line: null, rule: "secret-file", action: "skipped" });
    return;
  }
  if (outcome.redactions.length === 0) return;
  report.redactedFiles++;
  report.redactions += outcome.redactions.length;
  for (const r of outcome.redactions)
    add({ path: relativePath, line: r.line, rule: r.rule, action: "redacted" });
}
