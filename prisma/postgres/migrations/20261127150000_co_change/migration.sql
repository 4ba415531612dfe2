-- CreateTable
CREATE TABLE "CoChange" (
    "repositoryId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "partner" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "CoChange_pkey" PRIMARY KEY ("repositoryId","path","partner")
);

-- CreateTable
CREATE TABLE "CoChangeHead" (
    "repositoryId" TEXT NOT NULL,
    "commitSha" TEXT NOT NULL,
    "commits" INTEGER NOT NULL,

    CONSTRAINT "CoChangeHead_pkey" PRIMARY KEY ("repositoryId")
);
