/**
 * A repository with secrets planted in more than forty forms inside ordinary files
 * (every kind of PEM private key, credential assignments in each indexed language and
 * in YAML, JSON, TOML, INI, .properties and env-style files, cloud and service tokens),
 * secret files skipped by name or by content, and lookalikes that are not secrets
 * (placeholders, references, certificates, public keys, signatures, documentation
 * examples) and must stay visible, for the tests that prove no secret reaches the index.
 * Values are assembled at run time (keys generated, tokens drawn from a seeded
 * generator), so no credential-shaped string sits in this source file.
 */
import { generateKeyPairSync, type KeyObject } from "node:crypto";

const join = (...parts: string[]) => parts.join("");

export interface PlantedSecret {
  form: string;
  path: string;
  /** the secret value itself */
  value: string;
  /** a shorter piece of it that must not appear anywhere either */
  fragment: string;
  /** text around the value that must survive redaction (the name and its quotes) */
  keeps?: string;
}

export interface Lookalike {
  form: string;
  path: string;
  /** text that must stay in the index exactly as written */
  text: string;
}

export interface PlantedRepository {
  files: Record<string, string>;
  secrets: PlantedSecret[];
  /** files skipped as secret files (by name, or by content where the name is ambiguous), with a value each holds */
  secretFiles: { path: string; value: string }[];
  lookalikes: Lookalike[];
}

/** A deterministic generator of token-like strings (a linear congruential generator). */
function tokens(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state;
  };
  return (length: number, alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"): string => {
    let out = "";
    // The high bits: an LCG's low bits repeat with a short period.
    for (let i = 0; i < length; i++) out += alphabet[Math.floor((next() / 2 ** 32) * alphabet.length)];
    return out;
  };
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const HEX = "0123456789abcdef";
const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function pem(key: KeyObject, type: "pkcs1" | "pkcs8" | "sec1", passphrase?: string): string {
  const options =
    passphrase === undefined
      ? { type, format: "pem" as const }
      : { type: "pkcs8" as const, format: "pem" as const, cipher: "aes-256-cbc", passphrase };
  return (key.export(options) as string).trimEnd();
}

/** The base64 lines of a PEM block. */
const bodyOf = (block: string) => block.split("\n").filter((l) => l && !l.startsWith("-----"));

/** A PEM block of `label` around a random base64 body of `bytes` bytes (formats Node cannot write). */
function armored(label: string, body: string): string {
  const lines = body.match(/.{1,64}/g) ?? [];
  return [`-----BEGIN ${label}-----`, ...lines, `-----END ${label}-----`].join("\n");
}

export function plantedSecretsRepository(): PlantedRepository {
  const t = tokens(0x5eed);
  const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 });
  const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const ed = generateKeyPairSync("ed25519");
  const rsaPkcs1 = pem(rsa.privateKey, "pkcs1");
  const rsaPkcs8 = pem(rsa.privateKey, "pkcs8");
  const encrypted = pem(ec.privateKey, "pkcs8", join("pass", "phrase-", t(8)));
  const ecSec1 = pem(ec.privateKey, "sec1");
  const ecPkcs8 = pem(generateKeyPairSync("ec", { namedCurve: "P-384" }).privateKey, "pkcs8");
  const ed25519 = pem(ed.privateKey, "pkcs8");
  // DSA's and OpenSSH's own armours, PuTTY and PGP: written here around random bodies.
  const dsa = armored(join("DSA PRIV", "ATE KEY"), "MIIBuwIBAAKBgQ" + t(560, BASE64.slice(0, 62)));
  const openssh = armored(
    join("OPENSSH PRIV", "ATE KEY"),
    Buffer.from(join("openssh-key-v1", "\0", t(300))).toString("base64"),
  );
  const putty = [
    join("PuTTY-User-Key-", "File-3: ssh-ed25519"),
    "Encryption: none",
    "Comment: deploy@shop",
    "Public-Lines: 2",
    `AAAAC3NzaC1lZDI1NTE5AAAAI${t(40, BASE64.slice(0, 62))}`,
    t(20, BASE64.slice(0, 62)),
    "Private-Lines: 1",
    `AAAAI${t(40, BASE64.slice(0, 62))}`,
    `Private-MAC: ${t(64, HEX)}`,
  ].join("\n");
  const puttyPrivate = putty.split("\n")[7] ?? "";
  const pgpLines = (t(600, BASE64).match(/.{1,64}/g) ?? []).map((l) => l);
  const pgp = [
    join("-----BEGIN PGP PRIV", "ATE KEY BLOCK-----"),
    "Comment: release signing key",
    "",
    ...pgpLines,
    `=${t(4, BASE64)}`,
    join("-----END PGP PRIV", "ATE KEY BLOCK-----"),
  ].join("\n");

  // Keys as written into the files: indented in YAML, one C string literal per line.
  const ecSec1Yaml = ecSec1.split("\n").join("\n    ");
  const dsaC = dsa.split("\n").join('\\n"\n    "');

  const github = join("gh", "p_", t(36, BASE64.slice(0, 62)));
  const awsSecret = t(40, BASE64.slice(0, 62));
  const awsKeyId = join("AK", "IA", t(16, BASE32));
  const awsKeyIdInYaml = join("AS", "IA", t(16, BASE32));
  const slackToken = join("xo", "xb-", t(12, "0123456789"), "-", t(13, "0123456789"), "-", t(24));
  const slackHook = join(
    "https://hooks.",
    "slack.com/services/",
    `T${t(8, BASE32)}/B${t(8, BASE32)}/`,
    t(24),
  );
  const stripe = join("sk", "_live_", t(48, BASE64.slice(0, 62)));
  const postgresPassword = join("s3cr3t", t(10));
  const postgres = `postgres://app:${postgresPassword}@db.internal.example:5432/orders`;
  const basicPassword = join("Pa55", t(9));
  const basic = `https://deploy:${basicPassword}@git.example.com/shop.git`;
  const npm = join("np", "m_", t(36, BASE64.slice(0, 62)));
  const anthropic = join("sk-", "ant-", "api03-", t(93, BASE64.slice(0, 62)), "AA");
  const gitlab = join("gl", "pat-", t(20, BASE64.slice(0, 62)));
  const pw = (n: number) => join(t(n - 4), "!", t(3, "0123456789"));

  const v = {
    adminPassword: pw(16),
    kwargPassword: pw(14),
    privateKeyHex: t(64, HEX),
    credentials: join(t(12), ":", t(20)),
    tsApiKey: t(32, BASE64.slice(0, 62)),
    tsxClientSecret: t(28),
    jsPassword: pw(12),
    goToken: t(40, HEX),
    rustApiKey: t(32),
    rustSecret: pw(18),
    cToken: t(30),
    cPassword: pw(13),
    cppToken: t(36),
    csSecret: t(34),
    csPassword: pw(15),
    javaPassword: pw(14),
    rubyPassword: pw(12),
    rubyApiKey: t(32, HEX),
    phpPassword: pw(12),
    phpDbPassword: pw(16),
    phpSecretKey: t(40),
    yamlPassword: pw(14),
    yamlDbPassword: pw(17),
    jsonPassword: pw(15),
    jsonApiKey: t(32),
    tomlApiKey: t(36),
    iniSecret: t(30),
    propertiesPassword: pw(14),
    propertiesJwt: t(48),
    shellToken: t(40),
    dockerPassword: pw(16),
    composePassword: pw(14),
    sqlPassword: pw(12),
  };

  const files: Record<string, string> = {
    "shop/settings.py": [
      '"""Settings of the shop service."""',
      `GITHUB_TOKEN = "${github}"`,
      `DATABASE_URL = "${postgres}"`,
      `ADMIN_PASSWORD = "${v.adminPassword}"`,
      `AWS_ACCESS_KEY_ID = "${awsKeyId}"`,
      `AWS_SECRET_ACCESS_KEY = "${awsSecret}"`,
      `SIGNING_PRIVATE_KEY = "${v.privateKeyHex}"`,
      `PARTNER_CREDENTIALS = '${v.credentials}'`,
      "",
      "def database_url():",
      '    """Where orders are stored."""',
      "    return DATABASE_URL",
      "",
      "def connect(db):",
      `    return db.open(user="shop", password="${v.kwargPassword}")`,
      "",
    ].join("\n"),
    "shop/keys.py": [
      '"""Signing keys."""',
      `SIGNING_KEY = """${rsaPkcs1}"""`,
      "",
      `LEGACY_KEY = "${rsaPkcs8.replace(/\n/g, "\\n")}"`,
      "",
      `EDGE_KEY = """`,
      ed25519,
      '"""',
      "",
      "def signing_key():",
      "    return SIGNING_KEY",
      "",
    ].join("\n"),
    "shop/lookalikes.py": [
      '"""Names that look like credentials but hold none."""',
      "import getpass",
      "import os",
      "",
      'PASSWORD_FIELD = "password"',
      'token_type = "bearer"',
      "max_tokens = 4096",
      'EMPTY_TOKEN = ""',
      'API_SECRET = "xxxxxxxxxxxxxxxx"',
      'DB_PASSWORD = os.environ["DB_PASSWORD"]',
      'tokenizer_model = "bert-base-uncased"',
      'token_url = "https://auth.example.com/oauth/token"',
      'secret_key_path = "/etc/shop/secret.key"',
      'commit = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4"',
      'EXAMPLE_KEY_ID = "AKIAIOSFODNN7EXAMPLE"',
      "",
      "def ask_password():",
      "    password = getpass.getpass()",
      "    return password",
      "",
    ].join("\n"),
    "config/aws.ini": ["[default]", "region = eu-west-1", `aws_secret_access_key = ${awsSecret}`, ""].join(
      "\n",
    ),
    "config/chat.yaml": ["slack:", `  bot_token: ${slackToken}`, "  channel: orders", ""].join("\n"),
    "config/app.yaml": [
      "database:",
      "  host: db.internal.example",
      `  password: ${v.yamlPassword}`,
      `  db_password: "${v.yamlDbPassword}"`,
      `  backup_key_id: ${awsKeyIdInYaml}`,
      "tls:",
      "  private_key: |",
      `    ${ecSec1Yaml}`,
      "defaults:",
      "  password: changeme",
      "  api_key: ${API_KEY}",
      '  token: "{{ vault_token }}"',
      "  secret: <secret>",
      "",
    ].join("\n"),
    "config/settings.json": JSON.stringify(
      {
        service: "shop",
        password: v.jsonPassword,
        apiKey: v.jsonApiKey,
        signing: { private_key: `${rsaPkcs8}\n` },
        placeholder: { password: "", apiKey: "<your-api-key>" },
      },
      null,
      2,
    ),
    "config/app.toml": [
      "[service]",
      `api_key = "${v.tomlApiKey}"`,
      'docs_token = "your-token-here"',
      "",
    ].join("\n"),
    "config/app.ini": ["[auth]", `secret = ${v.iniSecret}`, "secret_name = shop-auth", ""].join("\n"),
    "config/application.properties": [
      "spring.datasource.url=jdbc:postgresql://db/shop",
      `spring.datasource.password=${v.propertiesPassword}`,
      `jwt.secret=${v.propertiesJwt}`,
      "mail.password=${MAIL_PASSWORD}",
      "",
    ].join("\n"),
    "ci/gitlab.toml": ["[ci]", `token = "${gitlab}"`, ""].join("\n"),
    "web/notify.ts": [
      "/** Posts order events to the team channel. */",
      `const WEBHOOK = "${slackHook}";`,
      `const apiKey: string = "${v.tsApiKey}";`,
      "export async function notifyOrder(id: string): Promise<void> {",
      "  await fetch(WEBHOOK, { method: 'POST', headers: { 'x-api-key': apiKey }, body: JSON.stringify({ text: id }) });",
      "}",
      "",
    ].join("\n"),
    "web/Login.tsx": [
      `const clientSecret = '${v.tsxClientSecret}';`,
      "export function Login() {",
      "  return <form data-secret={clientSecret} />;",
      "}",
      "",
    ].join("\n"),
    "web/billing.js": [
      `const STRIPE_KEY = "${stripe}";`,
      `const db = { user: "shop", password: "${v.jsPassword}" };`,
      "export function chargeCard(amount) {",
      "  return { key: STRIPE_KEY, amount, db };",
      "}",
      "",
    ].join("\n"),
    "web/keys.js": [
      "export const wrappedKey = `" + encrypted + "`;",
      "export function unwrap(key) {",
      "  return key.trim();",
      "}",
      "",
    ].join("\n"),
    "svc/client.go": [
      "package svc",
      "",
      "// AnthropicKey authenticates the summariser.",
      `const AnthropicKey = "${anthropic}"`,
      "",
      "// Summarise asks the model for a summary.",
      "func Summarise(text string) string {",
      `\tapiToken := "${v.goToken}"`,
      "\treturn text + apiToken",
      "}",
      "",
      "var signingKey = `" + ecPkcs8 + "`",
      "",
    ].join("\n"),
    "svc/src/lib.rs": [
      `const API_KEY: &str = "${v.rustApiKey}";`,
      "",
      "pub fn secret() -> String {",
      `    let secret_key = "${v.rustSecret}";`,
      "    secret_key.to_string()",
      "}",
      "",
      'pub const DEPLOY_KEY: &str = r#"',
      openssh,
      '"#;',
      "",
    ].join("\n"),
    "native/auth.c": [
      "#include <stdio.h>",
      "",
      `#define API_TOKEN "${v.cToken}"`,
      `static const char *db_password = "${v.cPassword}";`,
      "",
      "static const char *legacy_key =",
      `    "${dsaC}\\n"`,
      "    ;",
      "",
      "int login(void) { return puts(API_TOKEN); }",
      "",
    ].join("\n"),
    "native/client.cpp": [
      "#include <string>",
      "",
      `std::string auth_token = "${v.cppToken}";`,
      "",
      "int connect() { return static_cast<int>(auth_token.size()); }",
      "",
    ].join("\n"),
    "server/Config.cs": [
      "namespace Shop;",
      "",
      "public static class Config",
      "{",
      `    private const string ClientSecret = "${v.csSecret}";`,
      `    public static string Password() { var password = @"${v.csPassword}"; return password; }`,
      "}",
      "",
    ].join("\n"),
    "server/src/main/java/shop/Db.java": [
      "package shop;",
      "",
      "public class Db {",
      `    private static final String DB_PASSWORD = "${v.javaPassword}";`,
      "    public String password() { return DB_PASSWORD; }",
      "}",
      "",
    ].join("\n"),
    "lib/shop.rb": [
      "module Shop",
      `  PASSWORD = "${v.rubyPassword}"`,
      "  def self.configure(config)",
      `    config.api_key = '${v.rubyApiKey}'`,
      "  end",
      "end",
      "",
    ].join("\n"),
    "web/config.php": [
      "<?php",
      `$password = '${v.phpPassword}';`,
      "$settings = [",
      `    'db_password' => '${v.phpDbPassword}',`,
      "];",
      `define('SECRET_KEY', '${v.phpSecretKey}');`,
      "function settings() { global $settings; return $settings; }",
      "",
    ].join("\n"),
    "scripts/deploy.sh": ["#!/bin/sh", `git push ${basic} main`, ""].join("\n"),
    "scripts/env.sh": [
      "#!/bin/sh",
      `export API_TOKEN=${v.shellToken}`,
      'export DB_PASSWORD="$DB_PASSWORD_FROM_VAULT"',
      "",
    ].join("\n"),
    "db/users.sql": [`CREATE USER shop WITH PASSWORD '${v.sqlPassword}';`, ""].join("\n"),
    Dockerfile: [
      "FROM python:3.12",
      `ENV DB_PASSWORD=${v.dockerPassword}`,
      'CMD ["python", "-m", "shop"]',
      "",
    ].join("\n"),
    "docker-compose.yml": [
      "services:",
      "  db:",
      "    image: postgres:16",
      "    environment:",
      `      - POSTGRES_PASSWORD=${v.composePassword}`,
      "      - POSTGRES_USER=shop",
      "",
    ].join("\n"),
    "docs/putty.txt": ["The deploy key for the old build host:", "", putty, ""].join("\n"),
    "docs/signing.md": [
      "# Signing",
      "",
      "The release key (kept here by mistake):",
      "",
      "```",
      pgp,
      "```",
      "",
      "A key looks like this:",
      "",
      "```",
      join("-----BEGIN PRIV", "ATE KEY-----"),
      "...",
      join("-----END PRIV", "ATE KEY-----"),
      "```",
      "",
      "Clone with `git clone http://user:pass@localhost:8080/shop.git` or",
      "`https://username:password@git.example.com/shop.git` in the examples.",
      "",
    ].join("\n"),
    "README.md": [
      "# Shop",
      "",
      "Publishing needs an npm token:",
      "",
      "```",
      `//registry.npmjs.org/:_authToken=${npm}`,
      "```",
      "",
    ].join("\n"),
    "shop/orders.py": [
      '"""Orders."""',
      "from .settings import database_url",
      "",
      "def place_order(item):",
      '    """Places an order for one item."""',
      "    return database_url(), item",
      "",
    ].join("\n"),
  };

  // Ambiguous names, decided by content: keys are skipped, certificates, public keys and signatures indexed.
  const certificate = armored(
    "CERTIFICATE",
    Buffer.from([0x30, 0x82, ...Buffer.from(t(600))]).toString("base64"),
  );
  const publicKey = (rsa.publicKey.export({ type: "spki", format: "pem" }) as string).trimEnd();
  const signature = [
    "-----BEGIN PGP SIGNATURE-----",
    "",
    ...(t(180, BASE64).match(/.{1,64}/g) ?? []),
    `=${t(4, BASE64)}`,
    "-----END PGP SIGNATURE-----",
  ].join("\n");
  files["certs/ca.pem"] = `${certificate}\n`;
  files["certs/server.pem"] = `${certificate}\n${rsaPkcs8}\n`;
  files["keys/signing.key"] = `${ecSec1}\n`;
  files["keys/signing.pub.pem"] = `${publicKey}\n`;
  files["keys/release.asc"] = `${signature}\n`;
  files["keys/private.asc"] = `${pgp}\n`;

  const envValue = join("env-only-", t(12));
  const rsaValue = join("rsa-only-", t(12));
  const credentialsValue = join("credentials-only-", t(12));
  files[".env"] = `API_SECRET=${envValue}\n`;
  files["deploy/id_rsa"] = `${rsaValue}\n`;
  files["config/credentials.json"] = JSON.stringify({ key: credentialsValue }) + "\n";
  const secretFiles = [
    { path: ".env", value: envValue },
    { path: "deploy/id_rsa", value: rsaValue },
    { path: "config/credentials.json", value: credentialsValue },
    { path: "certs/server.pem", value: bodyOf(rsaPkcs8).at(-2) ?? "" },
    { path: "keys/signing.key", value: bodyOf(ecSec1)[1] ?? "" },
    { path: "keys/private.asc", value: pgpLines[3] ?? "" },
  ];

  const key = (form: string, path: string, block: string, keeps?: string): PlantedSecret => {
    // A line from the key's second half: the private part (an RSA key's first lines are its public modulus).
    const lines = bodyOf(block);
    return {
      form,
      path,
      value: block,
      fragment: (lines[Math.floor(lines.length * 0.6)] ?? "").slice(4, 40),
      keeps,
    };
  };
  const token = (form: string, path: string, value: string, keeps?: string): PlantedSecret => ({
    form,
    path,
    value,
    fragment: value.length > 20 ? value.slice(-16) : value.slice(2),
    keeps,
  });
  const secrets: PlantedSecret[] = [
    // Private keys of every kind.
    key("RSA private key (PKCS#1) in a Python string", "shop/keys.py", rsaPkcs1, 'SIGNING_KEY = """'),
    {
      ...key("RSA private key (PKCS#8) with escaped newlines in Python", "shop/keys.py", rsaPkcs8),
      value: rsaPkcs8.replace(/\n/g, "\\n"),
      keeps: 'LEGACY_KEY = "',
    },
    key("Ed25519 private key (PKCS#8) in Python", "shop/keys.py", ed25519, 'EDGE_KEY = """'),
    key("encrypted PKCS#8 private key in a JavaScript template", "web/keys.js", encrypted, "wrappedKey = `"),
    {
      ...key("EC private key (SEC1) in a YAML block", "config/app.yaml", ecSec1, "private_key: |"),
      value: ecSec1Yaml,
    },
    key("EC private key (PKCS#8) in a Go raw string", "svc/client.go", ecPkcs8, "var signingKey = `"),
    key("OpenSSH private key in a Rust raw string", "svc/src/lib.rs", openssh, 'DEPLOY_KEY: &str = r#"'),
    { ...key("DSA private key as C string literals", "native/auth.c", dsa, "legacy_key ="), value: dsaC },
    {
      ...key("RSA private key (PKCS#8) in a JSON string", "config/settings.json", rsaPkcs8),
      value: JSON.stringify(rsaPkcs8).slice(1, -1),
      keeps: '"private_key": "',
    },
    {
      form: "PuTTY private key",
      path: "docs/putty.txt",
      value: puttyPrivate,
      fragment: puttyPrivate.slice(6, 30),
      keeps: "Private-Lines: 1",
    },
    {
      form: "PGP private key block in Markdown",
      path: "docs/signing.md",
      value: pgp,
      fragment: (pgpLines[2] ?? "").slice(0, 40),
    },
    // Cloud and service tokens (secretlint's recommended rules).
    token("GitHub token in Python", "shop/settings.py", github, 'GITHUB_TOKEN = "'),
    {
      form: "PostgreSQL URL with password",
      path: "shop/settings.py",
      value: postgres,
      fragment: postgresPassword,
      keeps: 'DATABASE_URL = "postgres://app:',
    },
    token("AWS access key id in Python", "shop/settings.py", awsKeyId, 'AWS_ACCESS_KEY_ID = "'),
    token("AWS access key id in YAML", "config/app.yaml", awsKeyIdInYaml, "backup_key_id: "),
    token("AWS secret access key in Python", "shop/settings.py", awsSecret, 'AWS_SECRET_ACCESS_KEY = "'),
    token("AWS secret access key in INI", "config/aws.ini", awsSecret, "aws_secret_access_key = "),
    token("Slack bot token in YAML", "config/chat.yaml", slackToken, "bot_token: "),
    token("Slack webhook in TypeScript", "web/notify.ts", slackHook),
    token("Stripe live key in JavaScript", "web/billing.js", stripe, 'const STRIPE_KEY = "'),
    {
      form: "basic-auth URL in a shell script",
      path: "scripts/deploy.sh",
      value: basic,
      fragment: basicPassword,
      keeps: "https://deploy:",
    },
    token("npm token in Markdown", "README.md", npm),
    token("Anthropic key in Go", "svc/client.go", anthropic, 'const AnthropicKey = "'),
    token("GitLab token in TOML", "ci/gitlab.toml", gitlab, 'token = "'),
    // Credential assignments in code, one or more per indexed language.
    token("password constant in Python", "shop/settings.py", v.adminPassword, 'ADMIN_PASSWORD = "'),
    token("password keyword argument in Python", "shop/settings.py", v.kwargPassword, 'password="'),
    token("hex private key in Python", "shop/settings.py", v.privateKeyHex, 'SIGNING_PRIVATE_KEY = "'),
    token("credentials in Python", "shop/settings.py", v.credentials, "PARTNER_CREDENTIALS = '"),
    token("API key in TypeScript", "web/notify.ts", v.tsApiKey, 'const apiKey: string = "'),
    token("client secret in TSX", "web/Login.tsx", v.tsxClientSecret, "const clientSecret = '"),
    token("password property in JavaScript", "web/billing.js", v.jsPassword, 'password: "'),
    token("token in Go", "svc/client.go", v.goToken, 'apiToken := "'),
    token("API key constant in Rust", "svc/src/lib.rs", v.rustApiKey, 'const API_KEY: &str = "'),
    token("secret binding in Rust", "svc/src/lib.rs", v.rustSecret, 'let secret_key = "'),
    token("#define token in C", "native/auth.c", v.cToken, '#define API_TOKEN "'),
    token("password pointer in C", "native/auth.c", v.cPassword, 'db_password = "'),
    token("token string in C++", "native/client.cpp", v.cppToken, 'std::string auth_token = "'),
    token("client secret in C#", "server/Config.cs", v.csSecret, 'ClientSecret = "'),
    token("verbatim password in C#", "server/Config.cs", v.csPassword, 'var password = @"'),
    token(
      "password constant in Java",
      "server/src/main/java/shop/Db.java",
      v.javaPassword,
      'DB_PASSWORD = "',
    ),
    token("password constant in Ruby", "lib/shop.rb", v.rubyPassword, 'PASSWORD = "'),
    token("API key attribute in Ruby", "lib/shop.rb", v.rubyApiKey, "config.api_key = '"),
    token("password variable in PHP", "web/config.php", v.phpPassword, "$password = '"),
    token("password array entry in PHP", "web/config.php", v.phpDbPassword, "'db_password' => '"),
    token("define()d secret in PHP", "web/config.php", v.phpSecretKey, "define('SECRET_KEY', '"),
    // Credential assignments in configuration.
    token("password in YAML", "config/app.yaml", v.yamlPassword, "  password: "),
    token("quoted password in YAML", "config/app.yaml", v.yamlDbPassword, 'db_password: "'),
    token("password in JSON", "config/settings.json", v.jsonPassword, '"password": "'),
    token("API key in JSON", "config/settings.json", v.jsonApiKey, '"apiKey": "'),
    token("API key in TOML", "config/app.toml", v.tomlApiKey, 'api_key = "'),
    token("secret in INI", "config/app.ini", v.iniSecret, "secret = "),
    token(
      "password in .properties",
      "config/application.properties",
      v.propertiesPassword,
      "spring.datasource.password=",
    ),
    token("JWT secret in .properties", "config/application.properties", v.propertiesJwt, "jwt.secret="),
    token("exported token in a shell script", "scripts/env.sh", v.shellToken, "export API_TOKEN="),
    token("ENV password in a Dockerfile", "Dockerfile", v.dockerPassword, "ENV DB_PASSWORD="),
    token(
      "environment password in docker-compose",
      "docker-compose.yml",
      v.composePassword,
      "- POSTGRES_PASSWORD=",
    ),
    token("password in SQL", "db/users.sql", v.sqlPassword, "WITH PASSWORD '"),
  ];

  const lookalikes: Lookalike[] = [
    ...[
      'PASSWORD_FIELD = "password"',
      'token_type = "bearer"',
      "max_tokens = 4096",
      'EMPTY_TOKEN = ""',
      'API_SECRET = "xxxxxxxxxxxxxxxx"',
      'DB_PASSWORD = os.environ["DB_PASSWORD"]',
      'tokenizer_model = "bert-base-uncased"',
      'token_url = "https://auth.example.com/oauth/token"',
      'secret_key_path = "/etc/shop/secret.key"',
      'commit = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4"',
      'EXAMPLE_KEY_ID = "AKIAIOSFODNN7EXAMPLE"',
      "password = getpass.getpass()",
    ].map((text) => ({ form: "Python lookalike", path: "shop/lookalikes.py", text })),
    ...["password: changeme", "api_key: ${API_KEY}", 'token: "{{ vault_token }}"', "secret: <secret>"].map(
      (text) => ({ form: "YAML placeholder", path: "config/app.yaml", text }),
    ),
    { form: "JSON placeholder", path: "config/settings.json", text: '"apiKey": "<your-api-key>"' },
    { form: "empty JSON password", path: "config/settings.json", text: '"password": ""' },
    { form: "TOML example value", path: "config/app.toml", text: 'docs_token = "your-token-here"' },
    { form: "INI reference", path: "config/app.ini", text: "secret_name = shop-auth" },
    {
      form: ".properties reference",
      path: "config/application.properties",
      text: "mail.password=${MAIL_PASSWORD}",
    },
    {
      form: "shell variable reference",
      path: "scripts/env.sh",
      text: 'export DB_PASSWORD="$DB_PASSWORD_FROM_VAULT"',
    },
    {
      form: "documentation URL with example credentials",
      path: "docs/signing.md",
      text: "http://user:pass@localhost:8080/shop.git",
    },
    {
      form: "documentation URL with example credentials",
      path: "docs/signing.md",
      text: "https://username:password@git.example.com/shop.git",
    },
    {
      form: "placeholder private key",
      path: "docs/signing.md",
      text: join("-----BEGIN PRIV", "ATE KEY-----\n...\n-----END PRIV", "ATE KEY-----"),
    },
    { form: "certificate in a .pem file", path: "certs/ca.pem", text: certificate },
    { form: "public key in a .pem file", path: "keys/signing.pub.pem", text: publicKey },
    { form: "PGP signature in an .asc file", path: "keys/release.asc", text: signature },
  ];
  return { files, secrets, secretFiles, lookalikes };
}
