-- AlterTable
ALTER TABLE "IndexGeneration" ADD COLUMN     "commitSha" TEXT;

-- AlterTable
ALTER TABLE "Repository" ADD COLUMN     "gitBranch" TEXT,
ADD COLUMN     "gitUrl" TEXT,
ADD COLUMN     "lastPolledAt" TIMESTAMP(3),
ADD COLUMN     "nextPollAt" TIMESTAMP(3),
ADD COLUMN     "pollError" TEXT,
ADD COLUMN     "pollMinutes" INTEGER,
ADD COLUMN     "remoteHeadSha" TEXT,
ADD COLUMN     "sourceKind" TEXT NOT NULL DEFAULT 'folder';

-- CreateIndex
CREATE INDEX "Repository_sourceKind_nextPollAt_idx" ON "Repository"("sourceKind", "nextPollAt");
