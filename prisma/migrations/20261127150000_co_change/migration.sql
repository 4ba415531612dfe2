-- How often files changed together in a repository's git history, and the commit up to
-- which that history is folded in: partner files for retrieval (lib/indexer/history.ts).
CREATE TABLE "CoChange" (
    "repositoryId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "partner" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    PRIMARY KEY ("repositoryId", "path", "partner")
);

CREATE TABLE "CoChangeHead" (
    "repositoryId" TEXT NOT NULL PRIMARY KEY,
    "commitSha" TEXT NOT NULL,
    "commits" INTEGER NOT NULL
);
