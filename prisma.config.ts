// Prisma CLI configuration: migrations run through the same driver adapter the app
// uses (libSQL for the embedded SQLite file, node-postgres for a postgres:// URL), so
// no native engine binary is ever downloaded. Each database has its own schema file
// (prisma/postgres/schema.prisma is derived from prisma/schema.prisma) and its own
// migrations folder, with the same migration names.
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaPg } from "@prisma/adapter-pg";

const url = process.env.DATABASE_URL ?? `file:${path.resolve(".wayfinder/wayfinder.db")}`;
const postgres = /^postgres(ql)?:\/\//.test(url);

export default defineConfig({
  schema: postgres ? path.join("prisma", "postgres", "schema.prisma") : path.join("prisma", "schema.prisma"),
  migrations: {
    path: postgres ? path.join("prisma", "postgres", "migrations") : path.join("prisma", "migrations"),
  },
  experimental: { adapter: true },
  engine: "js",
  async adapter() {
    return postgres ? new PrismaPg({ connectionString: url }) : new PrismaLibSQL({ url });
  },
});
