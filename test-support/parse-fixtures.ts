/**
 * The extraction fixtures (lib/indexer/__fixtures__, malformed files included) as
 * discovery hands files to the parser, for tests that parse or index them.
 */
import fs from "node:fs";
import path from "node:path";
import { countLines, hashContent } from "../lib/indexer/discover.ts";
import type { SourceFile } from "../lib/indexer/parse-file.ts";
import { languageForFile, languageForPath } from "../lib/indexer/parser.ts";

export const FIXTURES = path.resolve(import.meta.dirname, "../lib/indexer/__fixtures__");

/** A code file with this content, as discovery hands it over (its language from its path). */
export function codeSource(
  path: string,
  content: string,
  language = languageForPath(path) ?? "text",
): SourceFile {
  return {
    path,
    language,
    kind: "code",
    content,
    hash: hashContent(content),
    size: Buffer.byteLength(content),
    lines: countLines(content),
    mtimeNs: null,
    fileClass: null,
    classReason: null,
  };
}

/** Every fixture (malformed ones included), as discovery hands files over. */
export function fixtureFiles(): SourceFile[] {
  const out: SourceFile[] = [];
  for (const dir of fs.readdirSync(FIXTURES).sort()) {
    if (!fs.statSync(path.join(FIXTURES, dir)).isDirectory()) continue;
    for (const name of fs.readdirSync(path.join(FIXTURES, dir)).sort()) {
      const content = fs.readFileSync(path.join(FIXTURES, dir, name), "utf8");
      out.push({
        path: `${dir}/${name}`,
        language: languageForFile(name, content) ?? "text",
        kind: "code",
        content,
        hash: hashContent(content),
        size: content.length,
        lines: countLines(content),
        mtimeNs: null,
        fileClass: null,
        classReason: null,
      });
    }
  }
  out.push({
    path: "README.md",
    language: "markdown",
    kind: "text",
    content: "# Fixtures\n\nText.\n",
    hash: "h",
    size: 19,
    lines: 3,
    mtimeNs: null,
    fileClass: null,
    classReason: null,
  });
  return out;
}
