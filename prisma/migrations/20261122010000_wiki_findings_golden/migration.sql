-- CreateTable
CREATE TABLE "WikiPage" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "generationId" TEXT NOT NULL,
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

-- CreateTable
CREATE TABLE "Finding" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "generationId" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "detail" TEXT NOT NULL,
    "path" TEXT,
    "startLine" INTEGER,
    "endLine" INTEGER,
    "symbolId" TEXT
);

-- CreateTable
CREATE TABLE "GoldenQuestion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "repositoryId" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "mode" TEXT,
    "expectedFiles" TEXT NOT NULL DEFAULT '[]',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "GoldenRun" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "goldenQuestionId" TEXT NOT NULL,
    "generationId" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "passed" BOOLEAN NOT NULL,
    "citedFiles" TEXT NOT NULL DEFAULT '[]',
    "missingFiles" TEXT NOT NULL DEFAULT '[]',
    "durationMs" INTEGER NOT NULL,
    "error" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "GoldenRun_goldenQuestionId_fkey" FOREIGN KEY ("goldenQuestionId") REFERENCES "GoldenQuestion" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "WikiPage_generationId_kind_idx" ON "WikiPage"("generationId", "kind");

-- CreateIndex
CREATE UNIQUE INDEX "WikiPage_generationId_slug_key" ON "WikiPage"("generationId", "slug");

-- CreateIndex
CREATE INDEX "Finding_generationId_category_idx" ON "Finding"("generationId", "category");

-- CreateIndex
CREATE INDEX "Finding_generationId_path_idx" ON "Finding"("generationId", "path");

-- CreateIndex
CREATE INDEX "GoldenQuestion_repositoryId_idx" ON "GoldenQuestion"("repositoryId");

-- CreateIndex
CREATE INDEX "GoldenRun_goldenQuestionId_createdAt_idx" ON "GoldenRun"("goldenQuestionId", "createdAt");

