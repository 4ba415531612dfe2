-- CreateTable
CREATE TABLE "Repository" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "rootPath" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "activeGenerationId" TEXT,

    CONSTRAINT "Repository_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IndexGeneration" (
    "id" TEXT NOT NULL,
    "repositoryId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "phase" TEXT NOT NULL DEFAULT 'queued',
    "filesDone" INTEGER NOT NULL DEFAULT 0,
    "filesTotal" INTEGER NOT NULL DEFAULT 0,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
    "heartbeatAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "workerPid" INTEGER,
    "error" TEXT,
    "stats" TEXT NOT NULL DEFAULT '{}',

    CONSTRAINT "IndexGeneration_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Blob" (
    "hash" TEXT NOT NULL,
    "content" TEXT NOT NULL,

    CONSTRAINT "Blob_pkey" PRIMARY KEY ("hash")
);

-- CreateTable
CREATE TABLE "File" (
    "id" SERIAL NOT NULL,
    "generationId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "lines" INTEGER NOT NULL,
    "imports" TEXT NOT NULL DEFAULT '[]',
    "parseErrors" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "File_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Symbol" (
    "id" SERIAL NOT NULL,
    "generationId" TEXT NOT NULL,
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
    "fanOut" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Symbol_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Edge" (
    "id" SERIAL NOT NULL,
    "generationId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "srcId" TEXT NOT NULL,
    "srcPath" TEXT NOT NULL,
    "dstId" TEXT,
    "dstPath" TEXT,
    "raw" TEXT NOT NULL,
    "confidence" DOUBLE PRECISION NOT NULL DEFAULT 1,
    "line" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Edge_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Chunk" (
    "id" SERIAL NOT NULL,
    "generationId" TEXT NOT NULL,
    "fileId" INTEGER,
    "path" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "symbolId" TEXT,
    "title" TEXT NOT NULL,
    "startLine" INTEGER NOT NULL,
    "endLine" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "searchText" TEXT NOT NULL,
    "tokens" INTEGER NOT NULL,

    CONSTRAINT "Chunk_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "repositoryId" TEXT NOT NULL,
    "generationId" TEXT NOT NULL,
    "title" TEXT NOT NULL DEFAULT '',
    "shareId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastAccessedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "cache" TEXT NOT NULL DEFAULT '[]',
    "notFound" TEXT NOT NULL DEFAULT '[]',

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Message" (
    "id" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "parts" TEXT NOT NULL DEFAULT '[]',
    "metadata" TEXT NOT NULL DEFAULT '{}',
    "generationId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Setting_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "SettingChange" (
    "id" SERIAL NOT NULL,
    "key" TEXT NOT NULL,
    "oldValue" TEXT,
    "newValue" TEXT,
    "actor" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SettingChange_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "QuestionMetric" (
    "id" SERIAL NOT NULL,
    "repositoryId" TEXT NOT NULL,
    "sessionId" TEXT,
    "mode" TEXT NOT NULL,
    "forcedMode" BOOLEAN NOT NULL DEFAULT false,
    "quality" TEXT NOT NULL,
    "passes" INTEGER NOT NULL,
    "gapsIdentified" INTEGER NOT NULL,
    "gapsResolved" INTEGER NOT NULL,
    "gapsUnresolved" INTEGER NOT NULL,
    "tokens" INTEGER NOT NULL,
    "latencyMs" INTEGER NOT NULL,
    "phases" TEXT NOT NULL DEFAULT '{}',
    "fallback" BOOLEAN NOT NULL DEFAULT false,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "QuestionMetric_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Repository_name_key" ON "Repository"("name");

-- CreateIndex
CREATE UNIQUE INDEX "Repository_rootPath_key" ON "Repository"("rootPath");

-- CreateIndex
CREATE INDEX "IndexGeneration_repositoryId_status_idx" ON "IndexGeneration"("repositoryId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "IndexGeneration_repositoryId_number_key" ON "IndexGeneration"("repositoryId", "number");

-- CreateIndex
CREATE INDEX "File_generationId_language_idx" ON "File"("generationId", "language");

-- CreateIndex
CREATE UNIQUE INDEX "File_generationId_path_key" ON "File"("generationId", "path");

-- CreateIndex
CREATE INDEX "Symbol_generationId_name_idx" ON "Symbol"("generationId", "name");

-- CreateIndex
CREATE INDEX "Symbol_generationId_path_idx" ON "Symbol"("generationId", "path");

-- CreateIndex
CREATE INDEX "Symbol_generationId_qualifiedId_idx" ON "Symbol"("generationId", "qualifiedId");

-- CreateIndex
CREATE INDEX "Symbol_fileId_idx" ON "Symbol"("fileId");

-- CreateIndex
CREATE INDEX "Edge_generationId_kind_srcId_idx" ON "Edge"("generationId", "kind", "srcId");

-- CreateIndex
CREATE INDEX "Edge_generationId_kind_dstId_idx" ON "Edge"("generationId", "kind", "dstId");

-- CreateIndex
CREATE INDEX "Edge_generationId_srcPath_idx" ON "Edge"("generationId", "srcPath");

-- CreateIndex
CREATE INDEX "Chunk_generationId_path_idx" ON "Chunk"("generationId", "path");

-- CreateIndex
CREATE INDEX "Chunk_generationId_kind_idx" ON "Chunk"("generationId", "kind");

-- CreateIndex
CREATE UNIQUE INDEX "Session_shareId_key" ON "Session"("shareId");

-- CreateIndex
CREATE INDEX "Session_repositoryId_lastAccessedAt_idx" ON "Session"("repositoryId", "lastAccessedAt");

-- CreateIndex
CREATE INDEX "Message_sessionId_createdAt_idx" ON "Message"("sessionId", "createdAt");

-- CreateIndex
CREATE INDEX "QuestionMetric_repositoryId_createdAt_idx" ON "QuestionMetric"("repositoryId", "createdAt");

-- CreateIndex
CREATE INDEX "QuestionMetric_createdAt_idx" ON "QuestionMetric"("createdAt");

-- AddForeignKey
ALTER TABLE "IndexGeneration" ADD CONSTRAINT "IndexGeneration_repositoryId_fkey" FOREIGN KEY ("repositoryId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "File" ADD CONSTRAINT "File_generationId_fkey" FOREIGN KEY ("generationId") REFERENCES "IndexGeneration"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_repositoryId_fkey" FOREIGN KEY ("repositoryId") REFERENCES "Repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_sessionId_fkey" FOREIGN KEY ("sessionId") REFERENCES "Session"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Lexical index: a weighted tsvector of each chunk (title A, path B, searchText C), the
-- PostgreSQL counterpart of SQLite's chunk_fts. A stored generated column rather than an
-- expression index: ranking reads the vector of every matching row, which an expression
-- index would re-parse from the text per query. Nothing to keep in sync: copies and
-- deletes of "Chunk" rows carry it. 'simple' = lowercase words, no stemming or stop
-- words, like FTS5's unicode61; searchText is already identifier-split (lib/search/tokenize.ts),
-- and ASCII punctuation in title and path becomes spaces as FTS5 would split there.
ALTER TABLE "Chunk" ADD COLUMN "searchVector" tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple'::regconfig, translate("title", '!"#$%&''()*+,-./:;<=>?@[\]^_`{|}~', '                                ')), 'A') ||
    setweight(to_tsvector('simple'::regconfig, translate("path", '!"#$%&''()*+,-./:;<=>?@[\]^_`{|}~', '                                ')), 'B') ||
    setweight(to_tsvector('simple'::regconfig, "searchText"), 'C')
) STORED;

CREATE INDEX "Chunk_searchVector_idx" ON "Chunk" USING GIN ("searchVector");
