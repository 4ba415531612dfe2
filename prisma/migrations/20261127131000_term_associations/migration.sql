-- A repository's own term associations, learned by index builds and kept until enough
-- of the code has changed to learn them again.
CREATE TABLE "TermAssociations" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "repositoryId" TEXT NOT NULL,
    "generation" INTEGER NOT NULL,
    "chunks" INTEGER NOT NULL,
    "data" BLOB NOT NULL
);
CREATE INDEX "TermAssociations_repositoryId_generation_idx" ON "TermAssociations"("repositoryId", "generation");
