-- Git sources and automatic re-indexing: a repository may follow a branch of a Git
-- remote (cloned under WAYFINDER_HOME), be polled on a schedule, and each generation
-- records the commit it indexed.
ALTER TABLE "Repository" ADD COLUMN "sourceKind" TEXT NOT NULL DEFAULT 'folder';
ALTER TABLE "Repository" ADD COLUMN "gitUrl" TEXT;
ALTER TABLE "Repository" ADD COLUMN "gitBranch" TEXT;
ALTER TABLE "Repository" ADD COLUMN "pollMinutes" INTEGER;
ALTER TABLE "Repository" ADD COLUMN "nextPollAt" DATETIME;
ALTER TABLE "Repository" ADD COLUMN "lastPolledAt" DATETIME;
ALTER TABLE "Repository" ADD COLUMN "pollError" TEXT;
ALTER TABLE "Repository" ADD COLUMN "remoteHeadSha" TEXT;
ALTER TABLE "IndexGeneration" ADD COLUMN "commitSha" TEXT;
CREATE INDEX "Repository_sourceKind_nextPollAt_idx" ON "Repository"("sourceKind", "nextPollAt");
