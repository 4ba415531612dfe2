/**
 * GET serves mermaid's prebuilt ES module build (its entry and the chunks it imports,
 * from the installed package's dist folder) to the browser's mermaid renderer
 * (components/diagrams/mermaid-render.ts). Public like any static file: share pages
 * draw diagrams too. Only the installed version's `.mjs` files are served, and only
 * by name (letters, digits, `_` and `-`), so no path can reach another file.
 */
import fs from "node:fs";
import path from "node:path";
import { WayfinderError } from "@/lib/errors";
import { packageFile } from "@/lib/package-files";
import { apiRoute } from "@/app/api/api-route";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ version: string; file: string[] }> };

const BUNDLE_FILE = /^(mermaid\.esm\.min\.mjs|chunks\/mermaid\.esm\.min\/[A-Za-z0-9_-]+\.mjs)$/;

interface InstalledMermaid {
  version: string;
  dist: string;
}

/**
 * The installed package, looked up once per process: not the version the pages were
 * built with, so a page built before an upgrade gets a clear 404 rather than
 * mismatched chunks.
 */
let installed: Promise<InstalledMermaid> | null = null;

function installedMermaid(): Promise<InstalledMermaid> {
  installed ??= (async () => {
    const manifest = packageFile("mermaid", "package.json", "package.json");
    const { version } = JSON.parse(await fs.promises.readFile(manifest, "utf8")) as { version: string };
    return { version, dist: path.join(path.dirname(manifest), "dist") };
  })().catch((error: unknown) => {
    installed = null;
    throw error;
  });
  return installed;
}

function notFound(cause?: unknown): WayfinderError {
  return new WayfinderError("not_found:asset", "No such file.", { cause });
}

export const GET = apiRoute<Context, null>({ access: "public" }, async (_request, _identity, context) => {
  const { version, file } = await context.params;
  const name = file.join("/");
  if (!BUNDLE_FILE.test(name)) throw notFound();
  const mermaid = await installedMermaid();
  if (version !== mermaid.version) throw notFound();
  let bytes: Buffer;
  try {
    bytes = await fs.promises.readFile(path.join(mermaid.dist, ...name.split("/")));
  } catch (error) {
    throw notFound(error);
  }
  return new Response(new Uint8Array(bytes), {
    headers: {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=31536000, immutable",
    },
  });
});
