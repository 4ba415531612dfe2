#!/usr/bin/env node
// Derives prisma/postgres/schema.prisma from prisma/schema.prisma, the one source of
// truth for the models: same models, provider postgresql, its own generated client.
// prisma/generate-clients.mjs (`npm run db:generate`, postinstall) derives it before
// generating both clients; `--check` exits 1 when the checked-in copy is stale (a test
// runs it too).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(fileURLToPath(import.meta.url));
const source = path.join(root, "schema.prisma");
const target = path.join(root, "postgres", "schema.prisma");

export function derivePostgresSchema(text) {
  let out = text;
  const swap = (pattern, replacement, what) => {
    if (!pattern.test(out))
      throw new Error(`derive-postgres-schema: ${what} not found in prisma/schema.prisma`);
    out = out.replace(pattern, replacement);
  };
  swap(/(datasource db \{[^}]*provider\s*=\s*)"sqlite"/, '$1"postgresql"', 'datasource provider "sqlite"');
  swap(
    /(generator client \{[^}]*output\s*=\s*)"\.\.\/lib\/db\/generated"/,
    '$1"../../lib/db/generated-pg"',
    'generator output "../lib/db/generated"',
  );
  const header =
    "// GENERATED from prisma/schema.prisma by prisma/derive-postgres-schema.mjs: do not edit.\n" +
    "// Change prisma/schema.prisma and run `npm run db:generate`; then add a migration under\n" +
    "// prisma/postgres/migrations with the same name as the SQLite one (see README, PostgreSQL).\n\n";
  return header + out;
}

/** Writes prisma/postgres/schema.prisma when it differs from the derived text; false when it was stale. */
export function writePostgresSchema({ check = false } = {}) {
  const derived = derivePostgresSchema(fs.readFileSync(source, "utf8"));
  const current = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : null;
  if (current === derived) return true;
  if (!check) {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, derived);
  }
  return false;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (
  isMain &&
  !writePostgresSchema({ check: process.argv.includes("--check") }) &&
  process.argv.includes("--check")
) {
  console.error("prisma/postgres/schema.prisma is stale: run `npm run db:generate`.");
  process.exit(1);
}
