/**
 * Secret detection and redaction: well-known secret files by name, secrets inside
 * files by secretlint's recommended rules, replaced by markers that keep every line
 * number; and discovery applying both before any text enters the index.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plantedSecretsRepository } from "@/lib/test-support/planted-secrets";
import { setupTempEnv, type TempEnv } from "@/lib/test-support/temp-env";
import { discoverFiles } from "./discover";
import { isSecretFile, redactSecrets } from "./secrets";

const planted = plantedSecretsRepository();

describe("isSecretFile", () => {
  it.each([
    ".env",
    ".env.production",
    "deploy/id_rsa",
    "a/b/server.pem",
    "tls.key",
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
  ])("keeps %s", (path) => expect(isSecretFile(path)).toBe(false));
});

describe("redactSecrets", () => {
  it("replaces every planted secret with a marker naming its kind, and keeps the line count", async () => {
    for (const secret of planted.secrets) {
      const content = planted.files[secret.path] ?? "";
      const { content: redacted, redactions } = await redactSecrets(secret.path, content);
      expect(redacted, secret.form).not.toContain(secret.value);
      expect(redacted, secret.form).not.toContain(secret.fragment);
      expect(redacted.split("\n").length, secret.form).toBe(content.split("\n").length);
      expect(redactions.length, secret.form).toBeGreaterThan(0);
      expect(redacted, secret.form).toMatch(/\[redacted [a-z0-9-]+ secret\]/);
    }
  });

  it("reports the line of each secret and leaves the code around it alone", async () => {
    const content = planted.files["shop/settings.py"] ?? "";
    const { content: redacted, redactions } = await redactSecrets("shop/settings.py", content);
    expect(redactions.map((r) => r.line)).toEqual([2, 3]);
    expect(redactions.map((r) => r.rule)).toEqual(["github", "database-connection-string"]);
    expect(redacted).toContain("def database_url():");
    expect(redacted.split("\n")[1]).toBe('GITHUB_TOKEN = "[redacted github secret]"');
  });

  it("keeps a multi-line private key's lines, so later line numbers still hold", async () => {
    const content = planted.files["shop/keys.py"] ?? "";
    const { content: redacted, redactions } = await redactSecrets("shop/keys.py", content);
    expect(redactions).toEqual([{ line: 2, rule: "privatekey" }]);
    const lines = redacted.split("\n");
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
    expect(result.secrets.skippedFiles).toBe(4);
    expect(result.secrets.redactedFiles).toBe(10);
    expect(result.secrets.redactions).toBe(planted.secrets.length);
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
