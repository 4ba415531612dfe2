// Next.js configuration. Native and WASM-backed packages stay external to the
// server bundle so they load from node_modules at runtime.
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(fileURLToPath(import.meta.url));

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // Separate build folders let parallel e2e runs coexist (NEXT_DIST_DIR=.next-a …).
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  poweredByHeader: false,
  turbopack: { root },
  serverExternalPackages: [
    "web-tree-sitter",
    "@vscode/tree-sitter-wasm",
    "@prisma/client",
    "@prisma/adapter-libsql",
    "@libsql/client",
    "libsql",
    "usearch",
    "gpt-tokenizer",
    "shiki",
  ],
};

export default nextConfig;
