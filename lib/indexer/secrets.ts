/**
 * Secrets never enter the index. Discovery calls this for every file before its text
 * is stored, parsed, chunked or embedded, so nothing downstream (search, chat,
 * citations, the source view, the wiki, MCP) can show one:
 *
 * - well-known secret files (`.env`, SSH keys, keystores, cloud and package-manager
 *   credentials, …) are skipped by name; where a name is ambiguous (`.pem`, `.key`,
 *   `.asc`, `.p12` …) the content decides: a private key or a binary keystore is a
 *   secret file, a certificate, public key or signature is indexed as text;
 * - inside every other file two maintained rule sets find secrets: secretlint's
 *   recommended preset (AWS, GCP, GitHub, GitLab, Slack, Stripe, OpenAI, Anthropic, npm,
 *   database URLs, basic-auth URLs, …) and, through secretlint's pattern rule, the
 *   families gitleaks also covers: private-key blocks of every armour (PKCS#1, PKCS#8,
 *   encrypted, EC, DSA, OpenSSH, PGP, SSH2, PuTTY), AWS access key ids, and credential
 *   assignments in code and configuration whose name says password, secret, token, API
 *   key, private key or credentials and whose value is no placeholder;
 * - only the value is replaced, by a marker naming its kind: the name, the quotes and
 *   the file's line count stay, so the line still reads as code and every line number
 *   (citations, symbols) still holds.
 *
 * What was skipped or redacted is reported by path, line and rule, never by value.
 */
import { lintSource } from "@secretlint/core";
import { secretLintProfiler } from "@secretlint/profiler";
import { creator as patternRule } from "@secretlint/secretlint-rule-pattern";
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
  /\.(pfx|jks|keystore|kdbx|ppk|gpg|age)$/i,
  /^credentials(\.json|\.yml|\.yaml|\.xml)?$/i, // AWS, gcloud, generic
  /^(client_secrets?|service[-_]?account([-_].*)?)\.json$/i,
  /^\.(netrc|pgpass|npmrc|pypirc|htpasswd|git-credentials|dockercfg)$/i,
  /^secrets?\.(json|ya?ml|toml|env|ini)$/i,
  /\.tfvars(\.json)?$/i,
  /^terraform\.tfstate(\.backup)?$/i,
];
/** Names that hold a private key or only public material, as the content shows. */
const KEY_MATERIAL = /\.(pem|key|crt|cer|asc|p12)$/i;
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

/** Is this a file whose name says key material but not which kind (its content decides)? */
export function isKeyMaterialFile(relativePath: string): boolean {
  return KEY_MATERIAL.test(relativePath) && !TEMPLATE.test(relativePath);
}

/** How key material that holds nothing secret is indexed: as text. */
export const KEY_MATERIAL_TYPE = { language: "pem", kind: "text" } as const;

/** Any private-key armour; certificates, public keys and signatures have other labels. */
const PRIVATE_KEY_ARMOR =
  /-----BEGIN [A-Z0-9 _-]{0,40}PRIVATE KEY(?: BLOCK)?-----|---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----|PuTTY-User-Key-File-\d:/;

/** DER and PKCS#12 are binary; certificates in DER (`.crt`, `.cer`) are public all the same. */
const PUBLIC_WHEN_BINARY = /\.(crt|cer)$/i;

/**
 * Is a key-material file (`isKeyMaterialFile`) a secret by its content? Text is when it
 * holds a private key in any armour; binary is unless the name says certificate (a
 * PKCS#12 keystore or a DER key holds keys by design, and cannot be indexed as text anyway).
 */
export function isSecretByContent(relativePath: string, bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const binary = buffer.includes(0) || (buffer[0] === 0x30 && buffer[1] === 0x82);
  if (binary) return !PUBLIC_WHEN_BINARY.test(relativePath);
  return PRIVATE_KEY_ARMOR.test(buffer.toString("latin1"));
}

const RULE_PREFIX = "@secretlint/secretlint-rule-";

/** Every letter of a word in either case (the pattern rule's regexes need no `i` flag then). */
const anyCase = (word: string) =>
  word.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`).replace(/_/g, "[_.-]?");

/** What a name says when it names a credential. */
const KEYWORD = `(?:${["pass_word", "passwd", "pass_phrase", "pwd", "secret", "token", "api_key", "private_key", "credentials", "credential", "access_key", "auth_key"].map(anyCase).join("|")})`;
/** Names ending like these hold no credential (a path, a URL, a name, a length, an id …). */
const NOT_A_CREDENTIAL = `(?<!(?:${["path", "file", "dir", "url", "uri", "endpoint", "name", "type", "header", "field", "env", "var", "length", "len", "size", "count", "limit", "id", "ids", "prefix", "suffix", "pattern", "regex", "label", "hint", "policy", "mode", "kind", "format", "version", "ttl", "timeout", "expiry", "expires", "hash", "digest", "location", "provider", "source", "ref", "model", "ize", "izer", "ized", "ise", "iser"].map(anyCase).join("|")}))`;
/** The name of an assignment: identifier characters around the keyword, with `$`, `@`, `->`, `.` of the languages. */
const NAME = `(?<![\\w$@.>-])[\\w$@.>-]*${KEYWORD}\\w*${NOT_A_CREDENTIAL}`;
/** A type annotation between name and value (Python, TypeScript, Rust, Go …). */
const TYPE = "(?:\\s*:\\s*&?(?:'static\\s+)?(?:mut\\s+)?[\\w:<>\\[\\]|. ]{1,40}?)?";
/** A quoted value: no spaces, no quotes, 8 characters or more. */
const QUOTED_VALUE = "[^\\s\"'`\\\\]{8,256}(?=[\"'`])";
/** An unquoted configuration value, up to the end of the line or a comment. */
const BARE_VALUE = "[^\\s\"'`#;]{8,256}(?=[ \\t]*(?:[#;].*)?\\r?$)";

/** Values that are no secret: placeholders, references, words, numbers, paths and plain URLs. */
const PLACEHOLDERS = [
  "/^[a-z][a-z._-]*$/",
  "/^[A-Z][A-Z_]*$/",
  "/^[0-9._:-]+$/",
  "/^(?:x+|X+|\\*+|\\.+|-+|_+|#+|0+|\\?+)$/",
  "/^(?:changeme|change[-_]?me|changeit|password|passw0rd|p@ssw0rd|secret|example|sample|dummy|placeholder|redacted|none|null|nil|undefined|true|false|todo|tbd|test|testing|default|empty|unset|string)$/i",
  "/\\$\\{|\\{\\{|\\}\\}|^\\$[A-Za-z_]|^%\\(|^%[A-Za-z_]+%$|^<.*>$|^\\[.*\\]$/",
  "/example|placeholder|changeme|change[-_]me|your[-_]|dummy|fake|sample|xxxx|redacted|insert[-_]|replace[-_]?me|<|>/i",
  "/^(?:~|\\.{1,2})?\\/[\\w.\\/-]*$/",
  "/^[a-z][a-z0-9+.-]*:\\/\\/[^@\\s]*$/i",
  "/^[\\w.-]+\\.(?:pem|key|crt|json|ya?ml|txt|env|p12|pfx|jks)$/i",
];

/**
 * The gitleaks families secretlint's preset lacks, as patterns of secretlint's pattern
 * rule. Each pattern matches the secret's value alone (the name before it is a
 * lookbehind), so that is all a redaction replaces.
 */
const PATTERNS = [
  {
    name: "private-key",
    patterns: [
      // Any armour, any body of key characters (escaped newlines, string literals per line, PGP
      // headers), never across another armour line.
      "/-----BEGIN [A-Z0-9 _-]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:(?!-----(?:BEGIN|END) )[A-Za-z0-9+\\/=\\s\"'`\\\\,;:._-]){30,16000}?-----END [A-Z0-9 _-]{0,40}PRIVATE KEY(?: BLOCK)?-----/",
      "/---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----[\\s\\S]{30,16000}?---- END SSH2 ENCRYPTED PRIVATE KEY ----/",
      // PuTTY: the private lines (the public ones may stay).
      "/(?<=Private-Lines:[ \\t]*\\d+[ \\t]*\\r?\\n)[A-Za-z0-9+\\/=]+(?:\\r?\\n[A-Za-z0-9+\\/=]+(?=\\r?\\n|$))*/",
    ],
    // Documentation shows the armour around "…" or "<key>".
    allows: ["/^-----BEGIN [^\\n]*-----(?:[\\s.\"'`,;+…*xX]|\\\\n|<[^>]*>)*-----END/"],
  },
  {
    name: "aws-access-key-id",
    patterns: ["/(?<![A-Z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}(?![A-Z0-9])/"],
    allows: ["/EXAMPLE$/"],
  },
  {
    name: "credential",
    patterns: [
      // NAME = "value", NAME: "value", "NAME": "value", NAME := "value", 'NAME' => 'value', NAME: &str = "value" …
      `/(?<=${NAME}["']?(?:\\[\\d*\\])?${TYPE}\\s*(?::=|=>|=|:)\\s*(?:[@rbfuRBFUL]|u8)?["'\`])${QUOTED_VALUE}/`,
      // C: #define NAME "value"; PHP: define('NAME', 'value')
      `/(?<=#\\s*define\\s+${NAME}\\s+(?:[LuU]|u8)?")${QUOTED_VALUE}/`,
      `/(?<=define\\(\\s*["']${NAME}["']\\s*,\\s*["'])${QUOTED_VALUE}/`,
      // SQL: ... PASSWORD 'value', IDENTIFIED BY 'value'
      `/(?<=(?<![\\w])(?:${anyCase("password")}|${anyCase("identified")}\\s+${anyCase("by")})\\s+["'])${QUOTED_VALUE}/`,
      // Authorization headers in code and docs.
      "/(?<=\\b[Bb]earer\\s+)[A-Za-z0-9._~+\\/-]{24,}=*(?![\\w.~+\\/-])/",
    ],
    allows: PLACEHOLDERS,
  },
  {
    name: "credential",
    // Unquoted values where a file format allows them: YAML, INI, .properties, env-style files and scripts.
    filePathGlobs: [
      "**/*.{yml,yaml,ini,cfg,conf,properties,env,sh,bash,zsh,dockerfile}",
      "**/Dockerfile*",
      "**/.env*",
    ],
    patterns: [
      `/(?<=^[ \\t]*(?:-[ \\t]+)?(?:export[ \\t]+|ENV[ \\t]+|ARG[ \\t]+|set[ \\t]+)?${NAME}[ \\t]*[=:][ \\t]*)${BARE_VALUE}/m`,
    ],
    allows: PLACEHOLDERS,
  },
];

/** Documentation's stock credentials in URLs (`http://user:pass@host`): no secret. */
const EXAMPLE_URL_CREDENTIALS = [
  "/^[a-z][a-z0-9+.-]*:\\/\\/(?:user(?:name)?|foo|admin|me|login|name)?:(?:pass(?:word)?|secret|bar|pw|xxx+|\\*+)@/i",
];

/**
 * The recommended preset's rules, less the one that obeys `secretlint-disable` comments
 * (a repository must not switch detection off), plus the patterns above.
 */
const presetRules: SecretLintCoreConfig["rules"] = recommendedRules
  .filter((rule) => rule.meta.id !== `${RULE_PREFIX}filter-comments`)
  .map((rule) => ({
    id: rule.meta.id,
    rule,
    ...(rule.meta.id === `${RULE_PREFIX}basicauth` ? { options: { allows: EXAMPLE_URL_CREDENTIALS } } : {}),
  }));
const config: SecretLintCoreConfig = {
  rules: [...presetRules, { id: patternRule.meta.id, rule: patternRule, options: { patterns: PATTERNS } }],
};
const presetConfig: SecretLintCoreConfig = { rules: presetRules };

/**
 * Text every pattern above needs somewhere in a file (any case): a credential keyword, a
 * private key's armour, PuTTY's private lines, a bearer token or an AWS key id's prefix.
 * A file without any is checked by the preset alone: the patterns' lookbehinds cost more
 * than the rest of the check together, and most source files hold none of these words.
 */
const PATTERN_TRIGGERS =
  /pass[_.-]?(?:word|phrase)|passwd|pwd|secret|token|api[_.-]?key|private[ _.-]?key|credential|access[_.-]?key|auth[_.-]?key|identified|bearer|private-lines|a3t|akia|asia|abia|acca/i;

/** Characters a token is made of: a reported range that stops inside one is extended to its end. */
const TOKEN_CHAR = /[A-Za-z0-9+/=_.~-]/;

function extendToTokenEnd(content: string, end: number): number {
  let at = end;
  while (at < content.length && TOKEN_CHAR.test(content[at] ?? "")) at++;
  return at;
}

/** A URL's password, between `scheme://user:` and `@`. */
const URL_PASSWORD = /^[a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:([^@\s]+)@/i;
/** `name = "`, `"name": "`, `name: ` … in front of a value. */
const ASSIGNMENT_PREFIX = /^[\w$@.>-]+["']?\s*(?::=|=>|=|:(?!\/\/))\s*(?:[@rbfu]|u8)?["'`]?/i;

/**
 * Where the value lies in a reported range. Some rules report the assignment around it
 * (`AWS_SECRET_ACCESS_KEY = "…`), the whole URL around a password, or a closing quote:
 * only the value is redacted, so the line still reads as code.
 */
export function valueRange(content: string, start: number, end: number): [number, number] {
  const text = content.slice(start, end);
  const url = URL_PASSWORD.exec(text);
  if (url?.[1]) {
    const at = start + url[0].length - 1 - url[1].length;
    return [at, at + url[1].length];
  }
  let from = start;
  const prefix = ASSIGNMENT_PREFIX.exec(text);
  if (prefix && prefix[0].length < text.length) from += prefix[0].length;
  let to = extendToTokenEnd(content, end);
  while (to > from && /["'`;,]/.test(content[to - 1] ?? "")) to--;
  return [from, to];
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

/** The rule behind a message: the preset rule's short name, or the pattern's name. */
function ruleName(message: { ruleId: string; message: string; data?: object }): string {
  if (message.ruleId !== patternRule.meta.id) return message.ruleId.replace(RULE_PREFIX, "");
  const named = (message.data as { PATTERN_NAME?: unknown } | undefined)?.PATTERN_NAME;
  return typeof named === "string"
    ? named
    : (/^found matching ([\w-]+):/.exec(message.message)?.[1] ?? "pattern");
}

/** Finds the secrets in one file's text and replaces each value with a marker (line numbers kept). */
export async function redactSecrets(relativePath: string, content: string): Promise<RedactedText> {
  const result = await lintSource({
    source: { filePath: `/repository/${relativePath}`, content, contentType: "text" },
    // Unmasked: the messages only give ranges and pattern names here, and never leave this function.
    options: {
      config: PATTERN_TRIGGERS.test(content) ? config : presetConfig,
      maskSecrets: false,
      noPhysicFilePath: false,
    },
  });
  const ranges = result.messages
    .map((m) => {
      // The patterns match values exactly; the preset's rules report what is around them too.
      const [start, end] =
        m.ruleId === patternRule.meta.id ? m.range : valueRange(content, m.range[0], m.range[1]);
      return { start, end, rule: ruleName(m) };
    })
    .filter((r) => r.end > r.start)
    .sort((a, b) => a.start - b.start || b.end - a.end);
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
