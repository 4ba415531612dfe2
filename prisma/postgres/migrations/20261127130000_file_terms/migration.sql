-- AlterTable
ALTER TABLE "File" ADD COLUMN     "words" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "FileTerm" (
    "fileId" INTEGER NOT NULL,
    "term" INTEGER NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "FileTerm_pkey" PRIMARY KEY ("fileId","term")
);

-- CreateIndex
CREATE INDEX "FileTerm_term_fileId_count_idx" ON "FileTerm"("term", "fileId", "count");
