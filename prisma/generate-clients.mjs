#!/usr/bin/env node
// Generates both Prisma clients (SQLite and PostgreSQL) after deriving the PostgreSQL
// schema: `npm run db:generate` and postinstall. Prisma's own output is kept for when
// it fails; on success it is only notices that read like trouble to a newcomer
// ("Prisma config detected, skipping environment variable loading." — expected, the
// config decides the database), so one line says what was generated instead.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writePostgresSchema } from "./derive-postgres-schema.mjs";

const project = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
writePostgresSchema();

const prisma = path.join(
  project,
  "node_modules",
  ".bin",
  process.platform === "win32" ? "prisma.cmd" : "prisma",
);
// Wayfinder runs Prisma's JS engine through driver adapters: point the native engines at
// a file that exists so nothing is downloaded.
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: "/bin/false",
  PRISMA_QUERY_ENGINE_LIBRARY: "/bin/false",
};
for (const schema of ["prisma/schema.prisma", "prisma/postgres/schema.prisma"]) {
  const run = spawnSync(prisma, ["generate", "--schema", schema], { cwd: project, env, encoding: "utf8" });
  if (run.status !== 0) {
    process.stdout.write(run.stdout ?? "");
    process.stderr.write(run.stderr ?? "");
    if (run.error) console.error(run.error.message);
    console.error(`Generating the database client for ${schema} failed.`);
    process.exit(run.status ?? 1);
  }
}
console.log("Generated the database clients (SQLite: lib/db/generated, PostgreSQL: lib/db/generated-pg).");
