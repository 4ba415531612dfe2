-- Index rows are shared between generations. Each row of File, Symbol, Edge, Chunk and
-- WikiPage carries the range of generation numbers it belongs to, [fromGeneration,
-- toGeneration) (2147483647 while current), instead of one generationId per copy, so a
-- build writes only what changed. Existing rows keep serving: each belongs to exactly
-- the generation it was written for; the next build of a repository re-indexes it in
-- full (INDEX_FORMAT_VERSION 4), and garbage collection drops the old rows.

-- The lexical index becomes one FTS5 table per repository (chunk_fts_<repository>), so
-- BM25 ranks only that repository's rows; lib/db/migrate.ts creates and fills them after
-- this migration.
DROP TABLE "chunk_fts";

PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;

CREATE TABLE "new_File" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repositoryId" TEXT NOT NULL,
    "fromGeneration" INTEGER NOT NULL,
    "toGeneration" INTEGER NOT NULL DEFAULT 2147483647,
    "path" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "lines" INTEGER NOT NULL,
    "imports" TEXT NOT NULL DEFAULT '[]',
    "parseErrors" INTEGER NOT NULL DEFAULT 0,
    "facts" TEXT NOT NULL DEFAULT '{}',
    "callNames" TEXT NOT NULL DEFAULT ''
);

INSERT INTO "new_File" ("id", "repositoryId", "fromGeneration", "toGeneration", "path", "language", "kind", "hash", "size", "lines", "imports", "parseErrors", "facts")
    SELECT x."id", g."repositoryId", g."number", g."number" + 1, x."path", x."language", x."kind", x."hash", x."size", x."lines", x."imports", x."parseErrors", x."facts"
    FROM "File" x JOIN "IndexGeneration" g ON g."id" = x."generationId";

DROP TABLE "File";
ALTER TABLE "new_File" RENAME TO "File";

CREATE INDEX "File_repositoryId_path_idx" ON "File"("repositoryId", "path");

CREATE INDEX "File_repositoryId_toGeneration_idx" ON "File"("repositoryId", "toGeneration");

CREATE INDEX "File_repositoryId_fromGeneration_idx" ON "File"("repositoryId", "fromGeneration");

CREATE INDEX "File_hash_idx" ON "File"("hash");

CREATE TABLE "new_Symbol" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repositoryId" TEXT NOT NULL,
    "fromGeneration" INTEGER NOT NULL,
    "toGeneration" INTEGER NOT NULL DEFAULT 2147483647,
    "fileId" INTEGER NOT NULL,
    "path" TEXT NOT NULL,
    "qualifiedId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "qualifiedName" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "startLine" INTEGER NOT NULL,
    "endLine" INTEGER NOT NULL,
    "signature" TEXT NOT NULL,
    "docstring" TEXT NOT NULL,
    "parentId" TEXT,
    "exported" BOOLEAN NOT NULL DEFAULT true,
    "calls" TEXT NOT NULL DEFAULT '[]',
    "raises" TEXT NOT NULL DEFAULT '[]',
    "mutates" TEXT NOT NULL DEFAULT '[]',
    "errorStrings" TEXT NOT NULL DEFAULT '[]',
    "decorators" TEXT NOT NULL DEFAULT '[]',
    "bases" TEXT NOT NULL DEFAULT '[]',
    "fanIn" INTEGER NOT NULL DEFAULT 0,
    "fanOut" INTEGER NOT NULL DEFAULT 0
);

INSERT INTO "new_Symbol" ("id", "repositoryId", "fromGeneration", "toGeneration", "fileId", "path", "qualifiedId", "name", "qualifiedName", "kind", "language", "startLine", "endLine", "signature", "docstring", "parentId", "exported", "calls", "raises", "mutates", "errorStrings", "decorators", "bases", "fanIn", "fanOut")
    SELECT x."id", g."repositoryId", g."number", g."number" + 1, x."fileId", x."path", x."qualifiedId", x."name", x."qualifiedName", x."kind", x."language", x."startLine", x."endLine", x."signature", x."docstring", x."parentId", x."exported", x."calls", x."raises", x."mutates", x."errorStrings", x."decorators", x."bases", x."fanIn", x."fanOut"
    FROM "Symbol" x JOIN "IndexGeneration" g ON g."id" = x."generationId";

DROP TABLE "Symbol";
ALTER TABLE "new_Symbol" RENAME TO "Symbol";

CREATE INDEX "Symbol_repositoryId_name_idx" ON "Symbol"("repositoryId", "name");

CREATE INDEX "Symbol_repositoryId_path_idx" ON "Symbol"("repositoryId", "path");

CREATE INDEX "Symbol_repositoryId_qualifiedId_idx" ON "Symbol"("repositoryId", "qualifiedId");

-- CreateIndex
CREATE INDEX "Symbol_repositoryId_qualifiedName_idx" ON "Symbol"("repositoryId", "qualifiedName");

CREATE INDEX "Symbol_repositoryId_toGeneration_idx" ON "Symbol"("repositoryId", "toGeneration");

CREATE INDEX "Symbol_repositoryId_fromGeneration_idx" ON "Symbol"("repositoryId", "fromGeneration");

CREATE TABLE "new_Edge" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repositoryId" TEXT NOT NULL,
    "fromGeneration" INTEGER NOT NULL,
    "toGeneration" INTEGER NOT NULL DEFAULT 2147483647,
    "kind" TEXT NOT NULL,
    "srcId" TEXT NOT NULL,
    "srcPath" TEXT NOT NULL,
    "dstId" TEXT,
    "dstPath" TEXT,
    "raw" TEXT NOT NULL,
    "confidence" REAL NOT NULL DEFAULT 1,
    "line" INTEGER NOT NULL DEFAULT 0
);

INSERT INTO "new_Edge" ("id", "repositoryId", "fromGeneration", "toGeneration", "kind", "srcId", "srcPath", "dstId", "dstPath", "raw", "confidence", "line")
    SELECT x."id", g."repositoryId", g."number", g."number" + 1, x."kind", x."srcId", x."srcPath", x."dstId", x."dstPath", x."raw", x."confidence", x."line"
    FROM "Edge" x JOIN "IndexGeneration" g ON g."id" = x."generationId";

DROP TABLE "Edge";
ALTER TABLE "new_Edge" RENAME TO "Edge";

CREATE INDEX "Edge_repositoryId_kind_srcId_idx" ON "Edge"("repositoryId", "kind", "srcId");

CREATE INDEX "Edge_repositoryId_kind_dstId_idx" ON "Edge"("repositoryId", "kind", "dstId");

CREATE INDEX "Edge_repositoryId_srcPath_idx" ON "Edge"("repositoryId", "srcPath");

CREATE INDEX "Edge_repositoryId_toGeneration_idx" ON "Edge"("repositoryId", "toGeneration");

CREATE INDEX "Edge_repositoryId_fromGeneration_idx" ON "Edge"("repositoryId", "fromGeneration");

CREATE TABLE "new_Chunk" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repositoryId" TEXT NOT NULL,
    "fromGeneration" INTEGER NOT NULL,
    "toGeneration" INTEGER NOT NULL DEFAULT 2147483647,
    "fileId" INTEGER,
    "path" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "symbolId" TEXT,
    "title" TEXT NOT NULL,
    "startLine" INTEGER NOT NULL,
    "endLine" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "searchText" TEXT NOT NULL,
    "tokens" INTEGER NOT NULL
);

INSERT INTO "new_Chunk" ("id", "repositoryId", "fromGeneration", "toGeneration", "fileId", "path", "kind", "symbolId", "title", "startLine", "endLine", "text", "searchText", "tokens")
    SELECT x."id", g."repositoryId", g."number", g."number" + 1, x."fileId", x."path", x."kind", x."symbolId", x."title", x."startLine", x."endLine", x."text", x."searchText", x."tokens"
    FROM "Chunk" x JOIN "IndexGeneration" g ON g."id" = x."generationId";

DROP TABLE "Chunk";
ALTER TABLE "new_Chunk" RENAME TO "Chunk";

CREATE INDEX "Chunk_repositoryId_path_idx" ON "Chunk"("repositoryId", "path");

CREATE INDEX "Chunk_repositoryId_kind_idx" ON "Chunk"("repositoryId", "kind");

CREATE INDEX "Chunk_repositoryId_toGeneration_idx" ON "Chunk"("repositoryId", "toGeneration");

CREATE INDEX "Chunk_repositoryId_fromGeneration_idx" ON "Chunk"("repositoryId", "fromGeneration");

CREATE TABLE "new_WikiPage" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repositoryId" TEXT NOT NULL,
    "fromGeneration" INTEGER NOT NULL,
    "toGeneration" INTEGER NOT NULL DEFAULT 2147483647,
    "slug" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "sourcePath" TEXT,
    "summary" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "diagram" TEXT,
    "inputHash" TEXT NOT NULL,
    "modelWritten" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

INSERT INTO "new_WikiPage" ("id", "repositoryId", "fromGeneration", "toGeneration", "slug", "kind", "title", "sourcePath", "summary", "content", "diagram", "inputHash", "modelWritten", "updatedAt")
    SELECT x."id", g."repositoryId", g."number", g."number" + 1, x."slug", x."kind", x."title", x."sourcePath", x."summary", x."content", x."diagram", x."inputHash", x."modelWritten", x."updatedAt"
    FROM "WikiPage" x JOIN "IndexGeneration" g ON g."id" = x."generationId";

DROP TABLE "WikiPage";
ALTER TABLE "new_WikiPage" RENAME TO "WikiPage";

CREATE INDEX "WikiPage_repositoryId_slug_idx" ON "WikiPage"("repositoryId", "slug");

CREATE INDEX "WikiPage_repositoryId_toGeneration_idx" ON "WikiPage"("repositoryId", "toGeneration");

CREATE INDEX "WikiPage_repositoryId_fromGeneration_idx" ON "WikiPage"("repositoryId", "fromGeneration");

PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
