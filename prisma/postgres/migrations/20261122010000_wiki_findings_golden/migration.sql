-- CreateTable
CREATE TABLE "WikiPage" (
    "id" SERIAL NOT NULL,
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
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WikiPage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Finding" (
    "id" SERIAL NOT NULL,
    "generationId" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "detail" TEXT NOT NULL,
    "path" TEXT,
    "startLine" INTEGER,
    "endLine" INTEGER,
    "symbolId" TEXT,

    CONSTRAINT "Finding_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GoldenQuestion" (
    "id" TEXT NOT NULL,
    "repositoryId" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "mode" TEXT,
    "expectedFiles" TEXT NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GoldenQuestion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GoldenRun" (
    "id" SERIAL NOT NULL,
    "goldenQuestionId" TEXT NOT NULL,
    "generationId" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "passed" BOOLEAN NOT NULL,
    "citedFiles" TEXT NOT NULL DEFAULT '[]',
    "missingFiles" TEXT NOT NULL DEFAULT '[]',
    "durationMs" INTEGER NOT NULL,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GoldenRun_pkey" PRIMARY KEY ("id")
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

-- AddForeignKey
ALTER TABLE "GoldenRun" ADD CONSTRAINT "GoldenRun_goldenQuestionId_fkey" FOREIGN KEY ("goldenQuestionId") REFERENCES "GoldenQuestion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

