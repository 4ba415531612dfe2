// Prisma CLI configuration: migrations run through the same libSQL driver adapter
// the app uses, so no native engine binary is ever downloaded.
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaLibSQL } from "@prisma/adapter-libsql";

const url = process.env.DATABASE_URL ?? `file:${path.resolve(".wayfinder/wayfinder.db")}`;

export default defineConfig({
  schema: path.join("prisma", "schema.prisma"),
  experimental: { adapter: true },
  engine: "js",
  async adapter() {
    return new PrismaLibSQL({ url });
  },
});
