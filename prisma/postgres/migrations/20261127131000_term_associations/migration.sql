-- CreateTable
CREATE TABLE "TermAssociations" (
    "id" SERIAL NOT NULL,
    "repositoryId" TEXT NOT NULL,
    "generation" INTEGER NOT NULL,
    "chunks" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "TermAssociations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "TermAssociations_repositoryId_generation_idx" ON "TermAssociations"("repositoryId", "generation");
