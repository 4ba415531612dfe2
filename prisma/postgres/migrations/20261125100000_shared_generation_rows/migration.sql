-- Index rows are shared between generations. Each row of File, Symbol, Edge, Chunk and
-- WikiPage carries the range of generation numbers it belongs to, [fromGeneration,
-- toGeneration) (2147483647 while current), instead of one generationId per copy, so a
-- build writes only what changed. Existing rows keep serving: each belongs to exactly
-- the generation it was written for; the next build of a repository re-indexes it in
-- full (INDEX_FORMAT_VERSION 4), and garbage collection drops the old rows.

-- Full-text search stays the stored tsvector of each Chunk row (written once per row).

DROP INDEX "File_generationId_language_idx";
DROP INDEX "File_generationId_path_key";
ALTER TABLE "File" ADD COLUMN "repositoryId" TEXT,
    ADD COLUMN "fromGeneration" INTEGER,
    ADD COLUMN "toGeneration" INTEGER NOT NULL DEFAULT 2147483647,
    ADD COLUMN "callNames" TEXT NOT NULL DEFAULT '';
UPDATE "File" x SET "repositoryId" = g."repositoryId", "fromGeneration" = g."number", "toGeneration" = g."number" + 1
    FROM "IndexGeneration" g WHERE g."id" = x."generationId";
DELETE FROM "File" WHERE "repositoryId" IS NULL;
ALTER TABLE "File" DROP CONSTRAINT "File_generationId_fkey";
ALTER TABLE "File" ALTER COLUMN "repositoryId" SET NOT NULL,
    ALTER COLUMN "fromGeneration" SET NOT NULL,
    DROP COLUMN "generationId";
CREATE INDEX "File_repositoryId_path_idx" ON "File"("repositoryId", "path");
CREATE INDEX "File_repositoryId_toGeneration_idx" ON "File"("repositoryId", "toGeneration");
CREATE INDEX "File_repositoryId_fromGeneration_idx" ON "File"("repositoryId", "fromGeneration");
CREATE INDEX "File_hash_idx" ON "File"("hash");

DROP INDEX "Symbol_generationId_name_idx";
DROP INDEX "Symbol_generationId_path_idx";
DROP INDEX "Symbol_generationId_qualifiedId_idx";
DROP INDEX "Symbol_fileId_idx";
ALTER TABLE "Symbol" ADD COLUMN "repositoryId" TEXT,
    ADD COLUMN "fromGeneration" INTEGER,
    ADD COLUMN "toGeneration" INTEGER NOT NULL DEFAULT 2147483647;
UPDATE "Symbol" x SET "repositoryId" = g."repositoryId", "fromGeneration" = g."number", "toGeneration" = g."number" + 1
    FROM "IndexGeneration" g WHERE g."id" = x."generationId";
DELETE FROM "Symbol" WHERE "repositoryId" IS NULL;
ALTER TABLE "Symbol" ALTER COLUMN "repositoryId" SET NOT NULL,
    ALTER COLUMN "fromGeneration" SET NOT NULL,
    DROP COLUMN "generationId";
CREATE INDEX "Symbol_repositoryId_name_idx" ON "Symbol"("repositoryId", "name");
CREATE INDEX "Symbol_repositoryId_path_idx" ON "Symbol"("repositoryId", "path");
CREATE INDEX "Symbol_repositoryId_qualifiedId_idx" ON "Symbol"("repositoryId", "qualifiedId");

-- CreateIndex
CREATE INDEX "Symbol_repositoryId_qualifiedName_idx" ON "Symbol"("repositoryId", "qualifiedName");
CREATE INDEX "Symbol_repositoryId_toGeneration_idx" ON "Symbol"("repositoryId", "toGeneration");
CREATE INDEX "Symbol_repositoryId_fromGeneration_idx" ON "Symbol"("repositoryId", "fromGeneration");

DROP INDEX "Edge_generationId_kind_srcId_idx";
DROP INDEX "Edge_generationId_kind_dstId_idx";
DROP INDEX "Edge_generationId_srcPath_idx";
ALTER TABLE "Edge" ADD COLUMN "repositoryId" TEXT,
    ADD COLUMN "fromGeneration" INTEGER,
    ADD COLUMN "toGeneration" INTEGER NOT NULL DEFAULT 2147483647;
UPDATE "Edge" x SET "repositoryId" = g."repositoryId", "fromGeneration" = g."number", "toGeneration" = g."number" + 1
    FROM "IndexGeneration" g WHERE g."id" = x."generationId";
DELETE FROM "Edge" WHERE "repositoryId" IS NULL;
ALTER TABLE "Edge" ALTER COLUMN "repositoryId" SET NOT NULL,
    ALTER COLUMN "fromGeneration" SET NOT NULL,
    DROP COLUMN "generationId";
CREATE INDEX "Edge_repositoryId_kind_srcId_idx" ON "Edge"("repositoryId", "kind", "srcId");
CREATE INDEX "Edge_repositoryId_kind_dstId_idx" ON "Edge"("repositoryId", "kind", "dstId");
CREATE INDEX "Edge_repositoryId_srcPath_idx" ON "Edge"("repositoryId", "srcPath");
CREATE INDEX "Edge_repositoryId_toGeneration_idx" ON "Edge"("repositoryId", "toGeneration");
CREATE INDEX "Edge_repositoryId_fromGeneration_idx" ON "Edge"("repositoryId", "fromGeneration");

DROP INDEX "Chunk_generationId_path_idx";
DROP INDEX "Chunk_generationId_kind_idx";
ALTER TABLE "Chunk" ADD COLUMN "repositoryId" TEXT,
    ADD COLUMN "fromGeneration" INTEGER,
    ADD COLUMN "toGeneration" INTEGER NOT NULL DEFAULT 2147483647;
UPDATE "Chunk" x SET "repositoryId" = g."repositoryId", "fromGeneration" = g."number", "toGeneration" = g."number" + 1
    FROM "IndexGeneration" g WHERE g."id" = x."generationId";
DELETE FROM "Chunk" WHERE "repositoryId" IS NULL;
ALTER TABLE "Chunk" ALTER COLUMN "repositoryId" SET NOT NULL,
    ALTER COLUMN "fromGeneration" SET NOT NULL,
    DROP COLUMN "generationId";
CREATE INDEX "Chunk_repositoryId_path_idx" ON "Chunk"("repositoryId", "path");
CREATE INDEX "Chunk_repositoryId_kind_idx" ON "Chunk"("repositoryId", "kind");
CREATE INDEX "Chunk_repositoryId_toGeneration_idx" ON "Chunk"("repositoryId", "toGeneration");
CREATE INDEX "Chunk_repositoryId_fromGeneration_idx" ON "Chunk"("repositoryId", "fromGeneration");

DROP INDEX "WikiPage_generationId_kind_idx";
DROP INDEX "WikiPage_generationId_slug_key";
ALTER TABLE "WikiPage" ADD COLUMN "repositoryId" TEXT,
    ADD COLUMN "fromGeneration" INTEGER,
    ADD COLUMN "toGeneration" INTEGER NOT NULL DEFAULT 2147483647;
UPDATE "WikiPage" x SET "repositoryId" = g."repositoryId", "fromGeneration" = g."number", "toGeneration" = g."number" + 1
    FROM "IndexGeneration" g WHERE g."id" = x."generationId";
DELETE FROM "WikiPage" WHERE "repositoryId" IS NULL;
ALTER TABLE "WikiPage" ALTER COLUMN "repositoryId" SET NOT NULL,
    ALTER COLUMN "fromGeneration" SET NOT NULL,
    DROP COLUMN "generationId";
CREATE INDEX "WikiPage_repositoryId_slug_idx" ON "WikiPage"("repositoryId", "slug");
CREATE INDEX "WikiPage_repositoryId_toGeneration_idx" ON "WikiPage"("repositoryId", "toGeneration");
CREATE INDEX "WikiPage_repositoryId_fromGeneration_idx" ON "WikiPage"("repositoryId", "fromGeneration");
