/**
 * A repository with secrets planted in ten forms inside ordinary files, plus four
 * well-known secret files, for the tests that prove none of them reaches the index.
 * Values are assembled at run time (and the private key generated), so no
 * credential-shaped string sits in this source file.
 */
import { generateKeyPairSync } from "node:crypto";

const join = (...parts: string[]) => parts.join("");

export interface PlantedSecret {
  form: string;
  path: string;
  /** the secret value itself */
  value: string;
  /** a shorter piece of it that must not appear anywhere either */
  fragment: string;
}

export interface PlantedRepository {
  files: Record<string, string>;
  secrets: PlantedSecret[];
  /** files skipped by name, with the value each holds */
  secretFiles: { path: string; value: string }[];
}

export function plantedSecretsRepository(): PlantedRepository {
  const pem = generateKeyPairSync("rsa", { modulusLength: 1024 })
    .privateKey.export({ type: "pkcs1", format: "pem" })
    .toString();
  const pemBody = pem.split("\n")[3] ?? "";
  const github = join("gh", "p_", "wWPw5k4aXcaT4fNP0Ucn", "ZwJUVFk6LO0pINUx");
  const aws = join("Hd4pX8bT1vQm6RkZ3sW9", "yLc2NfJ5gA7eU0oIiK4r");
  const slackToken = join("xo", "xb-", "123456789012-1234567890123-", "AbCdEfGhIjKlMnOpQrStUvWx");
  const slackHook = join(
    "https://hooks.",
    "slack.com/services/",
    "T01234567/B01234567/",
    "ZyXwVuTsRqPoNmLkJiHgFeDc",
  );
  const stripe = join("sk", "_live_", "51H8xYzAbCdEfGhIjKlMnOpQr", "StUvWxYz0123456789abcdef");
  const postgresPassword = join("s3cr3t", "P4ssw0rdQ9");
  const postgres = `postgres://app:${postgresPassword}@db.internal.example:5432/orders`;
  const basicPassword = join("Pa55w0rd", "Xyz42");
  const basic = `https://deploy:${basicPassword}@git.example.com/shop.git`;
  const npm = join("np", "m_", "AbCdEfGhIjKlMnOpQrSt", "UvWxYz0123456789");
  const anthropic = join("sk-", "ant-", "api03-", "Q".repeat(40), "w".repeat(53), "AA");
  const gitlab = join("gl", "pat-", "AbCdEfGhIj", "KlMnOpQrSt");

  const files: Record<string, string> = {
    "shop/settings.py": [
      '"""Settings of the shop service."""',
      `GITHUB_TOKEN = "${github}"`,
      `DATABASE_URL = "${postgres}"`,
      "",
      "def database_url():",
      '    """Where orders are stored."""',
      "    return DATABASE_URL",
      "",
    ].join("\n"),
    "shop/keys.py": [
      '"""Signing keys."""',
      `SIGNING_KEY = """${pem}"""`,
      "",
      "def signing_key():",
      "    return SIGNING_KEY",
      "",
    ].join("\n"),
    "config/aws.ini": ["[default]", "region = eu-west-1", `aws_secret_access_key = ${aws}`, ""].join("\n"),
    "config/chat.yaml": ["slack:", `  bot_token: ${slackToken}`, "  channel: orders", ""].join("\n"),
    "web/notify.ts": [
      "/** Posts order events to the team channel. */",
      `const WEBHOOK = "${slackHook}";`,
      "export async function notifyOrder(id: string): Promise<void> {",
      "  await fetch(WEBHOOK, { method: 'POST', body: JSON.stringify({ text: id }) });",
      "}",
      "",
    ].join("\n"),
    "web/billing.js": [
      `const STRIPE_KEY = "${stripe}";`,
      "export function chargeCard(amount) {",
      "  return { key: STRIPE_KEY, amount };",
      "}",
      "",
    ].join("\n"),
    "scripts/deploy.sh": ["#!/bin/sh", `git push ${basic} main`, ""].join("\n"),
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
    "svc/client.go": [
      "package svc",
      "",
      "// AnthropicKey authenticates the summariser.",
      `const AnthropicKey = "${anthropic}"`,
      "",
      "// Summarise asks the model for a summary.",
      "func Summarise(text string) string { return text }",
      "",
    ].join("\n"),
    "ci/gitlab.toml": ["[ci]", `token = "${gitlab}"`, ""].join("\n"),
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
  const envValue = join("env-only-", "value-7c1f9a2b");
  const rsaValue = join("rsa-only-", "value-4e8d2c6a");
  const pemValue = join("pem-only-", "value-9b3a7f1e");
  const credentialsValue = join("credentials-only-", "value-2d5e8a4c");
  const secretFiles = [
    { path: ".env", value: envValue },
    { path: "deploy/id_rsa", value: rsaValue },
    { path: "certs/server.pem", value: pemValue },
    { path: "config/credentials.json", value: credentialsValue },
  ];
  files[".env"] = `API_SECRET=${envValue}\n`;
  files["deploy/id_rsa"] = `${rsaValue}\n`;
  files["certs/server.pem"] = `${pemValue}\n`;
  files["config/credentials.json"] = JSON.stringify({ key: credentialsValue }) + "\n";

  const secrets: PlantedSecret[] = [
    { form: "GitHub token in Python", path: "shop/settings.py", value: github, fragment: github.slice(-16) },
    {
      form: "PostgreSQL URL with password",
      path: "shop/settings.py",
      value: postgres,
      fragment: postgresPassword,
    },
    { form: "RSA private key in a string", path: "shop/keys.py", value: pem, fragment: pemBody.slice(8, 40) },
    { form: "AWS secret access key in INI", path: "config/aws.ini", value: aws, fragment: aws.slice(-16) },
    {
      form: "Slack bot token in YAML",
      path: "config/chat.yaml",
      value: slackToken,
      fragment: slackToken.slice(-16),
    },
    {
      form: "Slack webhook in TypeScript",
      path: "web/notify.ts",
      value: slackHook,
      fragment: slackHook.slice(-20),
    },
    {
      form: "Stripe live key in JavaScript",
      path: "web/billing.js",
      value: stripe,
      fragment: stripe.slice(-16),
    },
    {
      form: "basic-auth URL in a shell script",
      path: "scripts/deploy.sh",
      value: basic,
      fragment: basicPassword,
    },
    { form: "npm token in Markdown", path: "README.md", value: npm, fragment: npm.slice(-16) },
    { form: "Anthropic key in Go", path: "svc/client.go", value: anthropic, fragment: anthropic.slice(-20) },
    { form: "GitLab token in TOML", path: "ci/gitlab.toml", value: gitlab, fragment: gitlab.slice(-12) },
  ];
  return { files, secrets, secretFiles };
}
