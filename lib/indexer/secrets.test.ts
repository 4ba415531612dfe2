/**
 * Secret detection and redaction: well-known secret files by name, key files by their
 * content, secrets inside files by secretlint's recommended rules and the pattern rule's
 * families (private keys of every armour, AWS key ids, credential assignments), each
 * value replaced by a marker that keeps the name, the quotes and every line number; the
 * lookalikes left alone; and discovery applying all of it before any text enters the index.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plantedSecretsRepository } from "@/test-support/planted-secrets";
import { setupTempEnv, type TempEnv } from "@/test-support/temp-env";
import { discoverFiles } from "./discover";
import { isKeyMaterialFile, isSecretByContent, isSecretFile, redactSecrets } from "./secrets";

const planted = plantedSecretsRepository();

describe("isSecretFile", () => {
  it.each([
    ".env",
    ".env.production",
    "deploy/id_rsa",
    "deploy/putty.ppk",
    "store.p12.jks",
    "config/credentials.json",
    ".npmrc",
    "prod.tfvars",
    "gcp/service-account.json",
    "secrets.yaml",
    ".pgpass",
  ])("skips %s", (path) => expect(isSecretFile(path)).toBe(true));
  it.each([
    ".env.example",
    ".env.sample",
    "id_rsa.pub",
    "keys.py",
    "environment.ts",
    "config/settings.json",
    "README.md",
    "a/b/server.pem",
    "tls.key",
  ])("keeps %s", (path) => expect(isSecretFile(path)).toBe(false));
});

describe("key files by content", () => {
  it.each(["a/b/server.pem", "tls.key", "ca.crt", "release.asc", "client.p12"])(
    "judges %s by content",
    (path) => expect(isKeyMaterialFile(path)).toBe(true),
  );
  it("skips a private key in any armour and a binary keystore, and keeps certificates, public keys and signatures", () => {
    const text = (s: string) => new TextEncoder().encode(s);
    for (const file of planted.secretFiles.filter((f) => isKeyMaterialFile(f.path)))
      expect(isSecretByContent(file.path, text(planted.files[file.path] ?? "")), file.path).toBe(true);
    for (const path of ["certs/ca.pem", "keys/signing.pub.pem", "keys/release.asc"])
      expect(isSecretByContent(path, text(planted.files[path] ?? "")), path).toBe(false);
    const der = Uint8Array.from([0x30, 0x82, 0x02, 0x01, 0x00, 0x02]);
    expect(isSecretByContent("client.p12", der)).toBe(true);
    expect(isSecretByContent("server.key", der)).toBe(true);
    expect(isSecretByContent("ca.cer", der)).toBe(false);
  });
});

describe("redactSecrets", () => {
  it("plants more than forty forms of secret", () => {
    expect(planted.secrets.length).toBeGreaterThanOrEqual(40);
    expect(planted.lookalikes.length).toBeGreaterThanOrEqual(20);
  });

  it.each(planted.secrets.map((s) => [s.form, s] as const))(
    "replaces %s by a marker, keeping the name, the quotes and the line count",
    async (_form, secret) => {
      const content = planted.files[secret.path] ?? "";
      expect(content, "planted").toContain(secret.value);
      const { content: redacted, redactions } = await redactSecrets(secret.path, content);
      expect(redacted).not.toContain(secret.value);
      expect(redacted).not.toContain(secret.fragment);
      expect(redacted.split("\n").length).toBe(content.split("\n").length);
      expect(redactions.length).toBeGreaterThan(0);
      expect(redacted).toMatch(/\[redacted [a-z0-9-]+ secret\]/);
      if (secret.keeps) expect(redacted).toContain(secret.keeps);
    },
  );

  it.each(planted.lookalikes.map((l) => [`${l.form}: ${l.text.split("\n")[0]}`, l] as const))(
    "leaves %s visible",
    async (_name, lookalike) => {
      const { content } = await redactSecrets(lookalike.path, planted.files[lookalike.path] ?? "");
      expect(content).toContain(lookalike.text);
    },
  );

  it("reports the line of each secret and leaves the code around it alone", async () => {
    const content = planted.files["shop/settings.py"] ?? "";
    const { content: redacted, redactions } = await redactSecrets("shop/settings.py", content);
    expect(redactions.map((r) => r.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 15]);
    expect(redactions.map((r) => r.rule)).toEqual([
      "github",
      "database-connection-string",
      "credential",
      "aws-access-key-id",
      "aws",
      "credential",
      "credential",
      "credential",
    ]);
    expect(redacted).toContain("def database_url():");
    const lines = redacted.split("\n");
    expect(lines[1]).toBe('GITHUB_TOKEN = "[redacted github secret]"');
    expect(lines[5]).toBe('AWS_SECRET_ACCESS_KEY = "[redacted aws secret]"');
    expect(lines[2]).toBe(
      'DATABASE_URL = "postgres://app:[redacted database-connection-string secret]@db.internal.example:5432/orders"',
    );
  });

  it("keeps a multi-line private key's lines, so later line numbers still hold", async () => {
    const content = planted.files["shop/keys.py"] ?? "";
    const { content: redacted, redactions } = await redactSecrets("shop/keys.py", content);
    const original = content.split("\n");
    const lineOf = (start: string) => original.findIndex((l) => l.startsWith(start)) + 1;
    expect(redactions.map((r) => r.line)).toEqual([2, lineOf("LEGACY_KEY"), lineOf('EDGE_KEY = """') + 1]);
    const lines = redacted.split("\n");
    expect(lines[1]).toBe('SIGNING_KEY = """[redacted privatekey secret]');
    expect(lines.findIndex((l) => l.startsWith("def signing_key"))).toBe(
      content.split("\n").findIndex((l) => l.startsWith("def signing_key")),
    );
  });

  it("cannot be switched off by a secretlint-disable comment in the repository", async () => {
    const github = planted.secrets[0]?.value ?? "";
    const { content } = await redactSecrets("a.py", `# secretlint-disable\nTOKEN = "${github}"\n`);
    expect(content).not.toContain(github);
  });

  it("leaves a file without secrets byte for byte", async () => {
    const text = 'def add(a, b):\n    """Adds."""\n    return a + b\n';
    expect(await redactSecrets("a.py", text)).toEqual({ content: text, redactions: [] });
  });
});

describe("discovery", () => {
  let t: TempEnv;
  beforeAll(async () => {
    t = await setupTempEnv();
  });
  afterAll(async () => t.cleanup());

  it("skips secret files, redacts secrets in the rest, and reports both by path and line only", async () => {
    const root = t.makeRepo(planted.files, "planted");
    const result = await discoverFiles(root, { maxFileBytes: 1024 * 1024 });
    const paths = result.files.map((f) => f.path);
    for (const file of planted.secretFiles) expect(paths).not.toContain(file.path);
    expect(result.skipped.secret).toBe(planted.secretFiles.length);
    const all = JSON.stringify(result.files) + JSON.stringify(result.secrets);
    for (const secret of planted.secrets) expect(all, secret.form).not.toContain(secret.fragment);
    for (const file of planted.secretFiles) expect(all, file.path).not.toContain(file.value);
    expect(result.secrets.skippedFiles).toBe(planted.secretFiles.length);
    // Certificates, public keys and signatures under ambiguous names are indexed as text.
    for (const path of ["certs/ca.pem", "keys/signing.pub.pem", "keys/release.asc"])
      expect(paths).toContain(path);
    for (const lookalike of planted.lookalikes)
      expect(result.files.find((f) => f.path === lookalike.path)?.content, lookalike.text).toContain(
        lookalike.text,
      );
    expect(result.secrets.items).toContainEqual({
      path: "shop/keys.py",
      line: 2,
      rule: "privatekey",
      action: "redacted",
    });
    expect(result.secrets.items).toContainEqual({
      path: ".env",
      line: null,
      rule: "secret-file",
      action: "skipped",
    });
    // The stored hash is the redacted text's, never the raw file's.
    const settings = result.files.find((f) => f.path === "shop/settings.py");
    expect(settings?.content).toContain("[redacted github secret]");
  });
});
